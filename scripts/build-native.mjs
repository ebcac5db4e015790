/**
 * Builds the DNS plane's UDP batching addon (native/udp-batch) at `npm ci` / `npm install`, with
 * the node-gyp npm ships. Node's headers: those installed with Node where npm is configured for
 * them (Debian's `nodedir=/usr`: nothing downloaded); elsewhere node-gyp fetches them once, as for
 * any native module. Linux only. A
 * failed build does not fail the install: the plane then answers through node:dgram, and says so
 * when it starts (EDGEPLANE_DNS_UDP_BATCHING in the README).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const folder = fileURLToPath(new URL('../native/udp-batch', import.meta.url));
const warn = (why) => process.stderr.write(`edgeplane: the DNS plane's UDP batching was not built (${why}); it will answer through node:dgram.\n`);

if (process.platform !== 'linux') {
  process.exit(0);
}
const gyp = process.env.npm_config_node_gyp;
if (!gyp) {
  warn('not run by npm, which tells where its node-gyp is: run `npm run install` or `npm ci`');
  process.exit(0);
}
const started = performance.now();
const build = spawnSync(process.execPath, [gyp, 'rebuild', '--directory', folder], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
if (build.status !== 0) {
  process.stderr.write(`${build.stdout}${build.stderr}`.split('\n').slice(-30).join('\n'));
  warn(build.error ? build.error.message : `node-gyp exited with ${build.status}`);
} else {
  process.stdout.write(`edgeplane: built the DNS plane's UDP batching in ${Math.round(performance.now() - started)} ms\n`);
}
