/**
 * S3 tags of objects and of the bucket, driven by the AWS SDK on both stores: set, read and
 * removed through their sub-resources, given with an upload (whole, copied, multipart), counted
 * on reads, checked against S3's rules, and kept where the object goes — and gone when it does.
 */
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteBucketTaggingCommand,
  DeleteObjectTaggingCommand,
  GetBucketTaggingCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutBucketTaggingCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3Client, useS3Env } from '../../helpers/s3-plane.js';
import { files } from '../../helpers/storage-plane.js';

describe('S3 tags', () => {
  const env = useS3Env('tags');

  it('sets, reads and removes an object tag set without touching its bytes, ETag or date', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    const put = await s3.send(new PutObjectCommand({ Bucket, Key: 'doc.txt', Body: 'hello', Metadata: { owner: 'ada' } }));
    const before = await s3.send(new HeadObjectCommand({ Bucket, Key: 'doc.txt' }));
    expect(before.TagCount).toBeUndefined();

    const TagSet = [
      { Key: 'project', Value: 'blue' },
      { Key: 'stage:name', Value: 'a b/c=d+e@f.g_h-i' },
      { Key: 'empty', Value: '' },
    ];
    await s3.send(new PutObjectTaggingCommand({ Bucket, Key: 'doc.txt', Tagging: { TagSet } }));
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'doc.txt' }))).TagSet).toEqual(TagSet);
    const after = await s3.send(new GetObjectCommand({ Bucket, Key: 'doc.txt' }));
    expect(await after.Body!.transformToString()).toBe('hello');
    expect([after.ETag, after.LastModified?.getTime(), after.TagCount, after.Metadata]).toEqual([
      put.ETag,
      before.LastModified?.getTime(),
      3,
      { owner: 'ada' },
    ]);

    // A new tag set replaces the old one whole.
    await s3.send(new PutObjectTaggingCommand({ Bucket, Key: 'doc.txt', Tagging: { TagSet: [{ Key: 'only', Value: 'one' }] } }));
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'doc.txt' }))).TagSet).toEqual([{ Key: 'only', Value: 'one' }]);
    await expect(s3.send(new DeleteObjectTaggingCommand({ Bucket, Key: 'doc.txt' }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'doc.txt' }))).TagSet ?? []).toEqual([]);
    expect((await s3.send(new HeadObjectCommand({ Bucket, Key: 'doc.txt' }))).Metadata).toEqual({ owner: 'ada' });

    for (const send of [
      () => s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'missing.txt' })),
      () => s3.send(new PutObjectTaggingCommand({ Bucket, Key: 'missing.txt', Tagging: { TagSet } })),
      () => s3.send(new DeleteObjectTaggingCommand({ Bucket, Key: 'missing.txt' })),
    ])
      await expect(send()).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('takes tags with PutObject, CopyObject (copied or replaced) and multipart uploads', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'src.txt', Body: 'src', Tagging: 'team=blue%20sky&tier=gold' }));
    const tagsOf = async (Key: string) => (await s3.send(new GetObjectTaggingCommand({ Bucket, Key }))).TagSet;
    expect(await tagsOf('src.txt')).toEqual([
      { Key: 'team', Value: 'blue sky' },
      { Key: 'tier', Value: 'gold' },
    ]);

    await s3.send(new CopyObjectCommand({ Bucket, Key: 'copied.txt', CopySource: `${Bucket}/src.txt` }));
    expect(await tagsOf('copied.txt')).toEqual([
      { Key: 'team', Value: 'blue sky' },
      { Key: 'tier', Value: 'gold' },
    ]);
    await s3.send(new CopyObjectCommand({ Bucket, Key: 'replaced.txt', CopySource: `${Bucket}/src.txt`, TaggingDirective: 'REPLACE', Tagging: 'new=1' }));
    expect(await tagsOf('replaced.txt')).toEqual([{ Key: 'new', Value: '1' }]);
    // Metadata replaced, tags copied: the two directives are independent.
    await s3.send(
      new CopyObjectCommand({ Bucket, Key: 'meta.txt', CopySource: `${Bucket}/src.txt`, MetadataDirective: 'REPLACE', Metadata: { fresh: 'yes' } }),
    );
    const meta = await s3.send(new HeadObjectCommand({ Bucket, Key: 'meta.txt' }));
    expect([meta.Metadata, meta.TagCount]).toEqual([{ fresh: 'yes' }, 2]);
    await expect(
      s3.send(new CopyObjectCommand({ Bucket, Key: 'x.txt', CopySource: `${Bucket}/src.txt`, TaggingDirective: 'MERGE' as 'COPY' })),
    ).rejects.toMatchObject({ name: 'InvalidArgument' });

    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'big.bin', Tagging: 'kind=multipart' }));
    const part = await s3.send(new UploadPartCommand({ Bucket, Key: 'big.bin', UploadId, PartNumber: 1, Body: 'part one' }));
    await s3.send(new CompleteMultipartUploadCommand({ Bucket, Key: 'big.bin', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } }));
    expect(await tagsOf('big.bin')).toEqual([{ Key: 'kind', Value: 'multipart' }]);
    expect((await s3.send(new HeadObjectCommand({ Bucket, Key: 'big.bin' }))).TagCount).toBe(1);
  });

  it('refuses tag sets S3 refuses, and leaves the object as it was', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'k.txt', Body: 'k', Tagging: 'keep=me' }));
    const eleven = Array.from({ length: 11 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
    const refused: [{ Key: string; Value: string }[], RegExp][] = [
      [eleven, /cannot be greater than 10/],
      [[{ Key: 'x'.repeat(129), Value: 'v' }], /TagKey/],
      [[{ Key: 'k', Value: 'v'.repeat(257) }], /TagValue/],
      [[{ Key: 'aws:reserved', Value: 'v' }], /aws:/],
      [[{ Key: 'semi;colon', Value: 'v' }], /TagKey/],
      [[{ Key: 'k', Value: 'angle<bracket>' }], /TagValue/],
      [
        [
          { Key: 'twice', Value: '1' },
          { Key: 'twice', Value: '2' },
        ],
        /same key/,
      ],
    ];
    for (const [TagSet, message] of refused) {
      const error = await s3.send(new PutObjectTaggingCommand({ Bucket, Key: 'k.txt', Tagging: { TagSet } })).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'InvalidTag', $metadata: { httpStatusCode: 400 } });
      expect((error as Error).message).toMatch(message);
    }
    await expect(s3.send(new PutObjectCommand({ Bucket, Key: 'k2.txt', Body: 'k', Tagging: 'a=1&a=2' }))).rejects.toMatchObject({ name: 'InvalidArgument' });
    await expect(s3.send(new PutObjectCommand({ Bucket, Key: 'k3.txt', Body: 'k', Tagging: 'bad=%E0%A4%A' }))).rejects.toMatchObject({
      name: 'InvalidArgument',
    });
    // Nothing was half-written: the refused uploads left no object and the tagged one kept its tags.
    await expect(s3.send(new HeadObjectCommand({ Bucket, Key: 'k2.txt' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'k.txt' }))).TagSet).toEqual([{ Key: 'keep', Value: 'me' }]);
  });

  it('keeps tags with the object only: an upload through the file API or a deletion takes them away', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'shared.txt', Body: 'v1', Tagging: 'v=1' }));
    const api = files(env.storage, zone);
    expect((await api.get('shared.txt')).status).toBe(200);
    expect((await api.put('shared.txt', 'v2 from the file API')).status).toBe(201);
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'shared.txt' }))).TagSet ?? []).toEqual([]);

    await s3.send(new PutObjectTaggingCommand({ Bucket, Key: 'shared.txt', Tagging: { TagSet: [{ Key: 'v', Value: '2' }] } }));
    await env.restart();
    expect((await env.s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'shared.txt' }))).TagSet).toEqual([{ Key: 'v', Value: '2' }]);
    expect((await files(env.storage, zone).del('shared.txt')).status).toBe(200);
    await env.s3.send(new PutObjectCommand({ Bucket, Key: 'shared.txt', Body: 'v3' }));
    expect((await env.s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'shared.txt' }))).TagSet ?? []).toEqual([]);
  });

  it('sets, reads and removes the bucket tag set (up to 50 tags), read-only password reads only', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await expect(s3.send(new GetBucketTaggingCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchTagSet', $metadata: { httpStatusCode: 404 } });
    const TagSet = Array.from({ length: 50 }, (_, i) => ({ Key: `cost-centre-${i}`, Value: `${i}` }));
    await expect(s3.send(new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet } }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket }))).TagSet).toEqual(TagSet);
    await expect(s3.send(new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet: [...TagSet, { Key: 'one-more', Value: 'x' }] } }))).rejects.toMatchObject({
      name: 'InvalidTag',
    });

    const readOnly = s3Client(env.plane, zone, { secret: zone.ReadOnlyPassword });
    try {
      expect((await readOnly.send(new GetBucketTaggingCommand({ Bucket }))).TagSet).toHaveLength(50);
      await expect(readOnly.send(new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet: [] } }))).rejects.toMatchObject({ name: 'AccessDenied' });
      await expect(readOnly.send(new DeleteBucketTaggingCommand({ Bucket }))).rejects.toMatchObject({ name: 'AccessDenied' });
      await s3.send(new PutObjectCommand({ Bucket, Key: 'o.txt', Body: 'o' }));
      await expect(readOnly.send(new PutObjectTaggingCommand({ Bucket, Key: 'o.txt', Tagging: { TagSet: [{ Key: 'a', Value: 'b' }] } }))).rejects.toMatchObject(
        { name: 'AccessDenied' },
      );
    } finally {
      readOnly.destroy();
    }

    // The tags are the bucket's, not the zone's management fields: the API shows none of them.
    const shown = (await env.t.get(`/storagezone/${zone.Id}`)).body as Record<string, unknown>;
    expect(JSON.stringify(shown)).not.toContain('cost-centre');
    await expect(s3.send(new DeleteBucketTaggingCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    await expect(s3.send(new GetBucketTaggingCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchTagSet' });
  });
});
