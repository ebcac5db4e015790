/**
 * The configuration sub-resources S3 has and edgeplane does not, driven by the AWS SDK on both
 * stores: reads answer as S3 does for a bucket with none configured (the owner's ACL, an empty tag
 * set, the named "not found" errors, every object as its one `null` version), writes that would
 * configure a feature are NotImplemented, and deleting what is not there succeeds.
 */
import {
  DeleteBucketCorsCommand,
  DeleteBucketPolicyCommand,
  DeleteObjectTaggingCommand,
  GetBucketAccelerateConfigurationCommand,
  GetBucketAclCommand,
  GetBucketCorsCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketLoggingCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketPolicyStatusCommand,
  GetBucketReplicationCommand,
  GetBucketRequestPaymentCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetBucketWebsiteCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  GetObjectLockConfigurationCommand,
  GetObjectTaggingCommand,
  GetPublicAccessBlockCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutBucketAclCommand,
  PutBucketCorsCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3Client, useS3Env } from '../../helpers/s3-plane.js';

describe('S3 configuration sub-resources', () => {
  const env = useS3Env('conf');

  it('answers the owner-only ACL of the bucket and its objects, and accepts the canned ACL private only', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'a.txt', Body: 'a' }));
    for (const acl of [await s3.send(new GetBucketAclCommand({ Bucket })), await s3.send(new GetObjectAclCommand({ Bucket, Key: 'a.txt' }))]) {
      expect(acl.Owner?.DisplayName).toBe(zone.Name);
      expect(acl.Grants).toEqual([{ Grantee: { Type: 'CanonicalUser', ID: acl.Owner?.ID, DisplayName: zone.Name }, Permission: 'FULL_CONTROL' }]);
    }
    await expect(s3.send(new GetObjectAclCommand({ Bucket, Key: 'missing.txt' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    await expect(s3.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    await expect(s3.send(new PutObjectAclCommand({ Bucket, Key: 'a.txt', ACL: 'private' }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    await expect(s3.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read' }))).rejects.toMatchObject({
      name: 'NotImplemented',
      $metadata: { httpStatusCode: 501 },
    });
    await expect(
      s3.send(new PutObjectAclCommand({ Bucket, Key: 'a.txt', GrantRead: 'uri="http://acs.amazonaws.com/groups/global/AllUsers"' })),
    ).rejects.toMatchObject({
      name: 'NotImplemented',
    });
    // The read-only password reads the ACL but does not set it.
    const readOnly = s3Client(env.plane, zone, { secret: zone.ReadOnlyPassword });
    try {
      await expect(readOnly.send(new GetBucketAclCommand({ Bucket }))).resolves.toBeDefined();
      await expect(readOnly.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }))).rejects.toMatchObject({ name: 'AccessDenied' });
      await expect(readOnly.send(new DeleteBucketCorsCommand({ Bucket }))).rejects.toMatchObject({ name: 'AccessDenied' });
    } finally {
      readOnly.destroy();
    }
  });

  it('answers an empty tag set for objects and NoSuchTagSet for the bucket; setting tags is not implemented', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 't.txt', Body: 't' }));
    const tags = await s3.send(new GetObjectTaggingCommand({ Bucket, Key: 't.txt' }));
    expect(tags.TagSet ?? []).toEqual([]);
    await expect(s3.send(new GetObjectTaggingCommand({ Bucket, Key: 'nope.txt' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    await expect(s3.send(new DeleteObjectTaggingCommand({ Bucket, Key: 't.txt' }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    await expect(s3.send(new GetBucketTaggingCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchTagSet', $metadata: { httpStatusCode: 404 } });
    await expect(s3.send(new PutObjectTaggingCommand({ Bucket, Key: 't.txt', Tagging: { TagSet: [{ Key: 'k', Value: 'v' }] } }))).rejects.toMatchObject({
      name: 'NotImplemented',
      $metadata: { httpStatusCode: 501 },
    });
    await expect(s3.send(new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet: [{ Key: 'k', Value: 'v' }] } }))).rejects.toMatchObject({
      name: 'NotImplemented',
    });
  });

  it('reports every unset bucket configuration as S3 does, refuses to set one and deletes none', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    const absent: [() => Promise<unknown>, string][] = [
      [() => s3.send(new GetBucketCorsCommand({ Bucket })), 'NoSuchCORSConfiguration'],
      [() => s3.send(new GetBucketPolicyCommand({ Bucket })), 'NoSuchBucketPolicy'],
      [() => s3.send(new GetBucketPolicyStatusCommand({ Bucket })), 'NoSuchBucketPolicy'],
      [() => s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket })), 'NoSuchLifecycleConfiguration'],
      [() => s3.send(new GetBucketEncryptionCommand({ Bucket })), 'ServerSideEncryptionConfigurationNotFoundError'],
      [() => s3.send(new GetBucketWebsiteCommand({ Bucket })), 'NoSuchWebsiteConfiguration'],
      [() => s3.send(new GetObjectLockConfigurationCommand({ Bucket })), 'ObjectLockConfigurationNotFoundError'],
      [() => s3.send(new GetBucketOwnershipControlsCommand({ Bucket })), 'OwnershipControlsNotFoundError'],
      [() => s3.send(new GetPublicAccessBlockCommand({ Bucket })), 'NoSuchPublicAccessBlockConfiguration'],
      [() => s3.send(new GetBucketReplicationCommand({ Bucket })), 'ReplicationConfigurationNotFoundError'],
    ];
    for (const [read, code] of absent) await expect(read()).rejects.toMatchObject({ name: code, $metadata: { httpStatusCode: 404 } });

    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBeUndefined();
    expect((await s3.send(new GetBucketLoggingCommand({ Bucket }))).LoggingEnabled).toBeUndefined();
    expect((await s3.send(new GetBucketAccelerateConfigurationCommand({ Bucket }))).Status).toBeUndefined();
    expect((await s3.send(new GetBucketRequestPaymentCommand({ Bucket }))).Payer).toBe('BucketOwner');
    const notifications = await s3.send(new GetBucketNotificationConfigurationCommand({ Bucket }));
    expect(notifications.TopicConfigurations ?? []).toEqual([]);

    await expect(s3.send(new PutBucketPolicyCommand({ Bucket, Policy: JSON.stringify({ Version: '2012-10-17', Statement: [] }) }))).rejects.toMatchObject({
      name: 'NotImplemented',
      $metadata: { httpStatusCode: 501 },
    });
    await expect(
      s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }] } })),
    ).rejects.toMatchObject({ name: 'NotImplemented' });
    await expect(s3.send(new DeleteBucketCorsCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    await expect(s3.send(new DeleteBucketPolicyCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    // None of these reads was taken for a listing: the bucket still lists as it did.
    expect((await s3.send(new ListObjectsV2Command({ Bucket }))).KeyCount).toBe(0);
  });

  it('lists every object as its one null version, the latest, with delimiters and markers', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    for (const key of ['a/1', 'a/2', 'b', 'c']) await s3.send(new PutObjectCommand({ Bucket, Key: key, Body: key }));
    const all = await s3.send(new ListObjectVersionsCommand({ Bucket }));
    expect(all.Versions?.map((v) => [v.Key, v.VersionId, v.IsLatest, v.Size])).toEqual([
      ['a/1', 'null', true, 3],
      ['a/2', 'null', true, 3],
      ['b', 'null', true, 1],
      ['c', 'null', true, 1],
    ]);
    expect(all.Versions?.[0]?.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(all.IsTruncated).toBe(false);
    const top = await s3.send(new ListObjectVersionsCommand({ Bucket, Delimiter: '/' }));
    expect([top.CommonPrefixes?.map((p) => p.Prefix), top.Versions?.map((v) => v.Key)]).toEqual([['a/'], ['b', 'c']]);

    const seen: string[] = [];
    let marker: { KeyMarker?: string; VersionIdMarker?: string } = {};
    for (let pages = 0; pages < 5; pages++) {
      const page = await s3.send(new ListObjectVersionsCommand({ Bucket, Delimiter: '/', MaxKeys: 2, ...marker }));
      seen.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!), ...(page.Versions ?? []).map((v) => v.Key!));
      if (!page.IsTruncated) break;
      marker = { KeyMarker: page.NextKeyMarker, VersionIdMarker: page.NextVersionIdMarker };
    }
    expect(seen).toEqual(['a/', 'b', 'c']);
    // The one version is read by its id, `null`; any other id names nothing.
    expect(await (await s3.send(new GetObjectCommand({ Bucket, Key: 'b', VersionId: 'null' }))).Body!.transformToString()).toBe('b');
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: 'b', VersionId: '3HL4kqtJlcpXroDTDmjVBH40Nrjfkd' }))).rejects.toMatchObject({
      name: 'InvalidArgument',
    });
  });
});
