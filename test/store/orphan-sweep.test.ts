/**
 * The orphan sweep against random histories of files and S3 multipart uploads (uploads,
 * overwrites, deletes, parts sent again, uploads completed, aborted or left open), with the
 * partial blobs a crash leaves slipped in under the same names (a part of an upload, a part
 * under a completed upload's id, which its file now carries as guid, a file API upload): once
 * every blob is old enough, one sweep leaves on disk exactly the blobs that a file or an open
 * upload records, every file reads back byte-exact, and every open upload still completes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ZoneAccess } from '../../src/domain/files/types.js';
import { MIN_PART_BYTES } from '../../src/domain/s3/multipart.js';
import type { S3Upload } from '../../src/store/types.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createStorageZone } from '../helpers/storage-plane.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const body = (bytes: Buffer) => Readable.from([bytes]);

type Step =
  | { kind: 'put'; path: number; size: number }
  | { kind: 'delete'; path: number }
  | { kind: 'part'; upload: number; part: number; size: number }
  | { kind: 'complete'; upload: number }
  | { kind: 'abort'; upload: number }
  | { kind: 'crash-part'; upload: number }
  | { kind: 'crash-put' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), path: fc.nat(4), size: fc.nat(3000) }),
  fc.record({ kind: fc.constant('delete' as const), path: fc.nat(4) }),
  fc.record({ kind: fc.constant('part' as const), upload: fc.nat(2), part: fc.integer({ min: 1, max: 3 }), size: fc.integer({ min: 1, max: 2000 }) }),
  fc.record({ kind: fc.constant('complete' as const), upload: fc.nat(2) }),
  fc.record({ kind: fc.constant('abort' as const), upload: fc.nat(2) }),
  fc.record({ kind: fc.constant('crash-part' as const), upload: fc.nat(2) }),
  fc.constant({ kind: 'crash-put' as const }),
);

it('leaves exactly the blobs in use, and every file whole', async () => {
  const { files, multipartUploads: multipart, fileSweeper } = t.app.services;
  // The blobs' times are the real clock's; the app's clock is moved past them, so every blob is old enough to be swept.
  const allOld = () => t.clock.advance(Math.max(0, Date.now() + 2 * 3_600_000 - t.clock.read().getTime()));
  let round = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
      const created = await createStorageZone(t, `sweep-${round++}-${randomBytes(2).toString('hex')}`);
      const zone: ZoneAccess = await files.authorize(created.Name, created.Password, 'write');
      const expected = new Map<string, string>();
      const uploads = new Map<number, { upload: S3Upload; parts: Map<number, Buffer> }>();
      const orphans: string[] = [];
      // A part a crash cut short is named as the next one would be: its number comes from the store's sequence.
      const crashKey = async (id: string) => `${zone.zoneId}/${id}.${await t.store.nextId('s3UploadPart')}`;
      const orphan = async (key: string) => {
        await files.blobs.write(key, body(randomBytes(100)), { maxBytes: 1000 });
        orphans.push(key);
      };
      const completed: string[] = [];

      for (const s of steps) {
        switch (s.kind) {
          case 'put': {
            const bytes = randomBytes(s.size);
            await files.upload(zone, { path: `p${s.path}.bin`, isDirectory: false }, body(bytes));
            expected.set(`p${s.path}.bin`, sha256(bytes));
            break;
          }
          case 'delete':
            if (!expected.delete(`p${s.path}.bin`)) break;
            await files.remove(zone, { path: `p${s.path}.bin`, isDirectory: false });
            break;
          case 'part': {
            let open = uploads.get(s.upload);
            if (!open) {
              open = { upload: await multipart.create(zone, `m${s.upload}.bin`, { contentType: null, metadata: null }), parts: new Map() };
              uploads.set(s.upload, open);
            }
            // Every part but the last needs 5 MiB: only the last one sent may be small.
            const bytes = s.part === 1 ? randomBytes(MIN_PART_BYTES) : randomBytes(s.size);
            await multipart.putPart(zone, open.upload, s.part, body(bytes), {});
            open.parts.set(s.part, bytes);
            break;
          }
          case 'complete': {
            const open = uploads.get(s.upload);
            if (!open?.parts.has(1)) break;
            const numbers = [...open.parts.keys()].sort((a, b) => a - b);
            if (numbers.some((n, i) => i < numbers.length - 1 && open.parts.get(n)!.length < MIN_PART_BYTES)) break;
            await multipart.complete(
              zone,
              open.upload,
              numbers.map((n) => ({ partNumber: n, etag: `"${md5(open.parts.get(n)!)}"` })),
            );
            expected.set(open.upload.key, sha256(Buffer.concat(numbers.map((n) => open.parts.get(n)!))));
            completed.push(open.upload.uploadId);
            uploads.delete(s.upload);
            break;
          }
          case 'abort': {
            const open = uploads.get(s.upload);
            if (!open) break;
            await multipart.abort(zone, open.upload);
            uploads.delete(s.upload);
            break;
          }
          case 'crash-part': {
            const open = uploads.get(s.upload);
            const id = open?.upload.uploadId ?? completed.at(-1);
            if (id !== undefined) await orphan(await crashKey(id));
            break;
          }
          case 'crash-put':
            await orphan(`${zone.zoneId}/${randomUUID()}`);
            break;
        }
      }
      // A part under every completed upload's id too, the case that once stayed forever.
      for (const id of completed) await orphan(await crashKey(id));

      allOld();
      await fileSweeper.sweepOrphans();

      const onDisk = new Set<string>();
      for await (const blob of files.blobs.list(`${zone.zoneId}/`)) onDisk.add(blob.key);
      for (const key of orphans) expect(onDisk.has(key), key).toBe(false);
      const recorded = new Set<string>();
      for (const file of await t.store.files.range(zone.zoneId, { prefix: '', limit: 1000 })) for (const blob of file.blobs) recorded.add(blob.key);
      for (const { upload } of uploads.values()) for (const part of await t.store.s3Uploads.parts(upload.uploadId, 0, 1000)) recorded.add(part.blobKey);
      expect([...onDisk].sort()).toEqual([...recorded].sort());
      for (const [path, hash] of expected) {
        const file = await files.find(zone, path);
        expect(file, path).toBeDefined();
        expect(sha256(await files.readBytes(file!)), path).toBe(hash);
      }
      // The uploads left open still have their parts: the first of each reads back.
      for (const { upload, parts } of uploads.values()) {
        const stored = await t.store.s3Uploads.parts(upload.uploadId, 0, 1000);
        for (const part of stored) {
          const bytes = Buffer.concat(await Readable.from(await files.blobs.read(part.blobKey)).toArray());
          expect(md5(bytes)).toBe(md5(parts.get(part.partNumber)!));
        }
      }
    }),
    { numRuns: 15 },
  );
}, 120_000);
