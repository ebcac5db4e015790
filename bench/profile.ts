/**
 * `npx tsx bench/profile.ts <file.cpuprofile> [top]`: where a V8 CPU profile (node --cpu-prof,
 * or `npm run bench -- --cpu-prof <dir>`) spent its time, as self time per function and per
 * package, so hot spots are found without a browser.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time in microseconds per node id: each sample is charged the time until the next one. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i + 1] ?? 0;
    const id = profile.samples[i]!;
    times.set(id, (times.get(id) ?? 0) + delta);
  }
  return times;
}

/** `node_modules/<pkg>`, `node:<module>`, the project's own folder, or the V8 pseudo-frame. */
function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName}`;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return 'node (core)';
  const own = /\/(src|dist\/src)\/([^/]+)/.exec(url);
  return own ? `edgeplane ${own[2]}` : url;
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(dist\/src|src)\//, '$1/');
}

function top(entries: Map<string, number>, total: number, n: number): string[] {
  return [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}

const [file, count = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const times = selfTimes(profile);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
let total = 0;
let idle = 0;
for (const node of profile.nodes) {
  const us = times.get(node.id) ?? 0;
  total += us;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') idle += us;
  const fn = `${functionName || '(anonymous)'}  ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trimEnd();
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  const pkg = packageOf(url, functionName);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
}
const busy = total - idle;
process.stdout.write(
  [
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages below are of busy time)`,
    '',
    `Top ${count} functions by self time`,
    ...top(new Map([...byFunction].filter(([name]) => !name.startsWith('(idle)'))), busy, Number(count)),
    '',
    'By package',
    ...top(new Map([...byPackage].filter(([name]) => name !== '(idle)')), busy, 15),
    '',
  ].join('\n'),
);
