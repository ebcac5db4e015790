/**
 * What every BlobStore promises, run against each backend (local-disk.test.ts, s3.test.ts). Each
 * test works under keys of its own, so the store is shared and nothing is reset in between.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobStore, BlobTooLargeError, InvalidBlobKeyError, type StoredBlob } from '../../src/files/types.js';
import { byteDifference, digestOf, digestOfBytes, generatedBytes, generatedStream, readAll } from './generated-bytes.js';

const MiB = 1024 * 1024;
const LIMIT = 1024 * MiB;

export async function collect(blobs: AsyncIterable<StoredBlob>): Promise<StoredBlob[]> {
  const all: StoredBlob[] = [];
  for await (const blob of blobs) all.push(blob);
  return all;
}

async function keysIn(store: BlobStore, prefix: string): Promise<string[]> {
  return (await collect(store.list(prefix))).map((blob) => blob.key).sort();
}

/** Sends `bytes`, then neither ends nor errors: a client that stalled. */
function stallingBody(bytes: Buffer): PassThrough {
  const body = new PassThrough();
  body.write(bytes);
  return body;
}

/** Sends `bytes`, then fails: a connection that broke. */
function failingBody(bytes: Buffer, error: Error): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) this.destroy(error);
      else this.push(bytes);
      sent = true;
    },
  });
}

const TRAVERSALS = ['../x', 'a//b', '/abs', 'a/../b', './a', 'a/.', 'a/', '', '..', 'a b', 'a\\b', 'a/@c4/b', 'zone/é', `${'x'.repeat(256)}`];

export function blobStoreContract(open: () => Promise<BlobStore>): void {
  let store: BlobStore;
  let base: string;

  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store.close();
  });
  beforeEach(() => {
    base = `t-${randomUUID()}`;
  });

  async function expectNothingUnder(key: string) {
    expect(await keysIn(store, base)).toEqual([]);
    await expect(store.read(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  }

  describe('write and read back', () => {
    it('keeps a small blob byte for byte, with its size and hashes', async () => {
      const bytes = Buffer.from('hello, edge\n');
      const written = await store.write(`${base}/small`, Readable.from([bytes]), { maxBytes: LIMIT });
      expect(written).toEqual({
        size: 12,
        sha256: 'eee6c0344ee5c6cfe45a59139b97a4daeceacb92d35d07b8a2f45967fba30ec6',
        md5: 'cfdcfbde54a508a322209e16fe70acb8',
      });
      expect(await readAll(await store.read(`${base}/small`))).toEqual(bytes);
    });

    it('reads a range at once with readBytes, and refuses a missing blob', async () => {
      const bytes = Buffer.from('0123456789abcdef');
      await store.write(`${base}/bytes`, Readable.from([bytes]), { maxBytes: LIMIT });
      expect((await store.readBytes(`${base}/bytes`, { start: 0, end: 15 })).toString()).toBe('0123456789abcdef');
      expect((await store.readBytes(`${base}/bytes`, { start: 3, end: 5 })).toString()).toBe('345');
      expect((await store.readBytes(`${base}/bytes`, { start: 15, end: 15 })).toString()).toBe('f');
      await expect(store.readBytes(`${base}/absent`, { start: 0, end: 1 })).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('keeps an empty blob', async () => {
      const written = await store.write(`${base}/empty`, Readable.from([]), { maxBytes: LIMIT });
      expect(written).toEqual({
        size: 0,
        sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        md5: 'd41d8cd98f00b204e9800998ecf8427e',
      });
      expect(await readAll(await store.read(`${base}/empty`))).toEqual(Buffer.alloc(0));
    });

    it('streams a 20 MB blob through and back unchanged', async () => {
      const size = 20_000_000;
      const expected = await digestOf(generatedStream(size, base));
      const written = await store.write(`${base}/large`, generatedStream(size, base), { maxBytes: LIMIT });
      expect(written).toEqual(expected);
      expect(await digestOf(await store.read(`${base}/large`))).toEqual(expected);
    });

    it('takes a blob of exactly maxBytes', async () => {
      const bytes = await generatedBytes(1000, base);
      expect(await store.write(`${base}/exact`, Readable.from([bytes]), { maxBytes: 1000 })).toEqual(digestOfBytes(bytes));
    });

    it('takes several writes at once', async () => {
      const blobs = await Promise.all([1, 2, 3, 4, 5].map((n) => generatedBytes(n * 100_000, `${base}${n}`)));
      await Promise.all(blobs.map((bytes, n) => store.write(`${base}/parallel-${n}`, Readable.from([bytes]), { maxBytes: LIMIT })));
      for (const [n, bytes] of blobs.entries()) expect(byteDifference(await readAll(await store.read(`${base}/parallel-${n}`)), bytes)).toBe('equal');
    });

    it('holds a key that is also the folder of others, as S3 does', async () => {
      await store.write(`${base}/a`, Readable.from([Buffer.from('outer')]), { maxBytes: LIMIT });
      await store.write(`${base}/a/b`, Readable.from([Buffer.from('inner')]), { maxBytes: LIMIT });
      expect((await readAll(await store.read(`${base}/a`))).toString()).toBe('outer');
      expect((await readAll(await store.read(`${base}/a/b`))).toString()).toBe('inner');
    });
  });

  describe('ranges', () => {
    let bytes: Buffer;
    let key: string;
    beforeAll(async () => {
      bytes = await generatedBytes(1000, 'ranges');
      key = `ranges-${randomUUID()}`;
      await store.write(key, Readable.from([bytes]), { maxBytes: LIMIT });
    });

    it.each([
      ['the first byte', 0, 0],
      ['the last byte', 999, 999],
      ['the middle', 100, 199],
      ['the whole', 0, 999],
    ])('reads %s', async (_what, start, end) => {
      expect(await readAll(await store.read(key, { start, end }))).toEqual(bytes.subarray(start, end + 1));
    });

    it('cuts a range that ends past the blob at its end', async () => {
      expect(await readAll(await store.read(key, { start: 900, end: 5000 }))).toEqual(bytes.subarray(900));
    });

    it('refuses a malformed range', async () => {
      await expect(store.read(key, { start: 5, end: 4 })).rejects.toBeInstanceOf(RangeError);
      await expect(store.read(key, { start: -1, end: 4 })).rejects.toBeInstanceOf(RangeError);
      await expect(store.read(key, { start: 0.5, end: 4 })).rejects.toBeInstanceOf(RangeError);
    });
  });

  describe('failed writes leave nothing', () => {
    it('refuses more than maxBytes with BlobTooLargeError', async () => {
      const body = Readable.from([await generatedBytes(1001, base)]);
      await expect(store.write(`${base}/big`, body, { maxBytes: 1000 })).rejects.toEqual(new BlobTooLargeError(1000));
      await expectNothingUnder(`${base}/big`);
    });

    it('fails as soon as maxBytes is exceeded, without waiting for the end, and leaves the body open', async () => {
      const body = stallingBody(await generatedBytes(6 * MiB + 1, base));
      await expect(store.write(`${base}/big`, body, { maxBytes: 6 * MiB })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(body.destroyed).toBe(false);
      expect(body.readableFlowing).toBe(false);
      await expectNothingUnder(`${base}/big`);
    });

    it('fails with the reason when the signal aborts mid-way', async () => {
      const controller = new AbortController();
      const body = stallingBody(await generatedBytes(100_000, base));
      body.once('data', () => setTimeout(() => controller.abort(new Error('client went away')), 50));
      await expect(store.write(`${base}/aborted`, body, { maxBytes: LIMIT, signal: controller.signal })).rejects.toThrow('client went away');
      await expectNothingUnder(`${base}/aborted`);
    });

    it('fails when the signal aborts after several parts have gone out', async () => {
      const controller = new AbortController();
      const body = stallingBody(await generatedBytes(12 * MiB, base));
      setTimeout(() => controller.abort(new Error('client went away')), 500);
      await expect(store.write(`${base}/aborted`, body, { maxBytes: LIMIT, signal: controller.signal })).rejects.toThrow('client went away');
      await expectNothingUnder(`${base}/aborted`);
    });

    it('fails at once when the signal has already aborted', async () => {
      const controller = new AbortController();
      controller.abort(new Error('too late'));
      const body = Readable.from([Buffer.from('x')]);
      await expect(store.write(`${base}/aborted`, body, { maxBytes: LIMIT, signal: controller.signal })).rejects.toThrow('too late');
      await expectNothingUnder(`${base}/aborted`);
    });

    it("fails with the body's error when the body breaks mid-way", async () => {
      const body = failingBody(await generatedBytes(100_000, base), new Error('connection reset'));
      await expect(store.write(`${base}/broken`, body, { maxBytes: LIMIT })).rejects.toThrow('connection reset');
      await expectNothingUnder(`${base}/broken`);
    });

    it('fails when the body closes before its end', async () => {
      const body = stallingBody(Buffer.from('partial'));
      setTimeout(() => body.destroy(), 50);
      await expect(store.write(`${base}/cut`, body, { maxBytes: LIMIT })).rejects.toThrow('Premature close');
      await expectNothingUnder(`${base}/cut`);
    });
  });

  describe('read, delete, list', () => {
    it('answers BlobNotFoundError for a missing key', async () => {
      const error = await store.read(`${base}/missing`).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BlobNotFoundError);
      expect((error as BlobNotFoundError).key).toBe(`${base}/missing`);
      await expect(store.read(`${base}/missing`, { start: 0, end: 0 })).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('deletes, and deleting again or deleting what never was is fine', async () => {
      await store.write(`${base}/gone`, Readable.from([Buffer.from('x')]), { maxBytes: LIMIT });
      await store.delete(`${base}/gone`);
      await expect(store.read(`${base}/gone`)).rejects.toBeInstanceOf(BlobNotFoundError);
      await store.delete(`${base}/gone`);
      await store.delete(`${base}/never/was`);
      expect(await keysIn(store, base)).toEqual([]);
    });

    it('lists the blobs under a prefix, with when they were written', async () => {
      const before = Date.now();
      const keys = ['a', 'a/b/1', 'a/b/2', 'a/c/3', 'ab/4', 'b'].map((key) => `${base}/${key}`);
      for (const key of keys) await store.write(key, Readable.from([Buffer.from(key)]), { maxBytes: LIMIT });
      const after = Date.now();

      const listed = await collect(store.list(`${base}/`));
      expect(listed.map((blob) => blob.key).sort()).toEqual(keys);
      for (const { modified } of listed) {
        // Some stores keep whole seconds.
        expect(modified.getTime()).toBeGreaterThanOrEqual(before - 2000);
        expect(modified.getTime()).toBeLessThanOrEqual(after + 2000);
      }
      expect(await keysIn(store, base)).toEqual(keys);
      expect(await keysIn(store, `${base}/a`)).toEqual(keys.slice(0, 5));
      expect(await keysIn(store, `${base}/a/`)).toEqual(keys.slice(1, 4));
      expect(await keysIn(store, `${base}/a/b`)).toEqual(keys.slice(1, 3));
      expect(await keysIn(store, `${base}/a/b/1`)).toEqual([keys[1]]);
      expect(await keysIn(store, `${base}/z`)).toEqual([]);
      const everything = await keysIn(store, '');
      expect(everything).toEqual(expect.arrayContaining(keys));
    });
  });

  describe('keys', () => {
    it.each(TRAVERSALS)('refuses the key %j everywhere, before touching the body', async (key) => {
      const body = Readable.from([Buffer.from('x')]);
      await expect(store.write(key, body, { maxBytes: LIMIT })).rejects.toBeInstanceOf(InvalidBlobKeyError);
      expect(body.readableFlowing).toBe(null);
      await expect(store.read(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    });

    it.each(['../', 'a//', '/abs', 'a/../', 'a b', '../etc/'])('refuses the list prefix %j', async (prefix) => {
      await expect(collect(store.list(prefix))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    });
  });
}
