import { mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeEmptyDirectories } from '../../src/files/directories.js';

let top: string;
beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'edgeplane-rename-'));
});
afterAll(async () => {
  await rm(top, { recursive: true, force: true });
});

it('creates nothing by itself', async () => {
  await mkdir(join(top, 'blobs', 'zone', '@00'), { recursive: true });
  await writeFile(join(top, 'blobs', 'zone', '@00', 'new'), 'bytes');
  expect(await readFile(join(top, 'blobs', 'zone', '@00', 'new'), 'utf8')).toBe('bytes');
});

it('removes empty folders up to the top, and stops at the first that is not empty', async () => {
  await mkdir(join(top, 'blobs', 'zone', '@01'), { recursive: true });
  await removeEmptyDirectories(join(top, 'blobs', 'zone', '@01'), join(top, 'blobs'));
  expect(await readdir(join(top, 'blobs', 'zone'))).toEqual(['@00']);
  await unlink(join(top, 'blobs', 'zone', '@00', 'new'));
  await removeEmptyDirectories(join(top, 'blobs', 'zone', '@00'), join(top, 'blobs'));
  expect(await readdir(join(top, 'blobs'))).toEqual([]);
});
