/**
 * Bucket lifecycle configurations through the AWS SDK on both stores: kept and answered back in
 * the form given, refused as S3 refuses them (transitions with the reason), and applied by the
 * lifecycle sweep: objects expire by Days (S3's midnight rounding) or Date, matching the filter's
 * prefix, tags and size bounds, the zone's counters dropping with them; stale multipart uploads
 * are aborted; disabled rules do nothing. Time moves with the test clock.
 */
import {
  CreateMultipartUploadCommand,
  DeleteBucketLifecycleCommand,
  GetBucketLifecycleConfigurationCommand,
  GetObjectCommand,
  type LifecycleRule,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutBucketLifecycleConfigurationCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { dueAfterDays } from '../../../src/domain/s3/lifecycle-sweep.js';
import { s3Client, useS3Env } from '../../helpers/s3-plane.js';

const HOUR = 3_600_000;

describe('S3 bucket lifecycle configuration', () => {
  const env = useS3Env('life');

  const put = (Rules: LifecycleRule[]) => env.s3.send(new PutBucketLifecycleConfigurationCommand({ Bucket: env.zone.Name, LifecycleConfiguration: { Rules } }));
  const get = async () => (await env.s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: env.zone.Name }))).Rules;

  it('keeps a configuration, answers it back as given (after a restart too), and deletes it', async () => {
    const Bucket = env.zone.Name;
    await expect(get()).rejects.toMatchObject({ name: 'NoSuchLifecycleConfiguration', $metadata: { httpStatusCode: 404 } });
    const rules: LifecycleRule[] = [
      { ID: 'logs', Status: 'Enabled', Filter: { Prefix: 'logs/' }, Expiration: { Days: 30 }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 2 } },
      { ID: 'tagged', Status: 'Disabled', Filter: { Tag: { Key: 'temp', Value: 'yes' } }, Expiration: { Date: new Date('2026-06-01T00:00:00Z') } },
      {
        ID: 'and',
        Status: 'Enabled',
        Filter: { And: { Prefix: 'big/', Tags: [{ Key: 'a', Value: '1' }], ObjectSizeGreaterThan: 1000, ObjectSizeLessThan: 5000 } },
        Expiration: { Days: 7 },
      },
      { ID: 'small', Status: 'Enabled', Filter: { ObjectSizeLessThan: 10 }, Expiration: { Days: 1 }, NoncurrentVersionExpiration: { NoncurrentDays: 3 } },
      { ID: 'all', Status: 'Enabled', Filter: {}, Expiration: { ExpiredObjectDeleteMarker: true } },
    ];
    await expect(put(rules)).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    expect(await get()).toEqual(rules);
    await env.restart();
    expect(await get()).toEqual(rules);

    // A rule without an ID is given one, as S3 does.
    await put([{ Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 1 } }]);
    const [named] = (await get())!;
    expect(named).toMatchObject({ Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 1 } });
    expect(named!.ID).toMatch(/^\S{1,255}$/);

    await expect(env.s3.send(new DeleteBucketLifecycleCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
    await expect(get()).rejects.toMatchObject({ name: 'NoSuchLifecycleConfiguration' });
    // Deleting what is not there succeeds, as in S3.
    await expect(env.s3.send(new DeleteBucketLifecycleCommand({ Bucket }))).resolves.toMatchObject({ $metadata: { httpStatusCode: 204 } });
  });

  it('answers the legacy top-level Prefix form as given', async () => {
    const rules: LifecycleRule[] = [
      { ID: 'old-style', Status: 'Enabled', Prefix: 'tmp/', Expiration: { Days: 2 } },
      { ID: 'old-abort', Status: 'Disabled', Prefix: '', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ];
    await put(rules);
    expect(await get()).toEqual(rules);
  });

  it('refuses what S3 refuses, naming the problem, and keeps the configuration it had', async () => {
    const kept: LifecycleRule[] = [{ ID: 'kept', Status: 'Enabled', Filter: { Prefix: 'k/' }, Expiration: { Days: 9 } }];
    await put(kept);
    const expiring = { Status: 'Enabled' as const, Filter: { Prefix: 'x/' }, Expiration: { Days: 1 } };
    const cases: [LifecycleRule[], string, RegExp][] = [
      [[], 'MalformedXML', /at least one <Rule>/],
      [[{ ...expiring, ID: 'x'.repeat(256) }], 'InvalidArgument', /ID length should not exceed allowed limit of 255/],
      [
        [
          { ...expiring, ID: 'twice' },
          { ...expiring, ID: 'twice' },
        ],
        'InvalidArgument',
        /Rule ID must be unique/,
      ],
      [[{ ...expiring, Status: 'Maybe' as never }], 'MalformedXML', /Status/],
      [[{ ...expiring, Prefix: 'both/' }], 'MalformedXML', /<Filter> or the legacy <Prefix>, not both/],
      [[{ Status: 'Enabled', Expiration: { Days: 1 } }], 'MalformedXML', /needs a <Filter>/],
      [[{ ...expiring, Filter: { Prefix: 'a/', ObjectSizeGreaterThan: 5 } }], 'MalformedXML', /several go inside <And>/],
      [[{ ...expiring, Filter: { And: { Prefix: 'a/' } } }], 'MalformedXML', /at least two conditions/],
      [[{ ...expiring, Filter: { ObjectSizeGreaterThan: 100, ObjectSizeLessThan: 100 } as never }], 'MalformedXML', /several go inside <And>/],
      [
        [{ ...expiring, Filter: { And: { ObjectSizeGreaterThan: 100, ObjectSizeLessThan: 50 } } }],
        'InvalidRequest',
        /'ObjectSizeLessThan' has to be a value greater/,
      ],
      [
        [
          {
            ...expiring,
            Filter: {
              And: {
                Tags: [
                  { Key: 'k', Value: '1' },
                  { Key: 'k', Value: '2' },
                ],
              },
            },
          },
        ],
        'InvalidRequest',
        /Duplicate Tag Keys/,
      ],
      [[{ ...expiring, Expiration: { Days: 0 } }], 'InvalidArgument', /'Days' for Expiration action must be a positive integer/],
      [
        [{ ...expiring, Expiration: { Days: 3, Date: new Date('2026-03-01T00:00:00Z') } }],
        'MalformedXML',
        /exactly one of Days, Date and ExpiredObjectDeleteMarker/,
      ],
      [[{ ...expiring, Expiration: { Date: new Date('2026-03-01T12:00:00Z') } }], 'InvalidArgument', /'Date' must be at midnight GMT/],
      [
        [{ ...expiring, Expiration: { Days: 1, ExpiredObjectDeleteMarker: true } }],
        'MalformedXML',
        /ExpiredObjectDeleteMarker cannot be given with Days or Date/,
      ],
      [[{ ...expiring, Expiration: {} }], 'MalformedXML', /exactly one of/],
      [[{ ...expiring, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 0 } }], 'InvalidArgument', /'DaysAfterInitiation' .* must be a positive integer/],
      [
        [{ Status: 'Enabled', Filter: { Tag: { Key: 'k', Value: 'v' } }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }],
        'InvalidRequest',
        /AbortIncompleteMultipartUpload cannot be specified with Tags/,
      ],
      [
        [{ Status: 'Enabled', Filter: { ObjectSizeGreaterThan: 10 }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }],
        'InvalidRequest',
        /AbortIncompleteMultipartUpload cannot be specified with Object Size/,
      ],
      [[{ Status: 'Enabled', Filter: { Prefix: 'a/' } }], 'InvalidRequest', /At least one action needs to be specified in a rule/],
      [[{ ...expiring, NoncurrentVersionExpiration: { NoncurrentDays: -1 } }], 'InvalidArgument', /'NoncurrentDays' .* must be a positive integer/],
      [[{ ...expiring, Transitions: [{ Days: 30, StorageClass: 'GLACIER' }] }], 'InvalidArgument', /one STANDARD storage class/],
      [[{ ...expiring, NoncurrentVersionTransitions: [{ NoncurrentDays: 30, StorageClass: 'STANDARD_IA' }] }], 'InvalidArgument', /one STANDARD storage class/],
      [[expiring, { Status: 'Enabled', Prefix: 'legacy/', Expiration: { Days: 1 } }], 'InvalidRequest', /Filter element can only be used in Lifecycle V2/],
    ];
    for (const [rules, name, message] of cases) {
      const refused = await put(rules).then(
        () => undefined,
        (error: Error & { $metadata?: { httpStatusCode?: number } }) => error,
      );
      expect(refused, `${name} ${message}`).toMatchObject({ name, $metadata: { httpStatusCode: 400 } });
      expect(refused!.message).toMatch(message);
    }
    expect(await get()).toEqual(kept);
  });

  it('takes up to 1,000 rules and refuses more', async () => {
    const rules = (n: number): LifecycleRule[] =>
      Array.from({ length: n }, (_, i) => ({ ID: `r${i}`, Status: 'Enabled', Filter: { Prefix: `p${i}/` }, Expiration: { Days: 1 + i } }));
    await put(rules(1000));
    expect(await get()).toHaveLength(1000);
    await expect(put(rules(1001))).rejects.toMatchObject({ name: 'MalformedXML', message: expect.stringMatching(/at most 1000 rules/) });
    expect(await get()).toHaveLength(1000);
  });

  it('lets the read-only password read the configuration but not change it', async () => {
    const rules: LifecycleRule[] = [{ ID: 'r', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 1 } }];
    await put(rules);
    const readOnly = s3Client(env.plane, env.zone, { secret: env.zone.ReadOnlyPassword });
    try {
      const Bucket = env.zone.Name;
      expect((await readOnly.send(new GetBucketLifecycleConfigurationCommand({ Bucket }))).Rules).toEqual(rules);
      await expect(readOnly.send(new PutBucketLifecycleConfigurationCommand({ Bucket, LifecycleConfiguration: { Rules: [] } }))).rejects.toMatchObject({
        name: 'AccessDenied',
        $metadata: { httpStatusCode: 403 },
      });
      await expect(readOnly.send(new DeleteBucketLifecycleCommand({ Bucket }))).rejects.toMatchObject({ name: 'AccessDenied' });
    } finally {
      readOnly.destroy();
    }
    expect(await get()).toEqual(rules);
  });

  it('expires objects by Days and Date as S3 counts, by prefix, tags and size, and aborts stale uploads', async () => {
    const { s3, t, zone } = env;
    const Bucket = zone.Name;
    const sweep = () => t.app.services.lifecycleSweeper.sweep();
    const usage = async () => {
      const { FilesStored, StorageUsed } = (await t.get(`/storagezone/${zone.Id}`)).body;
      return { FilesStored, StorageUsed };
    };
    const keys = async () => ((await s3.send(new ListObjectsV2Command({ Bucket }))).Contents ?? []).map((o) => o.Key).sort();
    const object = (Key: string, size: number, Tagging?: string) =>
      s3.send(new PutObjectCommand({ Bucket, Key, Body: Buffer.alloc(size, 1), ...(Tagging ? { Tagging } : {}) }));

    // 2026-01-01T10:00Z: the objects and uploads are made.
    t.clock.advance(10 * HOUR);
    await object('logs/old.txt', 100);
    await object('logs/big.bin', 5000);
    await object('logs/small.txt', 10);
    await object('keep/a.txt', 100);
    await object('tmp/tagged.txt', 20, 'expire=yes&team=a');
    await object('tmp/untagged.txt', 20);
    await object('tmp/other-value.txt', 20, 'expire=no');
    await object('dated/x.txt', 30);
    await object('disabled/x.txt', 40);
    const stale = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'uploads/big.bin' }));
    await s3.send(new UploadPartCommand({ Bucket, Key: 'uploads/big.bin', UploadId: stale.UploadId, PartNumber: 1, Body: Buffer.alloc(1000) }));
    await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'elsewhere/big.bin' }));
    await put([
      { ID: 'logs', Status: 'Enabled', Filter: { And: { Prefix: 'logs/', ObjectSizeGreaterThan: 50 } }, Expiration: { Days: 1 } },
      { ID: 'tagged', Status: 'Enabled', Filter: { Tag: { Key: 'expire', Value: 'yes' } }, Expiration: { Days: 1 } },
      { ID: 'dated', Status: 'Enabled', Filter: { Prefix: 'dated/' }, Expiration: { Date: new Date('2026-01-05T00:00:00Z') } },
      { ID: 'disabled', Status: 'Disabled', Filter: { Prefix: 'disabled/' }, Expiration: { Days: 1 } },
      { ID: 'uploads', Status: 'Enabled', Filter: { Prefix: 'uploads/' }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ]);
    const all = [
      'dated/x.txt',
      'disabled/x.txt',
      'keep/a.txt',
      'logs/big.bin',
      'logs/new.txt',
      'logs/old.txt',
      'logs/small.txt',
      'tmp/other-value.txt',
      'tmp/tagged.txt',
      'tmp/untagged.txt',
    ];

    // 2026-01-02T10:00Z: one more object, a day younger.
    t.clock.advance(24 * HOUR);
    await object('logs/new.txt', 60);
    expect(await usage()).toEqual({ FilesStored: 10, StorageUsed: 100 + 5000 + 10 + 100 + 60 + 30 + 40 + 60 });

    // 2026-01-02T23:59Z: a day and a half old, but S3 lets an object go at the first midnight after Last-Modified + Days.
    t.clock.advance(14 * HOUR - 60_000);
    expect(await sweep()).toEqual({ expired: 0, aborted: 0 });
    expect(await keys()).toEqual(all);

    // 2026-01-03T00:00Z: the day-old objects the filters match go, and the day-old upload is aborted.
    t.clock.advance(60_000);
    expect(await sweep()).toEqual({ expired: 3, aborted: 1 });
    expect(await keys()).toEqual(all.filter((k) => !['logs/big.bin', 'logs/old.txt', 'tmp/tagged.txt'].includes(k)));
    expect(await usage()).toEqual({ FilesStored: 7, StorageUsed: 10 + 100 + 40 + 30 + 40 + 60 });
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: 'logs/old.txt' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    expect(((await s3.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads ?? []).map((u) => u.Key)).toEqual(['elsewhere/big.bin']);
    // Nothing left to do: a second pass changes nothing.
    expect(await sweep()).toEqual({ expired: 0, aborted: 0 });

    // 2026-01-05T00:00Z: the rule's Date has come, and the object made on the 2nd is due since the 4th.
    t.clock.advance(48 * HOUR);
    expect(await sweep()).toEqual({ expired: 2, aborted: 0 });
    expect(await keys()).toEqual(['disabled/x.txt', 'keep/a.txt', 'logs/small.txt', 'tmp/other-value.txt', 'tmp/untagged.txt']);
    expect(await usage()).toEqual({ FilesStored: 5, StorageUsed: 10 + 100 + 40 + 40 });

    // Much later, the disabled rule has still done nothing; without a configuration nothing goes.
    t.clock.advance(100 * 24 * HOUR);
    await env.s3.send(new DeleteBucketLifecycleCommand({ Bucket }));
    await object('dated/again.txt', 5);
    t.clock.advance(400 * 24 * HOUR);
    expect(await sweep()).toEqual({ expired: 0, aborted: 0 });
    expect(await keys()).toContain('disabled/x.txt');
    expect(await usage()).toEqual({ FilesStored: 6, StorageUsed: 195 });
  });

  it('counts the days of an object uploaded again from its new Last-Modified', async () => {
    const { s3, t, zone } = env;
    const Bucket = zone.Name;
    // 2026-01-01T00:00Z, due on the 4th at midnight; uploaded again on the 3rd, due on the 6th.
    await s3.send(new PutObjectCommand({ Bucket, Key: 'a/x.txt', Body: 'old' }));
    await put([{ ID: 'a', Status: 'Enabled', Filter: { Prefix: 'a/' }, Expiration: { Days: 2 } }]);
    t.clock.advance(2 * 24 * HOUR);
    const old = await t.store.files.get(String(zone.Id), 'a/x.txt');
    await s3.send(new PutObjectCommand({ Bucket, Key: 'a/x.txt', Body: 'new!' }));
    // What a sweep found old and is about to remove is only removed while it is still that version.
    const files = t.app.services.files;
    await expect(
      files.remove({ zoneId: String(zone.Id), accountId: t.accountId }, { path: 'a/x.txt', isDirectory: false }, false, old!.guid),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    t.clock.advance(2 * 24 * HOUR);
    expect(await t.app.services.lifecycleSweeper.sweep()).toEqual({ expired: 0, aborted: 0 });
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'a/x.txt' }));
    expect(await got.Body!.transformToString()).toBe('new!');
    t.clock.advance(24 * HOUR);
    expect(await t.app.services.lifecycleSweeper.sweep()).toEqual({ expired: 1, aborted: 0 });
  });
});

describe('the lifecycle day count', () => {
  it('is due at the first midnight UTC after Last-Modified plus the days', () => {
    expect(new Date(dueAfterDays('2014-01-15T10:30:00.000Z', 3)).toISOString()).toBe('2014-01-19T00:00:00.000Z');
    expect(new Date(dueAfterDays('2014-01-15T23:59:59.999Z', 1)).toISOString()).toBe('2014-01-17T00:00:00.000Z');
    expect(new Date(dueAfterDays('2014-01-15T00:00:00.000Z', 1)).toISOString()).toBe('2014-01-17T00:00:00.000Z');
  });
});
