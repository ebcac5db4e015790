import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../src/files/local-disk.js';
import { BlobTooLargeError } from '../../src/files/types.js';
import { blobStoreContract, collect } from './blob-store-contract.js';
import { byteDifference, generatedBytes, readAll } from './generated-bytes.js';

const LIMIT = 1024 * 1024 * 1024;

/** The store's directory sits alone inside `parent`, so anything written beside it shows. */
let parent: string;
let root: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'edgeplane-local-blobs-'));
  root = join(parent, 'files');
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe('local disk: the BlobStore contract', () => {
  blobStoreContract(async () => new LocalDiskBlobStore(root));

  it('wrote nothing outside its directory', async () => {
    expect(await readdir(parent)).toEqual(['files']);
    expect(await readdir(root)).toEqual(['blobs']);
  });
});

describe('local disk: layout and file system behaviour', () => {
  let store: LocalDiskBlobStore;
  beforeAll(() => {
    store = new LocalDiskBlobStore(join(parent, 'own'));
  });
  const fanOut = (name: string) => `@${createHash('sha256').update(name).digest('hex').slice(0, 2)}`;

  it('keeps a blob at blobs/<directories>/@<first two hex digits of the SHA-256 of its name>/<name>', async () => {
    const name = '0b7f6c52-1f84-4c43-a6c5-7ad4a1a1c1e0';
    await store.write(`zone7/${name}`, Readable.from([Buffer.from('bytes')]), { maxBytes: LIMIT });
    const path = join(store.directory, 'blobs', 'zone7', fanOut(name), name);
    expect((await stat(path)).size).toBe(5);
  });

  it('keeps reading a blob deleted after the read began', async () => {
    const bytes = await generatedBytes(4 * 1024 * 1024, 'unlink');
    await store.write('zone7/unlinked', Readable.from([bytes]), { maxBytes: LIMIT });
    const reader = await store.read('zone7/unlinked');
    await store.delete('zone7/unlinked');
    await expect(store.read('zone7/unlinked')).rejects.toThrow('no blob');
    expect(byteDifference(await readAll(reader), bytes)).toBe('equal');
  });

  it('keeps reading a blob deleted halfway through the read', async () => {
    const bytes = await generatedBytes(4 * 1024 * 1024, 'halfway');
    await store.write('zone7/halfway', Readable.from([bytes]), { maxBytes: LIMIT });
    const reader = await store.read('zone7/halfway');
    const chunks: Buffer[] = [];
    for await (const chunk of reader) {
      if (chunks.length === 1) await store.delete('zone7/halfway');
      chunks.push(chunk as Buffer);
    }
    expect(chunks.length).toBeGreaterThan(2);
    expect(byteDifference(Buffer.concat(chunks), bytes)).toBe('equal');
  });

  it('removes the folders a delete leaves empty, up to blobs/', async () => {
    await store.write('gone-zone/only', Readable.from([Buffer.from('x')]), { maxBytes: LIMIT });
    await store.delete('gone-zone/only');
    expect(await readdir(join(store.directory, 'blobs'))).not.toContain('gone-zone');
    await store.write('gone-zone/again', Readable.from([Buffer.from('y')]), { maxBytes: LIMIT });
    expect((await readAll(await store.read('gone-zone/again'))).toString()).toBe('y');
  });

  it('lands every write while deletes empty and remove the same folders', async () => {
    // Names in one fan-out folder, so each delete empties the folder the next write goes to.
    const names = Array.from({ length: 40_000 }, (_, n) => `blob-${n}`).filter((name) => fanOut(name) === fanOut('blob-0'));
    expect(names.length).toBeGreaterThan(100);
    let previous: string | undefined;
    for (const name of names.slice(0, 100)) {
      const key = `racing-zone/${name}`;
      await Promise.all([store.write(key, Readable.from([Buffer.from(key)]), { maxBytes: LIMIT }), previous && store.delete(previous)]);
      expect((await readAll(await store.read(key))).toString()).toBe(key);
      previous = key;
    }
  });

  it('lists only what its layout could have written', async () => {
    const blobs = join(store.directory, 'blobs');
    await store.write('stray/real', Readable.from([Buffer.from('x')]), { maxBytes: LIMIT });
    await writeFile(join(blobs, 'stray', 'beside-the-fan-out'), 'x');
    await mkdir(join(blobs, 'stray', '@00'), { recursive: true });
    await writeFile(join(blobs, 'stray', '@00', fanOut('misplaced') === '@00' ? 'misplaced-2' : 'misplaced'), 'x');
    await mkdir(join(blobs, 'stray', 'not a key', fanOut('x')), { recursive: true });
    await writeFile(join(blobs, 'stray', 'not a key', fanOut('x'), 'x'), 'x');
    expect((await collect(store.list('stray/'))).map((blob) => blob.key)).toEqual(['stray/real']);
  });

  it('removes the file of a failed write', async () => {
    const body = new PassThrough();
    body.write(await generatedBytes(3000, 'failing'));
    const writing = store.write('failing-zone/failing', body, { maxBytes: 2000 });
    await expect(writing).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await collect(store.list('failing-zone/'))).toEqual([]);
  });

  it('writes a blob again although deletes removed the folders it knew', async () => {
    for (let round = 0; round < 50; round++) {
      await store.write(`zone8/b${round}`, Readable.from([Buffer.from(String(round))]), { maxBytes: 100 });
      // The last blob of its folder: the delete removes the folder, which the next write must make again.
      await store.delete(`zone8/b${round}`);
    }
    await store.write('zone8/last', Readable.from([Buffer.from('x')]), { maxBytes: 100 });
    expect((await collect(store.list('zone8/'))).map((b) => b.key)).toEqual(['zone8/last']);
  });

  it('lists nothing in a directory never written to', async () => {
    const fresh = new LocalDiskBlobStore(join(parent, 'fresh'));
    expect(await collect(fresh.list())).toEqual([]);
    await fresh.close();
  });
});
