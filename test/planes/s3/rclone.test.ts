/**
 * rclone, an S3 client independent of the AWS SDK for JavaScript (Go, its own signer and multipart
 * code), against the S3 plane on both stores: copy a tree with a 100 MiB file uploaded in parts,
 * list it, check every file's hash, read one, copy server-side, delete — and the result as the
 * file API and the zone's counters see it.
 */
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf, generatedStream } from '../../files/generated-bytes.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { ensureDebianPackage } from '../../helpers/debian-package.js';
import { createS3Zone, type S3Plane, type S3Zone, s3Client, startS3Plane } from '../../helpers/s3-plane.js';
import { files, startStoragePlane, type StoragePlane } from '../../helpers/storage-plane.js';

const run = promisify(execFile);
const MiB = 1024 * 1024;
const BIG = 100 * MiB;

describe('rclone against the S3 plane', () => {
  let t: TestContext;
  let plane: S3Plane;
  let storage: StoragePlane;
  let zone: S3Zone;
  let s3: S3Client;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  const rclone = async (...args: string[]) =>
    (await run('rclone', ['--retries', '1', '--low-level-retries', '1', ...args], { env, maxBuffer: 16 * MiB })).stdout;

  beforeAll(async () => {
    await ensureDebianPackage('rclone', 'rclone');
    t = await createTestApp();
    plane = await startS3Plane(t);
    storage = await startStoragePlane(t);
    zone = await createS3Zone(t, `rclone-${randomBytes(3).toString('hex')}`);
    s3 = s3Client(plane, zone);
    dir = mkdtempSync(join(tmpdir(), 'edgeplane-rclone-'));
    // A remote named `ep` from the environment alone, no configuration file.
    writeFileSync(join(dir, 'empty.conf'), '');
    env = {
      // The AWS_* settings of the machine (a CA bundle, a profile) are for other S3 endpoints.
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_'))),
      RCLONE_CONFIG: join(dir, 'empty.conf'),
      RCLONE_CONFIG_EP_TYPE: 's3',
      RCLONE_CONFIG_EP_PROVIDER: 'Other',
      RCLONE_CONFIG_EP_ACCESS_KEY_ID: zone.Name,
      RCLONE_CONFIG_EP_SECRET_ACCESS_KEY: zone.Password,
      RCLONE_CONFIG_EP_ENDPOINT: plane.url,
      RCLONE_CONFIG_EP_REGION: 'de',
      RCLONE_CONFIG_EP_FORCE_PATH_STYLE: 'true',
    };
    const tree = join(dir, 'tree');
    mkdirSync(join(tree, 'docs/deep'), { recursive: true });
    writeFileSync(join(tree, 'readme.txt'), 'hello from rclone\n');
    writeFileSync(join(tree, 'docs/a.bin'), randomBytes(70_000));
    writeFileSync(join(tree, 'docs/deep/b.bin'), randomBytes(1234));
    await pipeline(generatedStream(BIG, 'rclone'), createWriteStream(join(tree, 'big.bin')));
  }, 300_000);
  afterAll(async () => {
    s3?.destroy();
    await plane?.close();
    await storage?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('copies a tree, the 100 MiB file in 16 MiB parts, and checks every hash', { timeout: 300_000 }, async () => {
    await rclone('copy', join(dir, 'tree'), `ep:${zone.Name}/backup`, '--s3-chunk-size', '16M', '--s3-upload-cutoff', '16M', '--s3-upload-concurrency', '3');
    const listed = JSON.parse(await rclone('lsjson', '-R', '--files-only', `ep:${zone.Name}/backup`)) as { Path: string; Size: number }[];
    expect(listed.map((e) => [e.Path, e.Size]).sort()).toEqual([
      ['big.bin', BIG],
      ['docs/a.bin', 70_000],
      ['docs/deep/b.bin', 1234],
      ['readme.txt', 18],
    ]);
    // Every file's MD5 compared with the local one (the big one's through the hash rclone stored with it).
    await rclone('check', join(dir, 'tree'), `ep:${zone.Name}/backup`);

    const head = await s3.send(new HeadObjectCommand({ Bucket: zone.Name, Key: 'backup/big.bin' }));
    expect(head.ETag).toMatch(/^"[0-9a-f]{32}-7"$/);
    const got = await s3.send(new GetObjectCommand({ Bucket: zone.Name, Key: 'backup/big.bin' }));
    expect(await digestOf(got.Body as Readable)).toEqual(await digestOf(generatedStream(BIG, 'rclone')));
    const viaFiles = await files(storage, zone).get('backup/readme.txt');
    expect(await viaFiles.text()).toBe('hello from rclone\n');
    expect((await t.get(`/storagezone/${zone.Id}`)).body).toMatchObject({ FilesStored: 4, StorageUsed: BIG + 70_000 + 1234 + 18 });
  });

  it('reads, copies server-side and deletes', { timeout: 120_000 }, async () => {
    expect(await rclone('cat', `ep:${zone.Name}/backup/readme.txt`)).toBe('hello from rclone\n');
    await rclone('copyto', `ep:${zone.Name}/backup/docs/a.bin`, `ep:${zone.Name}/copies/a.bin`);
    await rclone('check', `ep:${zone.Name}/backup/docs`, `ep:${zone.Name}/copies`, '--one-way', '--include', 'a.bin');
    await rclone('deletefile', `ep:${zone.Name}/copies/a.bin`);
    await rclone('purge', `ep:${zone.Name}/backup/docs`);
    const left = JSON.parse(await rclone('lsjson', '-R', '--files-only', `ep:${zone.Name}`)) as { Path: string }[];
    expect(left.map((e) => e.Path).sort()).toEqual(['backup/big.bin', 'backup/readme.txt']);
    expect((await t.get(`/storagezone/${zone.Id}`)).body).toMatchObject({ FilesStored: 2, StorageUsed: BIG + 18 });
  });
});
