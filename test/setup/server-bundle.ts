/**
 * Global setup of both projects: the server and the CLI bundled from this checkout's sources
 * (scripts/bundle.mjs, as `npm run build` makes dist/bundle/) into .tmp/test-bundle/, once per run
 * and again before each rerun in watch mode. The tests' server and CLI processes run these
 * (test/helpers/server-process.ts, cli.ts): what `npm start` and `npx edgeplane` run. A start from
 * the sources through tsx compiled ~700 modules in every process: 3.5 s of CPU a start on the CI
 * machine, against 0.45 s for the bundle; the build costs about 1 s.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { PACKAGE_ROOT, TEST_BUNDLE_DIR } from '../helpers/server-process.js';

const run = promisify(execFile);
const bundle = () => run(process.execPath, ['scripts/bundle.mjs', TEST_BUNDLE_DIR], { cwd: PACKAGE_ROOT });

/** Both projects' setups run in one process, one after the other: the first builds, the second finds it built. */
const key = Symbol.for('edgeplane.test-bundle');
const shared = globalThis as { [key]?: { build: Promise<unknown> } };

export default async function setup(project: TestProject) {
  if (!shared[key]) {
    const state = { build: bundle() };
    shared[key] = state;
    project.onTestsRerun(async () => {
      state.build = bundle();
      await state.build;
    });
  }
  await shared[key].build;
  return () => {
    delete shared[key];
  };
}
