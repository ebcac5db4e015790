/** Runs the `edgeplane` command line (src/cli.ts, bundled at the start of the run) as a separate process. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PACKAGE_ROOT as root, TEST_BUNDLE_DIR } from './server-process.js';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [`${TEST_BUNDLE_DIR}/cli.js`, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
