/**
 * Who may use the S3 plane, on both stores: Signature Version 4 in headers and presigned URLs
 * (fetched and uploaded with curl), expiry, clock skew, regions, the payload hash, aws-chunked
 * bodies with signed chunks or trailing checksums, zones without S3 support, the read-only
 * password, and a password reset taking effect at once.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createS3Zone, type S3Plane, type S3Zone, s3Client, startS3Plane } from '../../helpers/s3-plane.js';
import { type Credentials, presignedUrl, signedChunkedBody, signedHeaders, unsignedTrailerBody } from '../../helpers/s3-signing.js';
import { createStorageZone } from '../../helpers/storage-plane.js';

const run = promisify(execFile);
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const codeOf = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

describe('S3 authentication', () => {
  let t: TestContext;
  let plane: S3Plane;
  let zone: S3Zone;
  let s3: S3Client;
  let creds: Credentials;

  beforeEach(async () => {
    t = await createTestApp();
    plane = await startS3Plane(t);
    zone = await createS3Zone(t, `auth-${randomBytes(3).toString('hex')}`);
    s3 = s3Client(plane, zone);
    creds = { accessKeyId: zone.Name, secretAccessKey: zone.Password, region: 'de' };
  });
  afterEach(async () => {
    s3.destroy();
    await plane.close();
    await t.close();
  });

  it('refuses anonymous requests, SigV2, wrong secrets and unknown keys with S3 error codes', async () => {
    const anonymous = await fetch(`${plane.url}/${zone.Name}/x`);
    expect(anonymous.status).toBe(403);
    expect(codeOf(await anonymous.text())).toBe('AccessDenied');
    const v2 = await fetch(`${plane.url}/${zone.Name}/x`, { headers: { authorization: `AWS ${zone.Name}:c2lnbmF0dXJl` } });
    expect(v2.status).toBe(403);
    await v2.text();

    const wrong = s3Client(plane, zone, { secret: 'not-the-password' });
    await expect(wrong.send(new ListObjectsV2Command({ Bucket: zone.Name }))).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
    wrong.destroy();
    const unknown = s3Client(plane, zone, { accessKeyId: 'no-such-zone-anywhere' });
    await expect(unknown.send(new ListObjectsV2Command({ Bucket: zone.Name }))).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    unknown.destroy();
  });

  it('refuses zones created without S3 support', async () => {
    const plain = await createStorageZone(t, `plain-${randomBytes(3).toString('hex')}`);
    const client = s3Client(plane, { ...plain, Region: 'DE', S3Hostname: '' });
    await expect(client.send(new ListObjectsV2Command({ Bucket: plain.Name }))).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
      $metadata: { httpStatusCode: 403 },
    });
    client.destroy();
    expect((await t.get(`/storagezone/${plain.Id}`)).body.S3Hostname).toBeNull();
  });

  it('lets the read-only password read but not write', async () => {
    await s3.send(new PutObjectCommand({ Bucket: zone.Name, Key: 'ro.txt', Body: 'readable' }));
    const ro = s3Client(plane, zone, { secret: zone.ReadOnlyPassword });
    const got = await ro.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'ro.txt' }));
    expect(await got.Body!.transformToString()).toBe('readable');
    await expect(ro.send(new PutObjectCommand({ Bucket: zone.Name, Key: 'ro.txt', Body: 'overwritten' }))).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
    ro.destroy();
    const still = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'ro.txt' }));
    expect(await still.Body!.transformToString()).toBe('readable');
  });

  it('refuses the old password as soon as it is reset', async () => {
    await s3.send(new ListObjectsV2Command({ Bucket: zone.Name }));
    expect((await t.post(`/storagezone/${zone.Id}/resetPassword`)).status).toBe(204);
    await expect(s3.send(new ListObjectsV2Command({ Bucket: zone.Name }))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    const fresh = (await t.get(`/storagezone/${zone.Id}`)).body.Password as string;
    const renewed = s3Client(plane, { ...zone, Password: fresh });
    await expect(renewed.send(new ListObjectsV2Command({ Bucket: zone.Name }))).resolves.toBeDefined();
    renewed.destroy();
  });

  it('accepts the zone region in lower case, us-east-1 and auto, and names the right region otherwise', async () => {
    for (const region of ['us-east-1', 'auto']) {
      const client = s3Client(plane, zone, { region });
      await expect(client.send(new ListObjectsV2Command({ Bucket: zone.Name }))).resolves.toBeDefined();
      client.destroy();
    }
    const elsewhere = s3Client(plane, zone, { region: 'eu-west-3' });
    await expect(elsewhere.send(new ListObjectsV2Command({ Bucket: zone.Name }))).rejects.toMatchObject({
      name: 'AuthorizationHeaderMalformed',
      $metadata: { httpStatusCode: 400 },
    });
    elsewhere.destroy();
  });

  it('refuses requests dated more than 15 minutes away from the server clock', async () => {
    for (const offset of [-16 * 60_000, 16 * 60_000]) {
      const skewed = s3Client(plane, zone);
      skewed.config.systemClockOffset = offset;
      await expect(skewed.send(new ListObjectsV2Command({ Bucket: zone.Name }))).rejects.toMatchObject({
        name: 'RequestTimeTooSkewed',
        $metadata: { httpStatusCode: 403 },
      });
      skewed.destroy();
    }
    const slightly = s3Client(plane, zone);
    slightly.config.systemClockOffset = -10 * 60_000;
    await expect(slightly.send(new ListObjectsV2Command({ Bucket: zone.Name }))).resolves.toBeDefined();
    slightly.destroy();
  });

  it('uploads and downloads with presigned URLs through curl, and refuses them once expired or altered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeplane-s3-curl-'));
    const bytes = randomBytes(300_000);
    writeFileSync(join(dir, 'up.bin'), bytes);
    const path = `/${zone.Name}/pre/signed%20file.bin`;
    const putUrl = await presignedUrl(plane.url, 'PUT', path, creds, { expiresIn: 300 });
    const put = await run('curl', ['-sS', '-o', join(dir, 'put.out'), '-w', '%{http_code}', '-T', join(dir, 'up.bin'), putUrl]);
    expect(put.stdout).toBe('200');

    const getUrl = await presignedUrl(plane.url, 'GET', path, creds, { expiresIn: 300 });
    const got = await run('curl', ['-sS', '-o', join(dir, 'down.bin'), '-w', '%{http_code}', getUrl]);
    expect(got.stdout).toBe('200');
    expect(readFileSync(join(dir, 'down.bin')).equals(bytes)).toBe(true);

    const expiredUrl = await presignedUrl(plane.url, 'GET', path, creds, { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });
    const expired = await run('curl', ['-sS', '-o', join(dir, 'expired.xml'), '-w', '%{http_code}', expiredUrl]);
    expect(expired.stdout).toBe('403');
    expect(readFileSync(join(dir, 'expired.xml'), 'utf8')).toContain('Request has expired');

    const altered = getUrl.replace('signed%20file.bin', 'other.bin');
    const tampered = await run('curl', ['-sS', '-o', join(dir, 'tampered.xml'), '-w', '%{http_code}', altered]);
    expect(tampered.stdout).toBe('403');
    expect(codeOf(readFileSync(join(dir, 'tampered.xml'), 'utf8'))).toBe('SignatureDoesNotMatch');

    // A presigned PUT with the read-only password is a read-only credential all the same. Refused
    // before its 300 KB body is read: the plane lingers while curl still sends it, so curl reads the
    // 403 rather than failing on a broken pipe (lingering-close.test.ts).
    const roUrl = await presignedUrl(plane.url, 'PUT', `/${zone.Name}/ro.bin`, { ...creds, secretAccessKey: zone.ReadOnlyPassword }, { expiresIn: 300 });
    const ro = await run('curl', ['-sS', '-o', join(dir, 'ro.xml'), '-w', '%{http_code}', '-T', join(dir, 'up.bin'), roUrl]);
    expect(ro.stdout).toBe('403');
  });

  it('signs requests with curl --aws-sigv4', async () => {
    await s3.send(new PutObjectCommand({ Bucket: zone.Name, Key: 'curl.txt', Body: 'from the sdk' }));
    const { stdout } = await run('curl', [
      '-sS',
      '--aws-sigv4',
      'aws:amz:de:s3',
      '--user',
      `${zone.Name}:${zone.Password}`,
      `${plane.url}/${zone.Name}/curl.txt`,
    ]);
    expect(stdout).toBe('from the sdk');
  });

  it('checks a signed payload hash and stores nothing when the body differs', async () => {
    const path = `/${zone.Name}/hashed.txt`;
    const headers = await signedHeaders(plane.url, 'PUT', path, creds, sha256('the signed body'));
    const res = await fetch(`${plane.url}${path}`, { method: 'PUT', headers, body: 'not the signed body' });
    expect(res.status).toBe(400);
    expect(codeOf(await res.text())).toBe('XAmzContentSHA256Mismatch');
    await expect(s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'hashed.txt' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    const ok = await fetch(`${plane.url}${path}`, { method: 'PUT', headers, body: 'the signed body' });
    expect(ok.status).toBe(200);
  });

  it('takes aws-chunked bodies with signed chunks, and refuses one whose chunk was altered', async () => {
    const chunks = [randomBytes(64 * 1024), randomBytes(64 * 1024), randomBytes(1000)];
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const path = `/${zone.Name}/chunked.bin`;
    const send = async (tamper: boolean) => {
      const headers = await signedHeaders(plane.url, 'PUT', path, creds, 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD', {
        'content-encoding': 'aws-chunked',
        'x-amz-decoded-content-length': String(total),
      });
      const body = signedChunkedBody(chunks, creds, headers.authorization!, headers['x-amz-date']!);
      if (tamper) body[200] = body[200]! ^ 1;
      return fetch(`${plane.url}${path}`, { method: 'PUT', headers, body: new Uint8Array(body) });
    };
    const bad = await send(true);
    expect(bad.status).toBe(403);
    expect(codeOf(await bad.text())).toBe('SignatureDoesNotMatch');
    await expect(s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'chunked.bin' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    const good = await send(false);
    expect(good.status).toBe(200);
    const got = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'chunked.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('takes unsigned aws-chunked bodies with a CRC32 trailer, and refuses a wrong checksum', async () => {
    const chunks = [randomBytes(10_000), randomBytes(20)];
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const path = `/${zone.Name}/trailer.bin`;
    const extra = { 'content-encoding': 'aws-chunked', 'x-amz-decoded-content-length': String(total), 'x-amz-trailer': 'x-amz-checksum-crc32' };
    const headers = await signedHeaders(plane.url, 'PUT', path, creds, 'STREAMING-UNSIGNED-PAYLOAD-TRAILER', extra);
    const bad = await fetch(`${plane.url}${path}`, { method: 'PUT', headers, body: new Uint8Array(unsignedTrailerBody(chunks, 'AAAAAA==')) });
    expect(bad.status).toBe(400);
    expect(codeOf(await bad.text())).toBe('BadDigest');
    const good = await fetch(`${plane.url}${path}`, { method: 'PUT', headers, body: new Uint8Array(unsignedTrailerBody(chunks)) });
    expect(good.status).toBe(200);
    // The SDK's own streaming upload of a body of unknown content (it sends a CRC32 trailer).
    await s3.send(new PutObjectCommand({ Bucket: zone.Name, Key: 'sdk-stream.bin', Body: Readable.from([Buffer.concat(chunks)]), ContentLength: total }));
    const got = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'sdk-stream.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat(chunks))).toBe(true);
  });
});
