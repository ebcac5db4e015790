/**
 * The code cache that loads the server bundle (src/boot/code-cache.ts): written once, then used;
 * a damaged or foreign cache is rejected by V8 and rewritten; a folder others could write to is
 * never read from; the loaded module behaves as one Node loaded itself.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cacheDirFromEnv, loadBundle } from '../../src/boot/code-cache.js';

const run = promisify(execFile);

let dir: string;
let cacheDir: string;
let bundle: string;
let counter = 0;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-code-cache-'));
  cacheDir = join(dir, 'cache');
  // A file of its own per test: Node's require cache (used with the cache off) keeps a module per path.
  bundle = join(dir, `bundle-${counter++}.cjs`);
  writeFileSync(
    bundle,
    [
      "const { basename } = require('node:path');",
      'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }',
      'exports.fib = fib;',
      'exports.whoAmI = () => ({ file: basename(__filename), sameModule: module.exports === exports, dirname: __dirname });',
      // The file a stack frame names, as pino reads it to find a transport's module.
      'exports.frameFile = () => { const p = Error.prepareStackTrace; Error.prepareStackTrace = (_, s) => s; const s = new Error().stack; Error.prepareStackTrace = p; return s[0].getFileName(); };',
    ].join('\n'),
  );
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Exports = { fib(n: number): number; whoAmI(): { file: string; sameModule: boolean; dirname: string } };
const cacheFiles = () => readdirSync(cacheDir).filter((f) => f.endsWith('.bin'));

/**
 * test/helpers/load-bundle.ts and the loader it runs, as one ES module built once for the file: a
 * process that loads it starts in a tenth of the time tsx takes to compile them in every start.
 */
let loader: string;
let loaderDir: string;
beforeAll(async () => {
  loaderDir = mkdtempSync(join(tmpdir(), 'edgeplane-code-cache-loader-'));
  loader = join(loaderDir, 'load-bundle.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../helpers/load-bundle.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: loader,
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(loaderDir, { recursive: true, force: true }));

/** One start: a process of its own, as a server start is (see test/helpers/load-bundle.ts). */
async function start(digest: string, folder: string | null = cacheDir, file = bundle): Promise<{ cache: string; fib: number }> {
  const { stdout } = await run(process.execPath, [loader, file, folder ?? '-', digest]);
  const { frameFile, ...result } = JSON.parse(stdout) as { cache: string; fib: number; frameFile: string };
  expect(frameFile).toBe(file);
  return result;
}

describe('loadBundle', () => {
  it('compiles once: the first start writes the cache (private to its user), the next one uses it', async () => {
    expect(await start('a'.repeat(64))).toEqual({ cache: 'missing', fib: 6765 });
    const [file] = cacheFiles();
    expect(file).toMatch(/^edgeplane-a{32}-[0-9a-f]{12}\.bin$/);
    expect(statSync(join(cacheDir, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const written = statSync(join(cacheDir, file!));

    expect(await start('a'.repeat(64))).toEqual({ cache: 'used', fib: 6765 });
    // Used as it was: not written again.
    expect(statSync(join(cacheDir, file!)).ino).toBe(written.ino);
  });

  it('keeps each copy of a build apart: the same bundle elsewhere starts without the cache, and its frames name its own file', async () => {
    await start('g'.repeat(64));
    // A cache keeps the file name it was made with; used from another path, its code would report
    // the first path in stack frames (start() checks every load's frames name its own file).
    const copy = join(dir, 'elsewhere', 'bundle.cjs');
    mkdirSync(dirname(copy));
    copyFileSync(bundle, copy);
    expect(await start('g'.repeat(64), cacheDir, copy)).toEqual({ cache: 'missing', fib: 6765 });
    expect(await start('g'.repeat(64), cacheDir, copy)).toEqual({ cache: 'used', fib: 6765 });
  });

  it("keeps each build's cache apart: another digest starts without one, and replaces the earlier build's at the same path", async () => {
    await start('a'.repeat(64));
    expect((await start('b'.repeat(64))).cache).toBe('missing');
    expect(cacheFiles()).toEqual([expect.stringMatching(/^edgeplane-b{32}-/)]);
    // Another installation's cache (another path) stays.
    const copy = join(dir, 'elsewhere', 'bundle.cjs');
    mkdirSync(dirname(copy));
    copyFileSync(bundle, copy);
    await start('b'.repeat(64), cacheDir, copy);
    expect(cacheFiles()).toHaveLength(2);
    expect((await start('b'.repeat(64))).cache).toBe('used');
  });

  it('rejects a damaged cache before V8 reads it (a damaged one aborts V8), still loads the bundle, and writes a good one in its place', async () => {
    await start('c'.repeat(64));
    const file = join(cacheDir, cacheFiles()[0]!);
    const bytes = readFileSync(file);
    // The tail flipped, the header kept: what V8 would deserialize and crash on.
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 64), bytes.subarray(64).map((b) => b ^ 0x5a)]));

    expect(await start('c'.repeat(64))).toEqual({ cache: 'rejected', fib: 6765 });
    expect(await start('c'.repeat(64))).toEqual({ cache: 'used', fib: 6765 });
  });

  it("rejects an intact cache that V8 refuses (another source's, or another V8's), and writes a good one", async () => {
    await start('c'.repeat(64));
    const file = join(cacheDir, cacheFiles()[0]!);
    const data = Buffer.from(readFileSync(file).subarray(4));
    // V8's own header (its version and the source's hash come first) damaged, under a matching checksum.
    data.fill(0x5a, 4, 16);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(data));
    writeFileSync(file, Buffer.concat([crc, data]));

    expect(await start('c'.repeat(64))).toEqual({ cache: 'rejected', fib: 6765 });
    expect(await start('c'.repeat(64))).toEqual({ cache: 'used', fib: 6765 });
  });

  it('never reads from a folder others may write to: the bundle is loaded without a cache', async () => {
    await start('d'.repeat(64));
    chmodSync(cacheDir, 0o777);
    expect(await start('d'.repeat(64))).toEqual({ cache: 'off', fib: 6765 });
  });

  it('loads without a cache when turned off', async () => {
    expect(await start('e'.repeat(64), null)).toEqual({ cache: 'off', fib: 6765 });
  });

  it('hands the bundle what Node would: its module, exports, require, __filename and __dirname', () => {
    const loaded = loadBundle<Exports>(bundle, { dir: cacheDir, digest: 'f'.repeat(64) });
    expect(loaded.exports.whoAmI()).toEqual({ file: bundle.split('/').pop(), sameModule: true, dirname: dir });
  });
});

describe('cacheDirFromEnv', () => {
  it("follows Node's variables: NODE_COMPILE_CACHE picks the folder, NODE_DISABLE_COMPILE_CACHE=1 turns it off", () => {
    expect(cacheDirFromEnv({ NODE_COMPILE_CACHE: '/var/cache/edgeplane' })).toBe('/var/cache/edgeplane');
    expect(cacheDirFromEnv({ NODE_COMPILE_CACHE: '/var/cache/edgeplane', NODE_DISABLE_COMPILE_CACHE: '1' })).toBeNull();
    expect(cacheDirFromEnv({})).toBe(join(tmpdir(), `edgeplane-compile-cache-${process.getuid!()}`));
  });
});
