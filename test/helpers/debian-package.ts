/**
 * Tools some tests drive (a DNSSEC validator, a DNS load generator) come from Debian packages a
 * fresh machine lacks. A test asks for the command it needs; the package is installed once, the
 * first time, as root or through passwordless sudo, so `npm test` needs no manual step. Concurrent
 * test files asking for packages take turns on apt's lock rather than failing on it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const installing = new Map<string, Promise<void>>();

async function onPath(command: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v "$1"`, 'sh', command]);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `command` is on the PATH, installing `pkg` with apt-get when it is not. */
export function ensureDebianPackage(command: string, pkg: string): Promise<void> {
  let pending = installing.get(pkg);
  if (!pending) {
    pending = install(command, pkg);
    installing.set(pkg, pending);
    pending.catch(() => installing.delete(pkg));
  }
  return pending;
}

async function install(command: string, pkg: string): Promise<void> {
  if (await onPath(command)) return;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // apt-get waits for the lock instead of failing when another file's install holds it.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
  const apt = async (...args: string[]) => {
    const [program, ...rest] = [...sudo, 'apt-get', ...lockWait, ...args];
    await run(program!, rest, { env, maxBuffer: 64 * 1024 * 1024 });
  };
  try {
    await apt('install', '-y', '--no-install-recommends', pkg).catch(async () => {
      // The package lists may be missing or stale on a fresh machine.
      await apt('update');
      await apt('install', '-y', '--no-install-recommends', pkg);
    });
  } catch (cause) {
    throw new Error(`This test needs \`${command}\`; installing the Debian package ${pkg} failed. Run as root: apt-get install -y ${pkg}`, { cause });
  }
  if (!(await onPath(command))) throw new Error(`apt-get installed ${pkg}, but \`${command}\` is still not on the PATH.`);
}
