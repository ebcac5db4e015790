/**
 * The configuration sub-resources S3 has besides tags, CORS, policies and lifecycle rules (each
 * tested in its own file), driven by the AWS SDK on both stores: ACLs as S3 has them with
 * ownership enforced, versioning that can be suspended, a public access block kept, the settings
 * that describe what is already so accepted, the features edgeplane does not have refused with
 * S3's own answer or NotImplemented and the reason, and every object listed as its one `null` version.
 */
import {
  DeleteBucketEncryptionCommand,
  DeleteBucketOwnershipControlsCommand,
  DeletePublicAccessBlockCommand,
  GetBucketAccelerateConfigurationCommand,
  GetBucketAclCommand,
  GetBucketCorsCommand,
  GetBucketEncryptionCommand,
  GetBucketLoggingCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketReplicationCommand,
  GetBucketRequestPaymentCommand,
  GetBucketVersioningCommand,
  GetBucketWebsiteCommand,
  GetObjectAclCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectLockConfigurationCommand,
  GetPublicAccessBlockCommand,
  ListBucketAnalyticsConfigurationsCommand,
  ListBucketMetricsConfigurationsCommand,
  GetBucketAnalyticsConfigurationCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutBucketAccelerateConfigurationCommand,
  PutBucketAclCommand,
  PutBucketAnalyticsConfigurationCommand,
  PutBucketCorsCommand,
  PutBucketEncryptionCommand,
  PutBucketLoggingCommand,
  PutBucketNotificationConfigurationCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketReplicationCommand,
  PutBucketRequestPaymentCommand,
  PutBucketVersioningCommand,
  PutBucketWebsiteCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectLockConfigurationCommand,
  PutPublicAccessBlockCommand,
  RestoreObjectCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3Client, useS3Env } from '../../helpers/s3-plane.js';

describe('S3 configuration sub-resources', () => {
  const env = useS3Env('conf');

  it('has ACLs as S3 has them with ownership enforced: the owner only, owner-only canned ACLs accepted, any grant refused', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'a.txt', Body: 'a', ACL: 'bucket-owner-full-control' }));
    for (const acl of [await s3.send(new GetBucketAclCommand({ Bucket })), await s3.send(new GetObjectAclCommand({ Bucket, Key: 'a.txt' }))]) {
      expect(acl.Owner?.DisplayName).toBe(zone.Name);
      expect(acl.Grants).toEqual([{ Grantee: { Type: 'CanonicalUser', ID: acl.Owner?.ID, DisplayName: zone.Name }, Permission: 'FULL_CONTROL' }]);
    }
    await expect(s3.send(new GetObjectAclCommand({ Bucket, Key: 'missing.txt' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    await expect(s3.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    await expect(s3.send(new PutObjectAclCommand({ Bucket, Key: 'a.txt', ACL: 'private' }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    const refusals = [
      () => s3.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read' })),
      () => s3.send(new PutObjectAclCommand({ Bucket, Key: 'a.txt', GrantRead: 'uri="http://acs.amazonaws.com/groups/global/AllUsers"' })),
      () => s3.send(new PutObjectCommand({ Bucket, Key: 'b.txt', Body: 'b', ACL: 'public-read' })),
      () => s3.send(new CopyObjectCommand({ Bucket, Key: 'c.txt', CopySource: `${Bucket}/a.txt`, ACL: 'authenticated-read' })),
      () => s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'd.txt', GrantFullControl: 'id="someone-else"' })),
    ];
    for (const refused of refusals)
      await expect(refused()).rejects.toMatchObject({ name: 'AccessControlListNotSupported', $metadata: { httpStatusCode: 400 } });
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: 'b.txt' }))).rejects.toMatchObject({ name: 'NoSuchKey' });

    expect((await s3.send(new GetBucketOwnershipControlsCommand({ Bucket }))).OwnershipControls?.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    await s3.send(new PutBucketOwnershipControlsCommand({ Bucket, OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] } }));
    await expect(
      s3.send(new PutBucketOwnershipControlsCommand({ Bucket, OwnershipControls: { Rules: [{ ObjectOwnership: 'ObjectWriter' }] } })),
    ).rejects.toMatchObject({ name: 'InvalidRequest' });
    await expect(s3.send(new DeleteBucketOwnershipControlsCommand({ Bucket }))).rejects.toMatchObject({ name: 'InvalidRequest' });

    // The read-only password reads the ACL but does not set it.
    const readOnly = s3Client(env.plane, zone, { secret: zone.ReadOnlyPassword });
    try {
      await expect(readOnly.send(new GetBucketAclCommand({ Bucket }))).resolves.toBeDefined();
      await expect(readOnly.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }))).rejects.toMatchObject({ name: 'AccessDenied' });
      await expect(readOnly.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Suspended' } }))).rejects.toMatchObject({
        name: 'AccessDenied',
      });
    } finally {
      readOnly.destroy();
    }
  });

  it('suspends versioning, keeps a public access block, and accepts settings that describe what is already so', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBeUndefined();
    await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Suspended' } }));
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBe('Suspended');

    await expect(s3.send(new GetPublicAccessBlockCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchPublicAccessBlockConfiguration' });
    const block = { BlockPublicAcls: true, IgnorePublicAcls: false, BlockPublicPolicy: true, RestrictPublicBuckets: false };
    await s3.send(new PutPublicAccessBlockCommand({ Bucket, PublicAccessBlockConfiguration: block }));
    await env.restart();
    const s3b = env.s3;
    expect((await s3b.send(new GetPublicAccessBlockCommand({ Bucket }))).PublicAccessBlockConfiguration).toEqual(block);
    expect((await s3b.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBe('Suspended');
    await expect(s3b.send(new DeletePublicAccessBlockCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    await expect(s3b.send(new GetPublicAccessBlockCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchPublicAccessBlockConfiguration' });

    expect((await s3b.send(new GetBucketLoggingCommand({ Bucket }))).LoggingEnabled).toBeUndefined();
    await s3b.send(new PutBucketLoggingCommand({ Bucket, BucketLoggingStatus: {} }));
    expect((await s3b.send(new GetBucketNotificationConfigurationCommand({ Bucket }))).TopicConfigurations ?? []).toEqual([]);
    await s3b.send(new PutBucketNotificationConfigurationCommand({ Bucket, NotificationConfiguration: {} }));
    expect((await s3b.send(new GetBucketAccelerateConfigurationCommand({ Bucket }))).Status).toBeUndefined();
    await s3b.send(new PutBucketAccelerateConfigurationCommand({ Bucket, AccelerateConfiguration: { Status: 'Suspended' } }));
    expect((await s3b.send(new GetBucketRequestPaymentCommand({ Bucket }))).Payer).toBe('BucketOwner');
    await s3b.send(new PutBucketRequestPaymentCommand({ Bucket, RequestPaymentConfiguration: { Payer: 'BucketOwner' } }));
    // None of these was taken for a listing or a write of objects: the bucket still lists as it did.
    expect((await s3b.send(new ListObjectsV2Command({ Bucket }))).KeyCount).toBe(0);
  });

  it("refuses the features edgeplane does not have: with S3's own answer where there is one, else NotImplemented and why", async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'o.txt', Body: 'o' }));
    const absent: [() => Promise<unknown>, string][] = [
      [() => s3.send(new GetBucketEncryptionCommand({ Bucket })), 'ServerSideEncryptionConfigurationNotFoundError'],
      [() => s3.send(new GetBucketWebsiteCommand({ Bucket })), 'NoSuchWebsiteConfiguration'],
      [() => s3.send(new GetObjectLockConfigurationCommand({ Bucket })), 'ObjectLockConfigurationNotFoundError'],
      [() => s3.send(new GetBucketReplicationCommand({ Bucket })), 'ReplicationConfigurationNotFoundError'],
      [() => s3.send(new GetBucketAnalyticsConfigurationCommand({ Bucket, Id: 'a' })), 'NoSuchConfiguration'],
    ];
    for (const [read, code] of absent) await expect(read()).rejects.toMatchObject({ name: code, $metadata: { httpStatusCode: 404 } });
    expect((await s3.send(new ListBucketAnalyticsConfigurationsCommand({ Bucket }))).AnalyticsConfigurationList ?? []).toEqual([]);
    expect((await s3.send(new ListBucketMetricsConfigurationsCommand({ Bucket }))).IsTruncated).toBe(false);
    await expect(s3.send(new DeleteBucketEncryptionCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });

    const notImplemented: [() => Promise<unknown>, RegExp][] = [
      [() => s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } })), /one version/],
      [
        () =>
          s3.send(
            new PutBucketEncryptionCommand({
              Bucket,
              ServerSideEncryptionConfiguration: { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
            }),
          ),
        /encrypt/,
      ],
      [() => s3.send(new PutBucketWebsiteCommand({ Bucket, WebsiteConfiguration: { IndexDocument: { Suffix: 'index.html' } } })), /pull zone/],
      [
        () =>
          s3.send(
            new PutBucketReplicationCommand({
              Bucket,
              ReplicationConfiguration: { Role: 'r', Rules: [{ Status: 'Enabled', Destination: { Bucket: 'arn:aws:s3:::other' }, Prefix: '' }] },
            }),
          ),
        /ReplicationRegions/,
      ],
      [
        () => s3.send(new PutBucketLoggingCommand({ Bucket, BucketLoggingStatus: { LoggingEnabled: { TargetBucket: Bucket, TargetPrefix: 'logs/' } } })),
        /access logs/,
      ],
      [() => s3.send(new PutBucketAccelerateConfigurationCommand({ Bucket, AccelerateConfiguration: { Status: 'Enabled' } })), /acceleration/],
      [() => s3.send(new PutBucketRequestPaymentCommand({ Bucket, RequestPaymentConfiguration: { Payer: 'Requester' } })), /owner pays/],
      [
        () => s3.send(new PutBucketAnalyticsConfigurationCommand({ Bucket, Id: 'a', AnalyticsConfiguration: { Id: 'a', StorageClassAnalysis: {} } })),
        /analysis/,
      ],
    ];
    for (const [write, reason] of notImplemented) {
      const error = await write().catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'NotImplemented', $metadata: { httpStatusCode: 501 } });
      expect((error as Error).message).toMatch(reason);
    }
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBeUndefined();

    await expect(s3.send(new PutObjectLockConfigurationCommand({ Bucket, ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled' } }))).rejects.toMatchObject({
      name: 'InvalidBucketState',
      $metadata: { httpStatusCode: 409 },
    });
    await expect(s3.send(new PutObjectLegalHoldCommand({ Bucket, Key: 'o.txt', LegalHold: { Status: 'ON' } }))).rejects.toMatchObject({
      name: 'InvalidRequest',
      message: 'Bucket is missing Object Lock Configuration',
    });
    await expect(s3.send(new GetObjectLegalHoldCommand({ Bucket, Key: 'o.txt' }))).rejects.toMatchObject({ name: 'InvalidRequest' });
    await s3.send(new PutObjectCommand({ Bucket, Key: 'std.txt', Body: 's', StorageClass: 'STANDARD' }));
    await expect(s3.send(new PutObjectCommand({ Bucket, Key: 'cold.txt', Body: 'c', StorageClass: 'GLACIER' }))).rejects.toMatchObject({
      name: 'InvalidStorageClass',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'cold.bin', StorageClass: 'DEEP_ARCHIVE' }))).rejects.toMatchObject({
      name: 'InvalidStorageClass',
    });
    await expect(s3.send(new RestoreObjectCommand({ Bucket, Key: 'o.txt', RestoreRequest: { Days: 1 } }))).rejects.toMatchObject({
      name: 'InvalidObjectState',
      $metadata: { httpStatusCode: 403 },
    });
  });

  it('refuses a configuration document over 64 KB with MaxMessageLengthExceeded, answered while the client still sends', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    const origin = (i: number, j: number) => `https://${'o'.repeat(90)}-${i}-${j}.example.com`;
    const CORSRules = Array.from({ length: 100 }, (_, i) => ({ AllowedMethods: ['GET'], AllowedOrigins: Array.from({ length: 10 }, (_, j) => origin(i, j)) }));
    await expect(s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules } }))).rejects.toMatchObject({
      name: 'MaxMessageLengthExceeded',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(s3.send(new GetBucketCorsCommand({ Bucket }))).rejects.toMatchObject({ name: 'NoSuchCORSConfiguration' });
    // The plane carries on: the next request on a fresh connection is answered.
    await s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: CORSRules.slice(0, 5) } }));
    expect((await s3.send(new GetBucketCorsCommand({ Bucket }))).CORSRules).toHaveLength(5);
  });

  it('answers GetObjectAttributes with the attributes asked for', async () => {
    const { s3, zone } = env;
    const Bucket = zone.Name;
    const put = await s3.send(new PutObjectCommand({ Bucket, Key: 'attrs.bin', Body: Buffer.alloc(1234, 7) }));
    const attributes = await s3.send(new GetObjectAttributesCommand({ Bucket, Key: 'attrs.bin', ObjectAttributes: ['ETag', 'ObjectSize', 'StorageClass'] }));
    expect([`"${attributes.ETag}"`, attributes.ObjectSize, attributes.StorageClass]).toEqual([put.ETag, 1234, 'STANDARD']);
    expect(attributes.LastModified).toBeInstanceOf(Date);
    const sizeOnly = await s3.send(new GetObjectAttributesCommand({ Bucket, Key: 'attrs.bin', ObjectAttributes: ['ObjectSize'] }));
    expect([sizeOnly.ObjectSize, sizeOnly.ETag]).toEqual([1234, undefined]);
    await expect(s3.send(new GetObjectAttributesCommand({ Bucket, Key: 'nope.bin', ObjectAttributes: ['ETag'] }))).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
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
