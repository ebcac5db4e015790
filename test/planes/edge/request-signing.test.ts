/**
 * Request signing over real sockets: off, the origin gets no Authorization; on, edgeplane's own S3
 * plane serves a private bucket's object through the pull zone (and refuses a wrong secret, which
 * the edge passes on), and a plain origin checks the AWS Signature Version 4 itself, computed here
 * from AWS's description of it, not by the signer the edge uses.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';
import { createS3Zone, type S3Plane, type S3Zone, s3Client, startS3Plane } from '../../helpers/s3-plane.js';
import { within } from '../../helpers/within.js';

const KEY = 'origin-key-id';
const SECRET = 'origin-secret-0123456789';
const REGION = 'eu-west-3';
const EMPTY_SHA256 = createHash('sha256').digest('hex');

let t: TestContext;
let edge: EdgePlane;
let s3: S3Plane;
let bucket: S3Zone;
let checking: TestOrigin;
/** What the checking origin concluded about each request it got. */
const verdicts: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  edge = await startEdgePlane(t);
  s3 = await startS3Plane(t);
  bucket = await createS3Zone(t, `signed-${randomBytes(3).toString('hex')}`);
  const client = s3Client(s3, bucket);
  await client.send(new PutObjectCommand({ Bucket: bucket.Name, Key: 'private/report.txt', Body: 'the private report', ContentType: 'text/plain' }));
  client.destroy();
  checking = await startOrigin((req, res) => {
    const verdict = checkSignature(req);
    verdicts.push(verdict);
    res.writeHead(verdict === 'valid' ? 200 : 403, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end(verdict);
  });
});
afterAll(async () => {
  await checking?.close();
  await s3?.close();
  await edge?.close();
  await t?.close();
});

/**
 * Signature Version 4 as AWS describes it (the canonical request, the string to sign, the key
 * derived from the secret), checked against the request as it arrived: `valid`, `unsigned`, or why not.
 */
function checkSignature(req: IncomingMessage): string {
  const authorization = req.headers['authorization'];
  if (authorization === undefined) return 'unsigned';
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
    authorization,
  );
  if (!m) return `malformed: ${authorization}`;
  const [, keyId, day, region, signedHeaders, signature] = m as unknown as [string, string, string, string, string, string];
  if (keyId !== KEY || region !== REGION) return `wrong scope ${keyId} ${region}`;
  const amzDate = String(req.headers['x-amz-date']);
  if (
    !amzDate.startsWith(day) ||
    Math.abs(Date.parse(amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')) - Date.now()) > 60_000
  ) {
    return `stale date ${amzDate}`;
  }
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = (mark < 0 ? '' : url.slice(mark + 1))
    .split('&')
    .filter((p) => p !== '')
    .map((p) => (p.includes('=') ? p : `${p}=`))
    .sort()
    .join('&');
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) return `unsigned headers: ${signedHeaders}`;
  const canonical = [
    req.method,
    path,
    query,
    ...names.map((n) => `${n}:${String(req.headers[n]).trim()}`),
    '',
    signedHeaders,
    req.headers['x-amz-content-sha256'],
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, day), region), 's3'), 'aws4_request');
  return createHmac('sha256', signingKey).update(toSign).digest('hex') === signature ? 'valid' : 'signature does not match';
}

const signing = (extra: Record<string, unknown> = {}) => ({
  RequestSigningEnabled: true,
  RequestSigningKey: KEY,
  RequestSigningSecret: SECRET,
  RequestSigningRegionName: REGION,
  ...extra,
});

describe('request signing off', () => {
  it('sends the origin no Authorization, even with a key and secret stored', async () => {
    const zone = await createPullZone(t, 'unsigned-zone', checking.url, { ...signing(), RequestSigningEnabled: false });
    const res = await edge.get(zone.host, '/plain.txt');
    expect([res.status, res.text]).toEqual([403, 'unsigned']);
    expect(checking.requests.at(-1)!.headers['authorization']).toBeUndefined();
  });

  it("leaves a private bucket's object to the bucket's refusal", async () => {
    const zone = await createPullZone(t, 'unsigned-bucket', `${s3.url}/${bucket.Name}`);
    const res = await edge.get(zone.host, '/private/report.txt');
    expect(res.status).toBe(403);
    expect(res.text).toContain('<Code>AccessDenied</Code>');
  });
});

describe('request signing on', () => {
  it("serves a private object of edgeplane's own S3 plane, signed with the storage zone's name and password", async () => {
    const zone = await createPullZone(
      t,
      'signed-bucket',
      `${s3.url}/${bucket.Name}`,
      signing({ RequestSigningKey: bucket.Name, RequestSigningSecret: bucket.Password, RequestSigningRegionName: bucket.Region.toLowerCase() }),
    );
    const res = await edge.get(zone.host, '/private/report.txt');
    expect([res.status, res.text, res.headers['cdn-cache']]).toEqual([200, 'the private report', 'MISS']);
    expect((await edge.get(zone.host, '/private/report.txt')).headers['cdn-cache']).toBe('HIT');
    // A name the bucket does not hold: S3's own 404, signed all the same.
    const missing = await edge.get(zone.host, '/private/none.txt');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<Code>NoSuchKey</Code>');
  });

  it("passes on the S3 plane's refusal of a wrong secret", async () => {
    const zone = await createPullZone(
      t,
      'wrong-secret',
      `${s3.url}/${bucket.Name}`,
      signing({ RequestSigningKey: bucket.Name, RequestSigningSecret: 'not-the-password', RequestSigningRegionName: bucket.Region.toLowerCase() }),
    );
    const res = await edge.get(zone.host, '/private/report.txt');
    expect(res.status).toBe(403);
    expect(res.text).toContain('<Code>SignatureDoesNotMatch</Code>');
  });

  it("signs for another origin with the zone's region: path and query in S3's spelling, the client's credentials not passed on", async () => {
    const zone = await createPullZone(t, 'signed-plain', `${checking.url}/base`, signing());
    const res = await edge.get(zone.host, "/dir/a%20b(1)!'*~.txt?z=2&a=%2Fx+y&flag", {
      authorization: 'Bearer the-clients-own',
      'x-amz-meta-client': 'sent with the zone authority',
    });
    expect([res.status, res.text]).toEqual([200, 'valid']);
    const seen = checking.requests.at(-1)!;
    expect(seen.url).toBe('/base/dir/a%20b%281%29%21%27%2A~.txt?z=2&a=%2Fx%2By&flag=');
    expect(seen.headers['x-amz-content-sha256']).toBe(EMPTY_SHA256);
    expect(seen.headers['x-amz-meta-client']).toBeUndefined();
    expect(seen.headers['authorization']).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${KEY}/\\d{8}/${REGION}/s3/aws4_request, `));
  });

  it('signs the host actually sent (OriginHostHeader), and the refresh of an expired copy too', async () => {
    const zone = await createPullZone(
      t,
      'signed-host',
      checking.url,
      signing({ OriginHostHeader: 'bucket.example.com', CacheControlMaxAgeOverride: 60, UseStaleWhileUpdating: true }),
    );
    expect((await edge.get(zone.host, '/host.txt')).text).toBe('valid');
    expect(checking.requests.at(-1)!.headers['host']).toBe('bucket.example.com');
    const asked = checking.requests.length;
    edge.advance(120);
    expect((await edge.get(zone.host, '/host.txt')).headers['cdn-cache']).toBe('UPDATING');
    await within(2000, async () => checking.requests.length > asked);
    expect(verdicts.at(-1)).toBe('valid');
  });

  it('leaves unsigned what an edge rule bypasses, and writes passed through', async () => {
    const bypass = { ActionType: 30, ActionParameter1: '', ActionParameter2: '', Enabled: true, Description: 'unsigned', TriggerMatchingType: 0 };
    const zone = await createPullZone(t, 'signed-bypass', checking.url, signing());
    const rule = await t.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, {
      ...bypass,
      Triggers: [{ Type: 0, PatternMatches: ['/public/*'], PatternMatchingType: 0, Parameter1: '' }],
    });
    expect(rule.status).toBe(201);
    expect((await edge.get(zone.host, '/public/x.txt')).text).toBe('unsigned');
    expect((await edge.get(zone.host, '/kept/x.txt')).text).toBe('valid');
    expect((await edge.request('PUT', zone.host, '/kept/x.txt', { 'content-type': 'text/plain' }, 'overwrite')).text).toBe('unsigned');
  });

  it('answers 502 naming what is missing, never a credential, when the zone has no secret', async () => {
    const zone = await createPullZone(t, 'signed-nosecret', checking.url, signing({ RequestSigningSecret: '' }));
    const res = await edge.get(zone.host, '/n.txt');
    expect(res.status).toBe(502);
    expect(res.text).toContain('RequestSigningSecret');
    expect(res.text).not.toContain(KEY);
  });
});
