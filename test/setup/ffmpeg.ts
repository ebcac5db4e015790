/**
 * Debian's ffmpeg for the test of the system-ffmpeg path (test/media/system-ffmpeg.test.ts). A fresh
 * Debian machine lacks it, and installing it as test/setup/chromium.ts installs Chromium took 68 s
 * here (`apt-get update` and 79 packages, ~55 MB, without the recommended extras): too long for
 * every run. So the test installs it only when asked (`EDGEPLANE_TEST_INSTALL_FFMPEG=1`); otherwise
 * it is skipped with that reason, which the reporter shows. Asynchronous, so that the test worker
 * keeps answering its runner meanwhile.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const SYSTEM_FFMPEG = '/usr/bin/ffmpeg';
export const SYSTEM_FFPROBE = '/usr/bin/ffprobe';
export const INSTALL_VARIABLE = 'EDGEPLANE_TEST_INSTALL_FFMPEG';

export type SystemFfmpeg = { ready: true; installSeconds: number | null } | { ready: false; reason: string };

function run(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}

export async function ensureSystemFfmpeg(): Promise<SystemFfmpeg> {
  if (existsSync(SYSTEM_FFMPEG) && existsSync(SYSTEM_FFPROBE)) return { ready: true, installSeconds: null };
  if (process.env[INSTALL_VARIABLE] !== '1') {
    return {
      ready: false,
      reason: `Debian's ffmpeg is not installed (apt-get install ffmpeg, ~70 s here; ${INSTALL_VARIABLE}=1 lets this test install it)`,
    };
  }
  if (!existsSync('/usr/bin/apt-get')) return { ready: false, reason: `no ${SYSTEM_FFMPEG}, and no apt-get to install it (not a Debian machine)` };
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  // Another apt-get (a Chromium install of a parallel run) may hold the lock for a while: wait for it.
  const apt = `${sudo}apt-get -o DPkg::Lock::Timeout=120`;
  const started = performance.now();
  try {
    await run(`${apt} update && ${apt} install -y --no-install-recommends ffmpeg`);
  } catch (cause) {
    throw new Error(`Installing Debian's ffmpeg failed. Run as root: apt-get install -y ffmpeg`, { cause });
  }
  if (!existsSync(SYSTEM_FFMPEG)) throw new Error(`apt-get installed ffmpeg, but ${SYSTEM_FFMPEG} is still missing.`);
  return { ready: true, installSeconds: Math.round((performance.now() - started) / 100) / 10 };
}
