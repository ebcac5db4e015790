/**
 * A file completed from more than ten S3 parts keeps them as its segments
 * (src/domain/files/segments.ts): reading it, whole or as a range across parts, through the
 * storage plane and through S3, must give its bytes without Node warning of a listener leak.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOf, generatedBytes, generatedStream } from '../../files/generated-bytes.js';
import { useS3Env } from '../../helpers/s3-plane.js';
import { files } from '../../helpers/storage-plane.js';

const MiB = 1024 * 1024;
/** Eleven parts: ten of S3's smallest allowed size, and a short last one. */
const PARTS = 11;
const SIZE = (PARTS - 1) * 5 * MiB + 1234;

describe('a file of more than ten parts', () => {
  const env = useS3Env('parts');
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });

  it('reads back byte-exact through both planes, with no MaxListenersExceededWarning', { timeout: 120_000 }, async () => {
    const upload = new Upload({
      client: env.s3,
      params: { Bucket: env.zone.Name, Key: 'parts/file.bin', Body: generatedStream(SIZE, 'parts') },
      partSize: 5 * MiB,
      queueSize: 3,
    });
    const done = await upload.done();
    expect(done.ETag).toMatch(new RegExp(`^"[0-9a-f]{32}-${PARTS}"$`));
    const expected = await digestOf(generatedStream(SIZE, 'parts'));

    const viaFiles = await files(env.storage, env.zone).get('parts/file.bin');
    expect(viaFiles.status).toBe(200);
    expect(await digestOf(viaFiles.body as unknown as Readable)).toEqual(expected);
    const viaS3 = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'parts/file.bin' }));
    expect(await digestOf(viaS3.Body as Readable)).toEqual(expected);
    // From inside the first part to the end: every part after it is read.
    const ranged = await env.s3.send(new GetObjectCommand({ Bucket: env.zone.Name, Key: 'parts/file.bin', Range: `bytes=${MiB}-` }));
    expect(Buffer.from(await ranged.Body!.transformToByteArray()).equals((await generatedBytes(SIZE, 'parts')).subarray(MiB))).toBe(true);

    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });
});
