/**
 * Multipart uploads through the S3 plane, on both stores: the SDK's managed upload of a large
 * object streamed in parts (never held whole, on either side), every multipart call one by one,
 * S3's ETags, and parts that survive a restart of the server.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { digestOf, generatedBytes, generatedStream } from '../../files/generated-bytes.js';
import { useS3Env } from '../../helpers/s3-plane.js';
import { files } from '../../helpers/storage-plane.js';

const MiB = 1024 * 1024;
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest();
const multipartEtag = (parts: Buffer[]) =>
  `"${createHash('md5')
    .update(Buffer.concat(parts.map(md5)))
    .digest('hex')}-${parts.length}"`;

describe('S3 multipart uploads', () => {
  const env = useS3Env('mp');

  it('uploads 120 MiB in 8 parts with the SDK, streamed, and reads it back byte-exact through both APIs', { timeout: 180_000 }, async () => {
    const size = 120 * MiB;
    const upload = new Upload({
      client: env.s3,
      params: { Bucket: env.zone.Name, Key: 'big/object.bin', Body: generatedStream(size, 'big') },
      partSize: 15 * MiB,
      queueSize: 3,
    });
    const done = await upload.done();
    expect(done.ETag).toMatch(/^"[0-9a-f]{32}-8"$/);
    const expected = await digestOf(generatedStream(size, 'big'));

    const head = await env.s3.send(new HeadObjectCommand({ Bucket: env.zone.Name, Key: 'big/object.bin' }));
    expect(head.ContentLength).toBe(size);
    expect(head.ETag).toBe(done.ETag);
    const got = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'big/object.bin' }));
    expect(await digestOf(got.Body as Readable)).toEqual(expected);

    // A range across a part boundary.
    const ranged = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'big/object.bin', Range: `bytes=${15 * MiB - 10}-${15 * MiB + 9}` }));
    const all = await generatedBytes(15 * MiB + 10, 'big');
    expect(Buffer.from(await ranged.Body!.transformToByteArray()).equals(all.subarray(15 * MiB - 10))).toBe(true);

    const described = await files(env.storage, env.zone).describe('big/object.bin');
    expect(described.body).toMatchObject({ Length: size, Checksum: expected.sha256.toUpperCase() });
    const viaFiles = await fetch(files(env.storage, env.zone).url('big/object.bin'), { headers: { AccessKey: env.zone.Password } });
    expect(viaFiles.headers.get('etag')).toBe(done.ETag);
    expect(await digestOf(viaFiles.body as unknown as Readable)).toEqual(expected);
    const counted = (await env.t.get(`/storagezone/${env.zone.Id}`)).body;
    expect(counted).toMatchObject({ FilesStored: 1, StorageUsed: size });
  });

  it('runs every multipart call by hand: create, parts, copy part, list, complete with S3 ETags', async () => {
    const created = await env.s3.send(
      new CreateMultipartUploadCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin', ContentType: 'application/x-made', Metadata: { who: 'test' } }),
    );
    const uploadId = created.UploadId!;
    const one = randomBytes(5 * MiB);
    const two = randomBytes(5 * MiB + 123);
    const source = randomBytes(3 * MiB);
    await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'copy/source.bin', Body: source }));

    // A part uploaded twice: the second one counts.
    await env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin', UploadId: uploadId, PartNumber: 1, Body: randomBytes(5 * MiB) }));
    const p1 = await env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin', UploadId: uploadId, PartNumber: 1, Body: one }));
    expect(p1.ETag).toBe(`"${md5(one).toString('hex')}"`);
    const p2 = await env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin', UploadId: uploadId, PartNumber: 2, Body: two }));
    const p3 = await env.s3.send(
      new UploadPartCopyCommand({
        Bucket: env.zone.Name,
        Key: 'hand/made.bin',
        UploadId: uploadId,
        PartNumber: 3,
        CopySource: `${env.zone.Name}/copy/source.bin`,
        CopySourceRange: 'bytes=100-1099',
      }),
    );
    const copied = source.subarray(100, 1100);
    expect(p3.CopyPartResult?.ETag).toBe(`"${md5(copied).toString('hex')}"`);

    const parts = await env.s3.send(new ListPartsCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin', UploadId: uploadId }));
    expect(parts.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, one.length],
      [2, two.length],
      [3, 1000],
    ]);
    const paged = await env.s3.send(new ListPartsCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin', UploadId: uploadId, MaxParts: 2 }));
    expect(paged.IsTruncated).toBe(true);
    expect(paged.NextPartNumberMarker).toBe('2');
    const uploads = await env.s3.send(new ListMultipartUploadsCommand({ Bucket: env.zone.Name }));
    expect(uploads.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([['hand/made.bin', uploadId]]);

    // Parts must be listed in order, with the ETags they were given.
    await expect(
      env.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: env.zone.Name,
          Key: 'hand/made.bin',
          UploadId: uploadId,
          MultipartUpload: {
            Parts: [
              { PartNumber: 2, ETag: p2.ETag },
              { PartNumber: 1, ETag: p1.ETag },
            ],
          },
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidPartOrder' });
    await expect(
      env.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: env.zone.Name,
          Key: 'hand/made.bin',
          UploadId: uploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"0000"' }] },
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidPart' });

    const done = await env.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: env.zone.Name,
        Key: 'hand/made.bin',
        UploadId: uploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: p1.ETag },
            { PartNumber: 2, ETag: p2.ETag },
            { PartNumber: 3, ETag: p3.CopyPartResult?.ETag },
          ],
        },
      }),
    );
    expect(done.ETag).toBe(multipartEtag([one, two, copied]));
    const got = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin' }));
    expect(got.ContentType).toBe('application/x-made');
    expect(got.Metadata).toEqual({ who: 'test' });
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat([one, two, copied]))).toBe(true);
    expect((await env.s3.send(new ListMultipartUploadsCommand({ Bucket: env.zone.Name }))).Uploads ?? []).toEqual([]);
    await expect(env.s3.send(new ListPartsCommand({ Bucket: env.zone.Name, Key: 'hand/made.bin', UploadId: uploadId }))).rejects.toMatchObject({
      name: 'NoSuchUpload',
    });
  });

  it('refuses a part under 5 MiB that is not the last, and aborts an upload leaving nothing', async () => {
    const { UploadId } = await env.s3.send(new CreateMultipartUploadCommand({ Bucket: env.zone.Name, Key: 'small.bin' }));
    const a = await env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'small.bin', UploadId, PartNumber: 1, Body: randomBytes(1000) }));
    const b = await env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'small.bin', UploadId, PartNumber: 2, Body: randomBytes(1000) }));
    await expect(
      env.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: env.zone.Name,
          Key: 'small.bin',
          UploadId,
          MultipartUpload: {
            Parts: [
              { PartNumber: 1, ETag: a.ETag },
              { PartNumber: 2, ETag: b.ETag },
            ],
          },
        }),
      ),
    ).rejects.toMatchObject({ name: 'EntityTooSmall' });
    await env.s3.send(new AbortMultipartUploadCommand({ Bucket: env.zone.Name, Key: 'small.bin', UploadId }));
    await expect(env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'small.bin', UploadId, PartNumber: 3, Body: 'x' }))).rejects.toMatchObject({
      name: 'NoSuchUpload',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(env.s3.send(new HeadObjectCommand({ Bucket: env.zone.Name, Key: 'small.bin' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    expect((await env.t.get(`/storagezone/${env.zone.Id}`)).body).toMatchObject({ FilesStored: 0, StorageUsed: 0 });
    // The parts' blobs are released with the upload: nothing is left of them once swept.
    env.t.clock.advance(120_000);
    await env.t.app.services.fileSweeper.sweepDead();
    const left: string[] = [];
    for await (const blob of env.t.app.services.files.blobs.list(`${env.zone.Id}/`)) left.push(blob.key);
    expect(left).toEqual([]);
  });

  it('reads an object part by part with partNumber, as S3 does', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'parts.bin' }));
    const one = randomBytes(5 * MiB);
    const two = randomBytes(1000);
    const p1 = await s3.send(new UploadPartCommand({ Bucket, Key: 'parts.bin', UploadId, PartNumber: 1, Body: one }));
    const p2 = await s3.send(new UploadPartCommand({ Bucket, Key: 'parts.bin', UploadId, PartNumber: 2, Body: two }));
    const parts = [
      { PartNumber: 1, ETag: p1.ETag },
      { PartNumber: 2, ETag: p2.ETag },
    ];
    await s3.send(new CompleteMultipartUploadCommand({ Bucket, Key: 'parts.bin', UploadId, MultipartUpload: { Parts: parts } }));
    const total = one.length + two.length;

    const second = await s3.send(new GetObjectCommand({ Bucket, Key: 'parts.bin', PartNumber: 2 }));
    expect(second.$metadata.httpStatusCode).toBe(206);
    expect(second.ContentLength).toBe(two.length);
    expect(second.ContentRange).toBe(`bytes ${one.length}-${total - 1}/${total}`);
    expect(second.PartsCount).toBe(2);
    expect(second.ETag).toBe(multipartEtag([one, two]));
    expect(Buffer.from(await second.Body!.transformToByteArray()).equals(two)).toBe(true);
    const first = await s3.send(new HeadObjectCommand({ Bucket, Key: 'parts.bin', PartNumber: 1 }));
    expect(first.$metadata.httpStatusCode).toBe(206);
    expect([first.ContentLength, first.ContentRange, first.PartsCount]).toEqual([one.length, `bytes 0-${one.length - 1}/${total}`, 2]);
    // Without partNumber, the parts count is not told.
    expect((await s3.send(new HeadObjectCommand({ Bucket, Key: 'parts.bin' }))).PartsCount).toBeUndefined();
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: 'parts.bin', PartNumber: 3 }))).rejects.toMatchObject({
      name: 'InvalidPartNumber',
      $metadata: { httpStatusCode: 416 },
    });
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: 'parts.bin', PartNumber: 1, Range: 'bytes=0-9' }))).rejects.toMatchObject({
      name: 'InvalidRequest',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: 'parts.bin', PartNumber: 10_001 }))).rejects.toMatchObject({ name: 'InvalidArgument' });

    // An object uploaded whole is its own part 1: a range of all of it, without a parts count.
    await s3.send(new PutObjectCommand({ Bucket, Key: 'whole.txt', Body: 'hello world' }));
    const whole = await s3.send(new GetObjectCommand({ Bucket, Key: 'whole.txt', PartNumber: 1 }));
    expect(whole.$metadata.httpStatusCode).toBe(206);
    expect([whole.ContentRange, whole.PartsCount]).toEqual(['bytes 0-10/11', undefined]);
    expect(await whole.Body!.transformToString()).toBe('hello world');
    await expect(s3.send(new HeadObjectCommand({ Bucket, Key: 'whole.txt', PartNumber: 2 }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 416 } });
    // An empty object has no range to answer: 200, empty.
    await s3.send(new PutObjectCommand({ Bucket, Key: 'empty.txt', Body: '' }));
    const empty = await s3.send(new GetObjectCommand({ Bucket, Key: 'empty.txt', PartNumber: 1 }));
    expect([empty.$metadata.httpStatusCode, empty.ContentLength, empty.ContentRange]).toEqual([200, 0, undefined]);
  });

  it('lists uploads in progress with their keys rolled up by a delimiter, page by page', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    const ids: Record<string, string[]> = {};
    for (const key of ['a/1', 'a/2', 'b/x/1', 'c', 'c', 'd/1']) {
      const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
      (ids[key] ??= []).push(UploadId!);
    }
    const cIds = [...ids.c!].sort();
    const top = await s3.send(new ListMultipartUploadsCommand({ Bucket, Delimiter: '/' }));
    expect(top.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual(cIds.map((id) => ['c', id]));
    expect(top.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['a/', 'b/', 'd/']);
    expect([top.Delimiter, top.IsTruncated]).toEqual(['/', false]);
    const inB = await s3.send(new ListMultipartUploadsCommand({ Bucket, Prefix: 'b/', Delimiter: '/' }));
    expect([inB.Uploads, inB.CommonPrefixes?.map((p) => p.Prefix)]).toEqual([undefined, ['b/x/']]);

    const seen: string[] = [];
    let marker: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (let pages = 0; pages < 5; pages++) {
      const page = await s3.send(new ListMultipartUploadsCommand({ Bucket, Delimiter: '/', MaxUploads: 2, ...marker }));
      seen.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!), ...(page.Uploads ?? []).map((u) => `${u.Key}#${u.UploadId}`));
      if (!page.IsTruncated) break;
      marker = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
    }
    expect(seen).toEqual(['a/', 'b/', ...cIds.map((id) => `c#${id}`), 'd/']);
    // Without a delimiter every upload is listed by itself, as before.
    const flat = await s3.send(new ListMultipartUploadsCommand({ Bucket, Prefix: 'a/' }));
    expect(flat.Uploads?.map((u) => u.Key)).toEqual(['a/1', 'a/2']);
  });

  it('keeps uploads in progress and their parts through a dump and a load of the store', async () => {
    const { s3, zone, t } = env;
    const Bucket = zone.Name;
    const { UploadId } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket, Key: 'moved.bin', ContentType: 'application/x-moved', Metadata: { origin: 'dump' } }),
    );
    const bytes = randomBytes(1000);
    const part = await s3.send(new UploadPartCommand({ Bucket, Key: 'moved.bin', UploadId, PartNumber: 1, Body: bytes }));
    const records = [];
    for await (const record of t.store.dump()) records.push(record);
    expect(records.filter((r) => r.type === 's3Upload' || r.type === 's3UploadPart').map((r) => r.type)).toEqual(['s3Upload', 's3UploadPart']);
    await t.store.wipe();
    await t.store.load(
      (async function* () {
        yield* records;
      })(),
    );
    const listed = await s3.send(new ListPartsCommand({ Bucket, Key: 'moved.bin', UploadId }));
    expect(listed.Parts?.map((p) => [p.PartNumber, p.ETag, p.Size])).toEqual([[1, part.ETag, bytes.length]]);
    await s3.send(new CompleteMultipartUploadCommand({ Bucket, Key: 'moved.bin', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } }));
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'moved.bin' }));
    expect([got.ContentType, got.Metadata]).toEqual(['application/x-moved', { origin: 'dump' }]);
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);
  });

  it('keeps acknowledged parts across a restart of the server', async () => {
    const { UploadId } = await env.s3.send(new CreateMultipartUploadCommand({ Bucket: env.zone.Name, Key: 'durable.bin' }));
    const one = randomBytes(5 * MiB);
    const p1 = await env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'durable.bin', UploadId, PartNumber: 1, Body: one }));
    await env.restart();
    const two = randomBytes(10);
    const p2 = await env.s3.send(new UploadPartCommand({ Bucket: env.zone.Name, Key: 'durable.bin', UploadId, PartNumber: 2, Body: two }));
    await env.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: env.zone.Name,
        Key: 'durable.bin',
        UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: p1.ETag },
            { PartNumber: 2, ETag: p2.ETag },
          ],
        },
      }),
    );
    const got = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'durable.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat([one, two]))).toBe(true);
  });
});
