/**
 * A bucket's CORS configuration through the S3 plane, on both stores: stored and answered back by
 * the AWS SDK, checked when it is put (a refused document leaves the old one), and applied as S3
 * applies it — preflights (unsigned OPTIONS, sent here by hand as a browser sends them) answered
 * from the first matching rule or refused, and the matching rule's headers on the actual request's
 * answer, errors included, so a browser can read both.
 */
import { DeleteBucketCorsCommand, GetBucketCorsCommand, PutBucketCorsCommand, PutObjectCommand, type CORSRule } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { type S3Env, s3Client, useS3Env } from '../../helpers/s3-plane.js';
import { errorCode, rawRequest, signedRequest } from '../../helpers/s3-raw.js';

const raw = (env: S3Env, method: string, path: string, headers: Record<string, string> = {}) => rawRequest(env.plane, method, path, headers);

/** A GET signed with the zone's password (or `secret`) that carries `extra` headers (an Origin), as a browser's fetch sends it. */
const signedGet = (env: S3Env, path: string, extra: Record<string, string>, secret?: string) =>
  signedRequest(env.plane, env.zone, 'GET', path, { headers: extra, ...(secret === undefined ? {} : { secret }) });

const codeOf = errorCode;

const preflight = (env: S3Env, key: string, origin: string | undefined, method: string | undefined, requestHeaders?: string) =>
  raw(env, 'OPTIONS', `/${env.zone.Name}/${key}`, {
    ...(origin === undefined ? {} : { origin }),
    ...(method === undefined ? {} : { 'access-control-request-method': method }),
    ...(requestHeaders === undefined ? {} : { 'access-control-request-headers': requestHeaders }),
  });

const RULES: CORSRule[] = [
  {
    ID: 'app',
    AllowedHeaders: ['Authorization', 'x-amz-*'],
    AllowedMethods: ['GET', 'PUT', 'HEAD'],
    AllowedOrigins: ['https://app.example.org'],
    ExposeHeaders: ['ETag', 'x-amz-request-id'],
    MaxAgeSeconds: 600,
  },
  { ID: 'subdomains', AllowedMethods: ['GET', 'POST'], AllowedOrigins: ['https://*.example.com'], AllowedHeaders: ['content-type'] },
  { AllowedMethods: ['GET'], AllowedOrigins: ['*'] },
];

describe('S3 bucket CORS', () => {
  const env = useS3Env('cors');

  const putRules = (CORSRules: CORSRule[]) => env.s3.send(new PutBucketCorsCommand({ Bucket: env.zone.Name, CORSConfiguration: { CORSRules } }));

  it('stores a configuration with every field, answers it back, and removes it', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await expect(s3.send(new GetBucketCorsCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchCORSConfiguration', $metadata: { httpStatusCode: 404 } });
    await expect(putRules(RULES)).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    const got = await s3.send(new GetBucketCorsCommand({ Bucket }));
    expect(got.CORSRules).toEqual(
      RULES.map((rule) => ({ AllowedHeaders: undefined, ExposeHeaders: undefined, ID: undefined, MaxAgeSeconds: undefined, ...rule })),
    );

    // A put replaces the whole configuration.
    const replacement: CORSRule[] = [{ ID: 'only', AllowedMethods: ['DELETE'], AllowedOrigins: ['http://localhost:3000'], MaxAgeSeconds: 0 }];
    await putRules(replacement);
    expect((await s3.send(new GetBucketCorsCommand({ Bucket }))).CORSRules).toEqual([
      { ID: 'only', AllowedMethods: ['DELETE'], AllowedOrigins: ['http://localhost:3000'], MaxAgeSeconds: 0 },
    ]);

    await expect(s3.send(new DeleteBucketCorsCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    await expect(s3.send(new GetBucketCorsCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchCORSConfiguration' });
    // Deleting what is not there succeeds, as in S3.
    await expect(s3.send(new DeleteBucketCorsCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    // And the preflight that worked before is refused now.
    const refused = await preflight(env, 'a.txt', 'https://app.example.org', 'GET');
    expect(refused.status).toBe(403);
  });

  it('refuses invalid configurations with the reason and keeps the old one', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await putRules(RULES);
    const invalid: [CORSRule[], string, RegExp][] = [
      [[{ AllowedMethods: ['PATCH'], AllowedOrigins: ['*'] }], 'InvalidRequest', /unsupported HTTP method.*PATCH/],
      [[{ AllowedMethods: ['GET'], AllowedOrigins: ['https://*.example.*'] }], 'InvalidRequest', /more than one wildcard/],
      [[{ AllowedMethods: ['GET'], AllowedOrigins: ['*'], AllowedHeaders: ['x-*-*'] }], 'InvalidRequest', /more than one wildcard/],
      [[], 'MalformedXML', /well-formed/],
      [Array.from({ length: 101 }, () => ({ AllowedMethods: ['GET'], AllowedOrigins: ['*'] })), 'InvalidRequest', /at most 100 rules/],
      [[{ ID: 'x'.repeat(256), AllowedMethods: ['GET'], AllowedOrigins: ['*'] }], 'InvalidArgument', /at most 255/],
    ];
    for (const [rules, name, message] of invalid) {
      const error = await putRules(rules).then(
        () => undefined,
        (e: Error & { $metadata?: { httpStatusCode?: number } }) => e,
      );
      expect(error, JSON.stringify(rules).slice(0, 100)).toMatchObject({ name, $metadata: { httpStatusCode: 400 } });
      expect(error?.message).toMatch(message);
    }
    // Exactly 100 rules are allowed.
    const hundred = Array.from({ length: 100 }, (_, i) => ({ ID: `r${i}`, AllowedMethods: ['GET'], AllowedOrigins: [`https://${i}.example.net`] }));
    await putRules(hundred);
    expect((await s3.send(new GetBucketCorsCommand({ Bucket }))).CORSRules).toHaveLength(100);
    await putRules(RULES);

    // Documents the SDK would not build: no AllowedOrigin, a MaxAgeSeconds that is not a number, not XML, a DOCTYPE.
    for (const body of [
      '<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>',
      '<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*</AllowedOrigin><MaxAgeSeconds>soon</MaxAgeSeconds></CORSRule></CORSConfiguration>',
      '<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*</AllowedOrigin><MaxAgeSeconds>-1</MaxAgeSeconds></CORSRule></CORSConfiguration>',
      'not xml at all',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><CORSConfiguration/>',
    ]) {
      const answer = await signedRequest(env.plane, zone, 'PUT', `/${Bucket}`, { query: { cors: '' }, body });
      expect(answer.status, body).toBe(400);
      expect(codeOf(answer.body), body).toBe('MalformedXML');
    }
    expect((await s3.send(new GetBucketCorsCommand({ Bucket }))).CORSRules?.map((r) => r.ID)).toEqual(['app', 'subdomains', undefined]);
  });

  it('lets the read-only password read the configuration but not change or remove it', async () => {
    const { zone } = env;
    const Bucket = zone.Name;
    await putRules(RULES);
    const readOnly = s3Client(env.plane, zone, { secret: zone.ReadOnlyPassword });
    try {
      await expect(readOnly.send(new GetBucketCorsCommand({ Bucket }))).resolves.toMatchObject({ CORSRules: expect.any(Array) });
      await expect(
        readOnly.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }] } })),
      ).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
      await expect(readOnly.send(new DeleteBucketCorsCommand({ Bucket }))).rejects.toMatchObject({ name: 'AccessDenied' });
    } finally {
      readOnly.destroy();
    }
    expect((await env.s3.send(new GetBucketCorsCommand({ Bucket }))).CORSRules).toHaveLength(3);
  });

  it('answers a preflight from the first rule that allows the origin, the method and the headers', async () => {
    await putRules(RULES);

    // The exact origin: its rule's methods, the requested headers echoed, exposed headers, max age, credentials.
    const exact = await preflight(env, 'photos/a.jpg', 'https://app.example.org', 'PUT', 'authorization, x-amz-date, X-Amz-Content-Sha256');
    expect(exact.status).toBe(200);
    expect(exact.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.org',
      'access-control-allow-methods': 'GET, PUT, HEAD',
      'access-control-allow-headers': 'authorization, x-amz-date, X-Amz-Content-Sha256',
      'access-control-expose-headers': 'ETag, x-amz-request-id',
      'access-control-max-age': '600',
      'access-control-allow-credentials': 'true',
    });
    expect(exact.headers.vary).toMatch(/Origin/);
    expect(exact.headers.vary).toMatch(/Access-Control-Request-Method/);
    expect(exact.headers.vary).toMatch(/Access-Control-Request-Headers/);

    // A wildcard origin: any subdomain, with its own rule's methods and no max age.
    const sub = await preflight(env, 'a', 'https://cdn.example.com', 'POST', 'Content-Type');
    expect(sub.status).toBe(200);
    expect(sub.headers).toMatchObject({
      'access-control-allow-origin': 'https://cdn.example.com',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'Content-Type',
      'access-control-allow-credentials': 'true',
    });
    expect(sub.headers['access-control-max-age']).toBeUndefined();
    expect(sub.headers['access-control-expose-headers']).toBeUndefined();

    // `*`: any origin, answered `*` and never with credentials.
    const any = await preflight(env, 'a', 'http://elsewhere.test', 'GET');
    expect(any.status).toBe(200);
    expect(any.headers['access-control-allow-origin']).toBe('*');
    expect(any.headers['access-control-allow-methods']).toBe('GET');
    expect(any.headers['access-control-allow-credentials']).toBeUndefined();
    expect(any.headers['access-control-allow-headers']).toBeUndefined();
    // A preflight to the bucket itself (a listing from a browser) is answered the same way.
    expect((await raw(env, 'OPTIONS', `/${env.zone.Name}`, { origin: 'http://elsewhere.test', 'access-control-request-method': 'GET' })).status).toBe(200);

    // The first matching rule wins: the exact origin asking GET gets its own rule, not `*`.
    const first = await preflight(env, 'a', 'https://app.example.org', 'GET');
    expect(first.headers['access-control-allow-origin']).toBe('https://app.example.org');
    // The origin is matched as a whole: a longer name or another scheme is another origin.
    const other = await preflight(env, 'a', 'https://app.example.org.evil.test', 'PUT');
    expect(other.status).toBe(403);
    expect((await preflight(env, 'a', 'http://app.example.org', 'PUT')).status).toBe(403);
    // The wildcard stands for at least the empty run, not for the dot: `https://example.com` is not a subdomain.
    expect((await preflight(env, 'a', 'https://example.com', 'POST')).status).toBe(403);
  });

  it('refuses a preflight no rule allows with 403, and one that is not a preflight with 400', async () => {
    const answered = async (origin: string | undefined, method: string | undefined, headers?: string) => {
      const res = await preflight(env, 'a.txt', origin, method, headers);
      return { status: res.status, code: codeOf(res.body), message: /<Message>([^<]*)<\/Message>/.exec(res.body)?.[1] };
    };
    // Not configured at all.
    expect(await answered('https://app.example.org', 'GET')).toMatchObject({
      status: 403,
      code: 'AccessForbidden',
      message: expect.stringMatching(/not enabled/),
    });
    await putRules(RULES.slice(0, 2));
    // An origin no rule names, a method the origin's rule does not allow, a header it does not allow.
    expect(await answered('https://unknown.example.net', 'GET')).toMatchObject({ status: 403, code: 'AccessForbidden' });
    expect(await answered('https://app.example.org', 'DELETE')).toMatchObject({ status: 403, code: 'AccessForbidden' });
    expect(await answered('https://app.example.org', 'PUT', 'authorization, x-custom-header')).toMatchObject({ status: 403, code: 'AccessForbidden' });
    // Header names are matched without regard to case, and `x-amz-*` covers every x-amz- header.
    expect(await answered('https://app.example.org', 'PUT', 'AUTHORIZATION,X-Amz-Meta-Owner')).toMatchObject({ status: 200 });
    // Not a preflight: no Origin, no method, a method that is not one.
    expect(await answered(undefined, 'GET')).toMatchObject({ status: 400, message: expect.stringMatching(/Origin/) });
    expect(await answered('https://app.example.org', undefined)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/Access-Control-Request-Method/),
    });
    expect(await answered('https://app.example.org', 'TRACE')).toMatchObject({ status: 400 });
    // A bucket that does not exist.
    const missing = await raw(env, 'OPTIONS', '/no-such-bucket-here/a', { origin: 'https://app.example.org', 'access-control-request-method': 'GET' });
    expect(missing.status).toBe(404);
    expect(codeOf(missing.body)).toBe('NoSuchBucket');
  });

  it('puts the matching rule’s headers on the actual request, on its answer and on its errors', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'page.html', Body: '<p>hello</p>' }));
    await putRules(RULES);

    // A signed GET from the app's origin: the object, with the rule's headers.
    const ok = await signedGet(env, `/${Bucket}/page.html`, { origin: 'https://app.example.org' });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('<p>hello</p>');
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.org',
      'access-control-allow-methods': 'GET, PUT, HEAD',
      'access-control-expose-headers': 'ETag, x-amz-request-id',
      'access-control-max-age': '600',
      'access-control-allow-credentials': 'true',
    });
    expect(ok.headers.vary).toMatch(/Origin/);

    // An error answer carries them too: a missing key …
    const missing = await signedGet(env, `/${Bucket}/nothing-here.html`, { origin: 'https://cdn.example.com' });
    expect(missing.status).toBe(404);
    expect(codeOf(missing.body)).toBe('NoSuchKey');
    expect(missing.headers['access-control-allow-origin']).toBe('https://cdn.example.com');
    // … an unsigned request the bucket (which has no policy) refuses …
    const anonymous = await raw(env, 'GET', `/${Bucket}/page.html`, { origin: 'http://anyone.test' });
    expect(anonymous.status).toBe(403);
    expect(codeOf(anonymous.body)).toBe('AccessDenied');
    expect(anonymous.headers['access-control-allow-origin']).toBe('*');
    // … and a wrong signature.
    const wrong = await signedGet(env, `/${Bucket}/page.html`, { origin: 'https://app.example.org' }, 'not-the-password');
    expect(wrong.status).toBe(403);
    expect(codeOf(wrong.body)).toBe('SignatureDoesNotMatch');
    expect(wrong.headers['access-control-allow-origin']).toBe('https://app.example.org');

    // No matching rule (an origin none names, for a method its rule lacks): no CORS headers.
    await putRules(RULES.slice(0, 1));
    const stranger = await signedGet(env, `/${Bucket}/page.html`, { origin: 'https://stranger.test' });
    expect(stranger.status).toBe(200);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    // Without an Origin, a request is not a cross-origin one: no CORS headers either.
    const plain = await signedGet(env, `/${Bucket}/page.html`, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps the configuration across a restart', async () => {
    await putRules(RULES);
    await env.restart();
    expect((await env.s3.send(new GetBucketCorsCommand({ Bucket: env.zone.Name }))).CORSRules).toHaveLength(3);
    const answer = await preflight(env, 'a', 'https://cdn.example.com', 'GET');
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('https://cdn.example.com');
  });
});
