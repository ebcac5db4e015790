/**
 * The S3 plane driven by the maintained AWS SDK v3 client, over real HTTP, on both stores: every
 * object and bucket operation, both addressing styles, and the same files seen through the file API.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketLocationCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createS3Zone, s3Client, useS3Env } from '../../helpers/s3-plane.js';
import { files } from '../../helpers/storage-plane.js';

const md5 = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('hex');

describe('the S3 API with the AWS SDK', () => {
  const env = useS3Env('s3zone');

  it('gives S3 zones an S3 hostname under the storage domain', () => {
    expect(env.zone.S3Hostname).toBe(`s3.${env.t.config.storageDomain}`);
  });

  it('lists the zone as the only bucket, heads it and tells its region', async () => {
    const buckets = await env.s3.send(new ListBucketsCommand({}));
    expect(buckets.Buckets?.map((b) => b.Name)).toEqual([env.zone.Name]);
    expect(buckets.Owner?.DisplayName).toBe(env.zone.Name);
    await expect(env.s3.send(new HeadBucketCommand({ Bucket: env.zone.Name }))).resolves.toBeDefined();
    const location = await env.s3.send(new GetBucketLocationCommand({ Bucket: env.zone.Name }));
    expect(location.LocationConstraint).toBe('de');
  });

  it('puts, gets and heads an object with its type, metadata, ETag and length', async () => {
    const body = randomBytes(100_000);
    const put = await env.s3.send(
      new PutObjectCommand({
        Bucket: env.zone.Name,
        Key: 'docs/a b+c.bin',
        Body: body,
        ContentType: 'application/x-test',
        Metadata: { owner: 'me', Note: 'Hello' },
        CacheControl: 'max-age=60',
      }),
    );
    expect(put.ETag).toBe(`"${md5(body)}"`);
    const got = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'docs/a b+c.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    expect(got.ContentType).toBe('application/x-test');
    expect(got.ContentLength).toBe(body.length);
    expect(got.ETag).toBe(`"${md5(body)}"`);
    expect(got.Metadata).toEqual({ owner: 'me', note: 'Hello' });
    expect(got.CacheControl).toBe('max-age=60');
    const head = await env.s3.send(new HeadObjectCommand({ Bucket: env.zone.Name, Key: 'docs/a b+c.bin' }));
    expect(head.ContentLength).toBe(body.length);
    expect(head.Metadata?.owner).toBe('me');
  });

  it('serves ranges, conditional requests and response-* overrides', async () => {
    const body = Buffer.from('0123456789abcdefghij');
    await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'r.txt', Body: body }));
    const part = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'r.txt', Range: 'bytes=5-9' }));
    expect(await part.Body!.transformToString()).toBe('56789');
    expect(part.ContentRange).toBe('bytes 5-9/20');
    await expect(env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'r.txt', Range: 'bytes=50-60' }))).rejects.toMatchObject({
      name: 'InvalidRange',
      $metadata: { httpStatusCode: 416 },
    });
    const etag = `"${md5(body)}"`;
    await expect(env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'r.txt', IfNoneMatch: etag }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 304 },
    });
    await expect(env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'r.txt', IfMatch: '"nope"' }))).rejects.toMatchObject({
      name: 'PreconditionFailed',
      $metadata: { httpStatusCode: 412 },
    });
    const overridden = await env.s3.send(
      new GetObjectCommand({
        Bucket: env.zone.Name,
        Key: 'r.txt',
        ResponseContentType: 'text/x-over',
        ResponseContentDisposition: 'attachment; filename="x.txt"',
        ResponseCacheControl: 'no-store',
      }),
    );
    expect(overridden.ContentType).toBe('text/x-over');
    expect(overridden.ContentDisposition).toBe('attachment; filename="x.txt"');
    expect(overridden.CacheControl).toBe('no-store');
    await overridden.Body!.transformToString();
  });

  it('refuses an override that cannot be sent in a header with InvalidArgument, logging nothing', async () => {
    await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'o.txt', Body: 'x' }));
    for (const ResponseContentDisposition of ['attachment; filename="€.txt"', 'inline\r\nSet-Cookie: s=1']) {
      await expect(env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'o.txt', ResponseContentDisposition }))).rejects.toMatchObject({
        name: 'InvalidArgument',
        $metadata: { httpStatusCode: 400 },
      });
    }
  });

  it('answers NoSuchKey for a missing object and NoSuchBucket or AccessDenied for other buckets', async () => {
    await expect(env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'missing' }))).rejects.toMatchObject({
      name: 'NoSuchKey',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(env.s3.send(new HeadObjectCommand({ Bucket: env.zone.Name, Key: 'missing' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    await expect(env.s3.send(new ListObjectsV2Command({ Bucket: 'no-such-zone-here' }))).rejects.toMatchObject({ name: 'NoSuchBucket' });
    const other = await createS3Zone(env.t, `other-${randomBytes(3).toString('hex')}`);
    await expect(env.s3.send(new ListObjectsV2Command({ Bucket: other.Name }))).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(env.s3.send(new GetObjectCommand({ Bucket: other.Name, Key: 'x' }))).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('lists with prefixes, delimiters, common prefixes, max-keys, continuation tokens and start-after (v2)', async () => {
    const keys = ['a/1.txt', 'a/2.txt', 'a/sub/3.txt', 'b/4.txt', 'c.txt', 'd.txt', 'e f.txt'];
    for (const key of keys) await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: key, Body: key }));
    const all = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name }));
    expect(all.Contents?.map((c) => c.Key)).toEqual(keys);
    expect(all.KeyCount).toBe(keys.length);
    expect(all.Contents?.[0]).toMatchObject({ Size: 7, ETag: `"${md5('a/1.txt')}"`, StorageClass: 'STANDARD' });

    const top = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name, Delimiter: '/' }));
    expect(top.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['a/', 'b/']);
    expect(top.Contents?.map((c) => c.Key)).toEqual(['c.txt', 'd.txt', 'e f.txt']);

    const inA = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name, Prefix: 'a/', Delimiter: '/' }));
    expect(inA.Contents?.map((c) => c.Key)).toEqual(['a/1.txt', 'a/2.txt']);
    expect(inA.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['a/sub/']);

    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name, MaxKeys: 2, Delimiter: '/', ContinuationToken: token }));
      seen.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!), ...(page.Contents ?? []).map((c) => c.Key!));
      expect((page.KeyCount ?? 0) <= 2).toBe(true);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      pages++;
    } while (token);
    expect(seen.sort()).toEqual(['a/', 'b/', 'c.txt', 'd.txt', 'e f.txt']);
    expect(pages).toBe(3);

    const after = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name, StartAfter: 'b/4.txt' }));
    expect(after.Contents?.map((c) => c.Key)).toEqual(['c.txt', 'd.txt', 'e f.txt']);
    const none = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name, MaxKeys: 0 }));
    expect(none.KeyCount).toBe(0);
    const encoded = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name, Prefix: 'e ', EncodingType: 'url' }));
    expect(encoded.Contents?.map((c) => c.Key)).toEqual(['e%20f.txt']);
  });

  it('lists with markers (v1)', async () => {
    for (const key of ['x/1', 'x/2', 'y', 'z']) await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: key, Body: 'v' }));
    const first = await env.s3.send(new ListObjectsCommand({ Bucket: env.zone.Name, MaxKeys: 2, Delimiter: '/' }));
    expect(first.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['x/']);
    expect(first.Contents?.map((c) => c.Key)).toEqual(['y']);
    expect(first.IsTruncated).toBe(true);
    expect(first.NextMarker).toBe('y');
    const second = await env.s3.send(new ListObjectsCommand({ Bucket: env.zone.Name, Marker: first.NextMarker, Delimiter: '/' }));
    expect(second.Contents?.map((c) => c.Key)).toEqual(['z']);
    expect(second.IsTruncated).toBe(false);
    const plain = await env.s3.send(new ListObjectsCommand({ Bucket: env.zone.Name, Marker: 'x/1' }));
    expect(plain.Contents?.map((c) => c.Key)).toEqual(['x/2', 'y', 'z']);
    expect(plain.Contents?.[0]?.Owner?.DisplayName).toBe(env.zone.Name);
  });

  it('deletes one object, and many at once with per-key results', async () => {
    for (const key of ['d/1', 'd/2', 'd/3']) await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: key, Body: 'v' }));
    await env.s3.send(new DeleteObjectCommand({ Bucket: env.zone.Name, Key: 'd/1' }));
    // Deleting what is not there succeeds.
    await env.s3.send(new DeleteObjectCommand({ Bucket: env.zone.Name, Key: 'd/1' }));
    const result = await env.s3.send(
      new DeleteObjectsCommand({ Bucket: env.zone.Name, Delete: { Objects: [{ Key: 'd/2' }, { Key: 'd/3' }, { Key: 'never' }, { Key: '../bad' }] } }),
    );
    expect(result.Deleted?.map((d) => d.Key).sort()).toEqual(['d/2', 'd/3', 'never']);
    expect(result.Errors?.map((e) => [e.Key, e.Code])).toEqual([['../bad', 'InvalidArgument']]);
    const left = await env.s3.send(new ListObjectsV2Command({ Bucket: env.zone.Name }));
    expect(left.KeyCount).toBe(0);
  });

  it('copies objects, keeping or replacing metadata', async () => {
    await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'src.txt', Body: 'copy me', ContentType: 'text/plain', Metadata: { a: '1' } }));
    const kept = await env.s3.send(new CopyObjectCommand({ Bucket: env.zone.Name, Key: 'dst/kept.txt', CopySource: `${env.zone.Name}/src.txt` }));
    expect(kept.CopyObjectResult?.ETag).toBe(`"${md5('copy me')}"`);
    const keptHead = await env.s3.send(new HeadObjectCommand({ Bucket: env.zone.Name, Key: 'dst/kept.txt' }));
    expect(keptHead.Metadata).toEqual({ a: '1' });
    expect(keptHead.ContentType).toBe('text/plain');
    await env.s3.send(
      new CopyObjectCommand({
        Bucket: env.zone.Name,
        Key: 'src.txt',
        CopySource: `/${env.zone.Name}/src.txt`,
        MetadataDirective: 'REPLACE',
        Metadata: { b: '2' },
        ContentType: 'text/x-new',
      }),
    );
    const replaced = await env.s3.send(new HeadObjectCommand({ Bucket: env.zone.Name, Key: 'src.txt' }));
    expect(replaced.Metadata).toEqual({ b: '2' });
    expect(replaced.ContentType).toBe('text/x-new');
    await expect(env.s3.send(new CopyObjectCommand({ Bucket: env.zone.Name, Key: 'src.txt', CopySource: `${env.zone.Name}/src.txt` }))).rejects.toMatchObject({
      name: 'InvalidRequest',
    });
    await expect(env.s3.send(new CopyObjectCommand({ Bucket: env.zone.Name, Key: 'x', CopySource: `${env.zone.Name}/missing` }))).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
  });

  it('works with virtual-host-style addressing', async () => {
    const vhost = s3Client(env.plane, env.zone, { virtualHost: true });
    try {
      await vhost.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'v/h.txt', Body: 'virtual' }));
      const got = await vhost.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'v/h.txt' }));
      expect(await got.Body!.transformToString()).toBe('virtual');
      const listed = await vhost.send(new ListObjectsV2Command({ Bucket: env.zone.Name }));
      expect(listed.Contents?.map((c) => c.Key)).toEqual(['v/h.txt']);
    } finally {
      vhost.destroy();
    }
  });

  it('shows the same files through the file API and S3, and counts them once', async () => {
    const api = files(env.storage, env.zone);
    const viaFiles = randomBytes(3000);
    expect((await api.put('shared/from-files.bin', viaFiles)).status).toBe(201);
    const viaS3 = randomBytes(5000);
    await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'shared/from-s3.bin', Body: viaS3 }));

    const got = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'shared/from-files.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(viaFiles)).toBe(true);
    expect(got.ETag).toBe(`"${md5(viaFiles)}"`);
    const back = await api.get('shared/from-s3.bin');
    expect(Buffer.from(await back.arrayBuffer()).equals(viaS3)).toBe(true);
    expect(back.headers.get('etag')).toBe(`"${md5(viaS3)}"`);

    const listed = await api.list('shared/');
    expect(listed.body.map((o) => o.ObjectName).sort()).toEqual(['from-files.bin', 'from-s3.bin']);
    let counted = (await env.t.get(`/storagezone/${env.zone.Id}`)).body;
    expect(counted.FilesStored).toBe(2);
    expect(counted.StorageUsed).toBe(8000);

    // Replacing through one API and deleting through the other keeps the counters exact.
    await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'shared/from-files.bin', Body: Buffer.alloc(10) }));
    expect((await api.del('shared/from-s3.bin')).status).toBe(200);
    counted = (await env.t.get(`/storagezone/${env.zone.Id}`)).body;
    expect(counted.FilesStored).toBe(1);
    expect(counted.StorageUsed).toBe(10);
    await expect(env.s3.send(new HeadObjectCommand({ Bucket: env.zone.Name, Key: 'shared/from-s3.bin' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });
});
