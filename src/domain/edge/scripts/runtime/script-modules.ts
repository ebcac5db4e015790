/**
 * Where a script process's modules and Deno's cache live. Deno's cache (DENO_DIR: the V8 code
 * cache of the runner and the SDK, TypeScript emitted as JavaScript, its analysis caches) is
 * kept across processes and across restarts of edgeplane: a process started with it warm serves
 * in about half the time of one whose cache is empty (BENCHMARKS.md, edge scripts' cold start).
 * The scripts' processes cannot read or write it (no permission of theirs names it): only Deno
 * itself does. A release's modules are written once under a name made from their content, so a
 * process started again (a restart, another instance on the machine) finds their code cached,
 * and the cache grows with the code published, not with the processes started. A release's
 * folder is touched each time a process starts from it; folders no process started from for
 * UNUSED_DAYS are removed with Deno's emitted code of them (pruneScriptModules, once per start of
 * the scripts' runtime), so code deleted or replaced long ago does not pile up.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../../../package-root.js';
import { sdkImportMap, withLocalSdk } from './sdk-compatibility.js';

/** The default cache: the user's own (`~/.cache/edgeplane/deno`), never a shared folder others could write code into. */
export function defaultScriptCacheDir(): string {
  return join(homedir(), '.cache', 'edgeplane', 'deno');
}

/** A release's modules on disk (the entry module deno runs, the import map resolving the SDK) and Deno's cache. */
export interface ScriptModules {
  main: string;
  importMap: string;
  denoDir: string;
}

/** Writes the script's modules (once per content) under `cacheDir`/modules, and says where they are. */
export async function writeScriptModules(cacheDir: string, code: string): Promise<ScriptModules> {
  const runner = pathToFileURL(join(packageRoot(), 'assets', 'edge-scripts', 'runner.js')).href;
  const files = {
    'script.ts': withLocalSdk(code),
    'import-map.json': JSON.stringify(sdkImportMap()),
    'main.js': `import { start } from ${JSON.stringify(runner)};\nimport * as script from './script.ts';\nstart(script);\n`,
  };
  const hash = createHash('sha256');
  for (const [name, text] of Object.entries(files)) hash.update(`${name}\u0000${text}\u0000`);
  const dir = join(cacheDir, 'modules', hash.digest('hex').slice(0, 32));
  const found = { main: join(dir, 'main.js'), importMap: join(dir, 'import-map.json'), denoDir: cacheDir };
  if (await exists(found.main)) {
    // Used again: the prune measures disuse from here.
    const now = new Date();
    await utimes(dir, now, now).catch(() => undefined);
    return found;
  }
  // Written beside, then renamed into place: a process never reads a folder half written.
  const staging = `${dir}.${randomBytes(6).toString('hex')}.tmp`;
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(staging, name), text);
    await rename(staging, dir);
  } catch (error) {
    // Another process put the same content in place first.
    if (!(await exists(found.main))) throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return found;
}

/** A release's modules no process started from for this long are removed. */
export const UNUSED_DAYS = 30;

/**
 * Removes the modules folders under `cacheDir` unused for UNUSED_DAYS (and staging folders a
 * crash left), with what Deno emitted for them under `gen/`; returns how many went.
 */
export async function pruneScriptModules(cacheDir: string, now = Date.now()): Promise<number> {
  const root = join(cacheDir, 'modules');
  const before = now - UNUSED_DAYS * 86_400_000;
  let removed = 0;
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const dir = join(root, name);
    const seen = await stat(dir).catch(() => undefined);
    if (seen === undefined || seen.mtimeMs >= before) continue;
    await rm(dir, { recursive: true, force: true });
    // Deno keeps what it emitted for a local module under gen/file/<the module's absolute path>.
    await rm(join(cacheDir, 'gen', 'file', dir), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
