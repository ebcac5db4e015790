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
  type S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOf, generatedBytes, generatedStream } from '../../files/generated-bytes.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createS3Zone, type S3Plane, type S3Zone, s3Client, startS3Plane } from '../../helpers/s3-plane.js';
import { files, startStoragePlane, type StoragePlane } from '../../helpers/storage-plane.js';

const MiB = 1024 * 1024;
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest();
const multipartEtag = (parts: Buffer[]) =>
  `"${createHash('md5')
    .update(Buffer.concat(parts.map(md5)))
    .digest('hex')}-${parts.length}"`;

describe('S3 multipart uploads', () => {
  let t: TestContext;
  let plane: S3Plane;
  let storage: StoragePlane;
  let zone: S3Zone;
  let s3: S3Client;

  beforeEach(async () => {
    t = await createTestApp();
    plane = await startS3Plane(t);
    storage = await startStoragePlane(t);
    zone = await createS3Zone(t, `mp-${randomBytes(3).toString('hex')}`);
    s3 = s3Client(plane, zone);
  });
  afterEach(async () => {
    s3.destroy();
    await plane.close();
    await storage.close();
    await t.close();
  });

  it('uploads 120 MiB in 8 parts with the SDK, streamed, and reads it back byte-exact through both APIs', { timeout: 180_000 }, async () => {
    const size = 120 * MiB;
    const upload = new Upload({
      client: s3,
      params: { Bucket: zone.Name, Key: 'big/object.bin', Body: generatedStream(size, 'big') },
      partSize: 15 * MiB,
      queueSize: 3,
    });
    const done = await upload.done();
    expect(done.ETag).toMatch(/^"[0-9a-f]{32}-8"$/);
    const expected = await digestOf(generatedStream(size, 'big'));

    const head = await s3.send(new HeadObjectCommand({ Bucket: zone.Name, Key: 'big/object.bin' }));
    expect(head.ContentLength).toBe(size);
    expect(head.ETag).toBe(done.ETag);
    const got = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'big/object.bin' }));
    expect(await digestOf(got.Body as Readable)).toEqual(expected);

    // A range across a part boundary.
    const ranged = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'big/object.bin', Range: `bytes=${15 * MiB - 10}-${15 * MiB + 9}` }));
    const all = await generatedBytes(15 * MiB + 10, 'big');
    expect(Buffer.from(await ranged.Body!.transformToByteArray()).equals(all.subarray(15 * MiB - 10))).toBe(true);

    const described = await files(storage, zone).describe('big/object.bin');
    expect(described.body).toMatchObject({ Length: size, Checksum: expected.sha256.toUpperCase() });
    const viaFiles = await fetch(files(storage, zone).url('big/object.bin'), { headers: { AccessKey: zone.Password } });
    expect(viaFiles.headers.get('etag')).toBe(done.ETag);
    expect(await digestOf(viaFiles.body as unknown as Readable)).toEqual(expected);
    const counted = (await t.get(`/storagezone/${zone.Id}`)).body;
    expect(counted).toMatchObject({ FilesStored: 1, StorageUsed: size });
  });

  it('runs every multipart call by hand: create, parts, copy part, list, complete with S3 ETags', async () => {
    const created = await s3.send(
      new CreateMultipartUploadCommand({ Bucket: zone.Name, Key: 'hand/made.bin', ContentType: 'application/x-made', Metadata: { who: 'test' } }),
    );
    const uploadId = created.UploadId!;
    const one = randomBytes(5 * MiB);
    const two = randomBytes(5 * MiB + 123);
    const source = randomBytes(3 * MiB);
    await s3.send(new PutObjectCommand({ Bucket: zone.Name, Key: 'copy/source.bin', Body: source }));

    // A part uploaded twice: the second one counts.
    await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'hand/made.bin', UploadId: uploadId, PartNumber: 1, Body: randomBytes(5 * MiB) }));
    const p1 = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'hand/made.bin', UploadId: uploadId, PartNumber: 1, Body: one }));
    expect(p1.ETag).toBe(`"${md5(one).toString('hex')}"`);
    const p2 = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'hand/made.bin', UploadId: uploadId, PartNumber: 2, Body: two }));
    const p3 = await s3.send(
      new UploadPartCopyCommand({
        Bucket: zone.Name,
        Key: 'hand/made.bin',
        UploadId: uploadId,
        PartNumber: 3,
        CopySource: `${zone.Name}/copy/source.bin`,
        CopySourceRange: 'bytes=100-1099',
      }),
    );
    const copied = source.subarray(100, 1100);
    expect(p3.CopyPartResult?.ETag).toBe(`"${md5(copied).toString('hex')}"`);

    const parts = await s3.send(new ListPartsCommand({ Bucket: zone.Name, Key: 'hand/made.bin', UploadId: uploadId }));
    expect(parts.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, one.length],
      [2, two.length],
      [3, 1000],
    ]);
    const paged = await s3.send(new ListPartsCommand({ Bucket: zone.Name, Key: 'hand/made.bin', UploadId: uploadId, MaxParts: 2 }));
    expect(paged.IsTruncated).toBe(true);
    expect(paged.NextPartNumberMarker).toBe('2');
    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: zone.Name }));
    expect(uploads.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([['hand/made.bin', uploadId]]);

    // Parts must be listed in order, with the ETags they were given.
    await expect(
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: zone.Name,
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
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: zone.Name,
          Key: 'hand/made.bin',
          UploadId: uploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"0000"' }] },
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidPart' });

    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: zone.Name,
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
    const got = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'hand/made.bin' }));
    expect(got.ContentType).toBe('application/x-made');
    expect(got.Metadata).toEqual({ who: 'test' });
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat([one, two, copied]))).toBe(true);
    expect((await s3.send(new ListMultipartUploadsCommand({ Bucket: zone.Name }))).Uploads ?? []).toEqual([]);
    await expect(s3.send(new ListPartsCommand({ Bucket: zone.Name, Key: 'hand/made.bin', UploadId: uploadId }))).rejects.toMatchObject({
      name: 'NoSuchUpload',
    });
  });

  it('refuses a part under 5 MiB that is not the last, and aborts an upload leaving nothing', async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: zone.Name, Key: 'small.bin' }));
    const a = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'small.bin', UploadId, PartNumber: 1, Body: randomBytes(1000) }));
    const b = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'small.bin', UploadId, PartNumber: 2, Body: randomBytes(1000) }));
    await expect(
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: zone.Name,
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
    await s3.send(new AbortMultipartUploadCommand({ Bucket: zone.Name, Key: 'small.bin', UploadId }));
    await expect(s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'small.bin', UploadId, PartNumber: 3, Body: 'x' }))).rejects.toMatchObject({
      name: 'NoSuchUpload',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(s3.send(new HeadObjectCommand({ Bucket: zone.Name, Key: 'small.bin' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    expect((await t.get(`/storagezone/${zone.Id}`)).body).toMatchObject({ FilesStored: 0, StorageUsed: 0 });
    // The parts' blobs are released with the upload: nothing is left of them once swept.
    t.clock.advance(120_000);
    await t.app.services.fileSweeper.sweepDead();
    const left: string[] = [];
    for await (const blob of t.app.services.files.blobs.list(`${zone.Id}/`)) left.push(blob.key);
    expect(left).toEqual([]);
  });

  it('keeps acknowledged parts across a restart of the server', async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: zone.Name, Key: 'durable.bin' }));
    const one = randomBytes(5 * MiB);
    const p1 = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'durable.bin', UploadId, PartNumber: 1, Body: one }));
    s3.destroy();
    await plane.close();
    await storage.close();
    await t.restart();
    plane = await startS3Plane(t);
    storage = await startStoragePlane(t);
    s3 = s3Client(plane, zone);
    const two = randomBytes(10);
    const p2 = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'durable.bin', UploadId, PartNumber: 2, Body: two }));
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: zone.Name,
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
    const got = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'durable.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat([one, two]))).toBe(true);
  });
});
