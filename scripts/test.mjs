/**
 * `npm test`: the type check and the linter beside the test suite rather than before it. Together
 * they are about 40 s of one core, most of it while the suite is still starting (its set-up builds
 * the server bundle and starts PostgreSQL); run first, they added those 40 s to every run. Their
 * output is printed after the suite's, and any of the three failing fails the command. Arguments
 * are the suite's (`npm test -- test/http`).
 */
import { spawn } from 'node:child_process';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

/** Runs a command; `quiet`: its output is kept and returned instead of shown as it comes. */
function run(command, args, quiet) {
  return new Promise((resolve) => {
    const child = spawn(bin(command), args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name: command, code: 1, output: String(error) }));
    child.on('close', (code, signal) => resolve({ name: command, code: code ?? (signal ? 1 : 0), output }));
  });
}

const checks = Promise.all([
  run('tsc', ['-p', 'tsconfig.json', '--noEmit'], true),
  // The web console is checked against the browser's types, not Node's (src/console/tsconfig.json).
  run('tsc', ['-p', 'src/console/tsconfig.json', '--noEmit'], true),
  run('biome', ['check', '.'], true),
]);
const suite = await run('vitest', ['run', ...process.argv.slice(2)], false);
let failed = suite.code !== 0;
for (const check of await checks) {
  const verdict = check.code === 0 ? 'passed' : 'FAILED';
  process.stdout.write(`\n${check.name}: ${verdict}\n${check.code === 0 ? '' : check.output}`);
  if (check.code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
