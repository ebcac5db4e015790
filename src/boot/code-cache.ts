/**
 * Loads the server bundle (one CommonJS file) with V8's code cache kept on disk, on every Node
 * version: a restart then deserializes the functions start-up compiled instead of parsing 2.8 MB of
 * JavaScript and compiling them again (about −100 ms on Node 20, which has no compile cache of its
 * own; Node 22's does not cover what is compiled through `vm`).
 *
 * V8 checks only a cache's length, version and flags against the source, so the file is named by
 * the bundle's digest (computed at build time): a different bundle never reads another's cache.
 * It is named by the bundle's path too: a cache keeps the file name it was made with, and code
 * loaded from it reports that name in its stack frames (pino finds the pretty printer through
 * them; another checkout's path there made it fail, found by CI).
 * V8 does not check the cache's content either, and a damaged one aborts the process (checked:
 * "Fatal error ... Check failed" in its deserializer): each file starts with the CRC-32 of what
 * follows, and one that does not match is not handed to V8 (under a millisecond). A code
 * cache is code: it is read only from a folder that this user owns and no one else can write to,
 * and written there atomically (a temporary file renamed), so that instances starting together
 * never read half of one.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';

export interface CodeCacheOptions {
  /** Where cache files go: `NODE_COMPILE_CACHE` (Node's own variable) or a folder under the system's temporary one. */
  dir: string | null;
  /** The bundle's SHA-256, hex, as the build wrote it. */
  digest: string;
}

export interface LoadedBundle<Exports> {
  exports: Exports;
  /** The cache was `used`, or why not: `missing`, `rejected` (damaged, or refused by V8), `off`. */
  cache: 'used' | 'missing' | 'rejected' | 'off';
  /** Writes the cache when it was missing or rejected: call it once start-up has run, so the functions it compiled are in it. */
  save(): void;
}

/** The cache folder the environment asks for, or null when caching is turned off (`NODE_DISABLE_COMPILE_CACHE=1`). */
export function cacheDirFromEnv(env: NodeJS.ProcessEnv): string | null {
  if (env['NODE_DISABLE_COMPILE_CACHE'] === '1') return null;
  // Source maps are applied by Node's own loaders, not to code compiled here: with them on, the bundle is required as usual.
  if (process.sourceMapsEnabled) return null;
  // One folder per user: another user's folder is refused (see ownPrivateDir), which would leave this one without a cache.
  return env['NODE_COMPILE_CACHE'] || join(tmpdir(), `edgeplane-compile-cache-${process.getuid?.() ?? 'user'}`);
}

export function loadBundle<Exports>(file: string, options: CodeCacheOptions): LoadedBundle<Exports> {
  const dir = options.dir !== null && ownPrivateDir(options.dir) ? options.dir : null;
  if (dir === null) return { exports: createRequire(file)(file) as Exports, cache: 'off', save() {} };

  const key = cacheKey(file);
  const cacheFile = join(dir, `edgeplane-${options.digest.slice(0, 32)}-${key}.bin`);
  const stored = readIfPresent(cacheFile);
  const cachedData = stored && intact(stored) ? stored.subarray(CRC_BYTES) : undefined;
  const source = readFileSync(file, 'utf8');
  const script = new Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cache = stored === undefined ? 'missing' : cachedData === undefined || script.cachedDataRejected ? 'rejected' : 'used';

  // What Node's CommonJS loader would hand the file: its own module, require, __filename and __dirname.
  const mod = new Module(file);
  mod.filename = file;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;

  return {
    exports: mod.exports as Exports,
    cache,
    save() {
      if (cache === 'used') return;
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        const data = script.createCachedData();
        const crc = Buffer.alloc(CRC_BYTES);
        crc.writeUInt32BE(crc32(data));
        writeFileSync(temporary, Buffer.concat([crc, data]), { mode: 0o600 });
        renameSync(temporary, cacheFile);
        // Earlier builds at this same path will not be loaded again: one cache per installation, not one per build.
        for (const name of readdirSync(dir)) {
          if (name.endsWith(`-${key}.bin`) && name.startsWith('edgeplane-') && join(dir, name) !== cacheFile) rmSync(join(dir, name), { force: true });
        }
      } catch {
        // A cache that cannot be written (read-only or full disk) only costs the next start-up its speed.
        rmSync(temporary, { force: true });
      }
    },
  };
}

const CRC_BYTES = 4;

function intact(stored: Buffer): boolean {
  return stored.length > CRC_BYTES && stored.readUInt32BE(0) === crc32(stored.subarray(CRC_BYTES));
}

/** Node's version and V8's flags decide whether a cache fits, and the cache keeps the file's path: they name it too. */
function cacheKey(file: string): string {
  return createHash('sha256')
    .update(`${process.version}\0${process.arch}\0${process.execArgv.join(' ')}\0${file}`)
    .digest('hex')
    .slice(0, 12);
}

/** True when `dir` is (or now is) a folder of this user's that no one else may write to. */
function ownPrivateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    const uid = process.getuid?.();
    return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
