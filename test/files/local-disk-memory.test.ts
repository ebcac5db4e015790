/**
 * The local backend streams: a blob far larger than the bound below goes in and comes out while
 * the process's resident memory stays within it. A bound on memory, not a timing assertion.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../src/files/local-disk.js';
import { digestOf, generatedStream } from './generated-bytes.js';

const MiB = 1024 * 1024;
const SIZE = 256 * MiB;
const BOUND = 64 * MiB;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'edgeplane-memory-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Runs `work` while sampling the resident set size, and returns how far its peak rose above the start. */
async function rssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - start };
  } finally {
    clearInterval(sampler);
  }
}

it('writes and reads back 256 MiB with resident memory growing by less than 64 MiB', { timeout: 180_000 }, async () => {
  const expected = await digestOf(generatedStream(SIZE, 'memory'));
  const store = new LocalDiskBlobStore(directory);

  const writing = await rssGrowth(() => store.write('zone1/large', generatedStream(SIZE, 'memory'), { maxBytes: SIZE }));
  const reading = await rssGrowth(async () => digestOf(await store.read('zone1/large')));
  console.info(`256 MiB blob: RSS grew by ${(writing.growth / MiB).toFixed(1)} MiB writing, ${(reading.growth / MiB).toFixed(1)} MiB reading`);

  expect(writing.result).toEqual(expected);
  expect(reading.result).toEqual(expected);
  expect(writing.growth).toBeLessThan(BOUND);
  expect(reading.growth).toBeLessThan(BOUND);
  await store.close();
});
