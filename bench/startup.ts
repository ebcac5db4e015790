/**
 * Start-up to ready: how long `node dist/bundle/server.js` (what `npm start` runs, npm's own
 * start-up aside) takes from spawn to its first answered request, on a store that already exists,
 * with every plane on. Next to it, in the same run and interleaved with it, the process floor: a
 * bare node:http server started with `node -e`, timed the same way, and `node -e` doing nothing.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Target } from './report.js';
import { Client, createDnsZones, createPullZones } from './seed.js';
import { cpuSeconds } from './proc.js';
import { startChild, startEdgeplane } from './server.js';

export interface StartupTimes {
  /** Spawn to the last `listening on` line (every plane listens), per run, in ms. */
  listeningMs: number[];
  /** Spawn to the end of the first answer of `GET /_edgeplane/health`, per run, in ms. */
  answeredMs: number[];
  /**
   * CPU (user + system) the process had used by then, in ms: it leaves out the waits for a core,
   * so it says more than the wall time on a loaded machine.
   */
  cpuMs: number[];
}

export interface StartupReport {
  runs: number;
  edgeplane: StartupTimes;
  /**
   * The same start without the code cache (`NODE_DISABLE_COMPILE_CACHE=1`): what the first start
   * of a new build, or of a new Node version, takes.
   */
  withoutCodeCache: StartupTimes;
  /** `node -e` serving one request with node:http: the least any server process can take. */
  bareHttp: StartupTimes;
  /** `node -e 0`: spawn to exit. */
  nodeNothingMs: number[];
  /** The planes that were listening (from the server's lines). */
  planes: string[];
  loadAverage: { before: number; after: number };
}

export interface StartupOptions {
  workDir: string;
  runs: number;
  /** Written into each timed server's CPU profile directory, when profiling. */
  cpuProfDir?: string | undefined;
  log: (message: string) => void;
}

const BARE_HTTP = `const s=require('node:http').createServer((q,r)=>r.end('{"status":"ok"}'));s.listen(0,'127.0.0.1',()=>process.stdout.write('floor: listening on http://127.0.0.1:'+s.address().port+'\\n'));process.once('SIGTERM',()=>process.exit(0));`;

export async function measureStartup(options: StartupOptions): Promise<StartupReport> {
  const { workDir, runs, log } = options;
  const dbFile = join(workDir, 'startup.db');
  const bootstrapKey = `startup-${Date.now().toString(36)}-bench-key`;
  // The store exists before the timed runs: created, migrated and given some zones by a first server,
  // which also leaves the bundle's code cache, as any earlier start of the same build would.
  log('start-up: creating the store with a first server');
  const first = await startEdgeplane({ dbFile, bootstrapKey });
  const planes = Object.keys(first.planes);
  try {
    const client = new Client(first.url, bootstrapKey);
    await createPullZones(client, 'startup', 50);
    await createDnsZones(client, 'startup', 20);
  } finally {
    await first.stop();
  }

  const report: StartupReport = {
    runs,
    edgeplane: { listeningMs: [], answeredMs: [], cpuMs: [] },
    withoutCodeCache: { listeningMs: [], answeredMs: [], cpuMs: [] },
    bareHttp: { listeningMs: [], answeredMs: [], cpuMs: [] },
    nodeNothingMs: [],
    planes,
    loadAverage: { before: loadavg()[0] ?? 0, after: 0 },
  };
  log(`start-up: ${runs} runs of the server (planes: ${planes.join(', ')}), each beside the bare floor`);
  for (let i = 0; i < runs; i++) {
    // Interleaved, so a burst of load on the shared machine hits both sides alike.
    report.nodeNothingMs.push(await nodeNothing());
    await timeOne(report.bareHttp, async () => startChild('floor', ['-e', BARE_HTTP], /floor: listening on (http:\/\/127\.0\.0\.1:\d+)/, process.env));
    await timeOne(report.edgeplane, () => startEdgeplane({ dbFile, bootstrapKey, cpuProfDir: options.cpuProfDir }));
    await timeOne(report.withoutCodeCache, () => startEdgeplane({ dbFile, bootstrapKey, environment: { NODE_DISABLE_COMPILE_CACHE: '1' } }));
  }
  report.loadAverage.after = loadavg()[0] ?? 0;
  return report;
}

async function timeOne(into: StartupTimes, start: () => Promise<{ url: string; pid: number; stop(): Promise<void> }>): Promise<void> {
  const started = performance.now();
  const child = await start();
  const listening = performance.now();
  try {
    const status = await firstAnswer(`${child.url}/_edgeplane/health`);
    const answered = performance.now();
    const cpu = cpuSeconds(child.pid);
    if (status !== 200) throw new Error(`start-up: GET /_edgeplane/health answered ${status}`);
    into.listeningMs.push(listening - started);
    into.answeredMs.push(answered - started);
    if (cpu !== null) into.cpuMs.push(cpu * 1000);
  } finally {
    await child.stop();
  }
}

/** One request on a new connection, as a load balancer's first probe would make it. */
function firstAnswer(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error(`${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

function nodeNothing(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - started));
  });
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const max = (values: number[]) => (values.length === 0 ? 0 : Math.max(...values));

/** The printed rows: label, median and max of each series, and the median's ratio to the floor. */
export function startupRows(r: StartupReport): string[][] {
  const floor = median(r.bareHttp.answeredMs);
  const row = (label: string, values: number[]) => [
    label,
    String(values.length),
    ms(median(values)),
    ms(max(values)),
    `${(median(values) / floor).toFixed(2)}x`,
  ];
  return [
    row('edgeplane: spawn to first answer (all planes)', r.edgeplane.answeredMs),
    row('edgeplane: spawn to "listening on" line', r.edgeplane.listeningMs),
    row('edgeplane without its code cache: spawn to first answer', r.withoutCodeCache.answeredMs),
    row('floor: node -e bare node:http, spawn to first answer', r.bareHttp.answeredMs),
    [...row('edgeplane: CPU used by then', r.edgeplane.cpuMs).slice(0, 4), `${(median(r.edgeplane.cpuMs) / median(r.bareHttp.cpuMs)).toFixed(2)}x`],
    [...row('floor: CPU used by then', r.bareHttp.cpuMs).slice(0, 4), '1.00x'],
    row('floor: node -e 0, spawn to exit', r.nodeNothingMs),
  ];
}
export const STARTUP_HEAD = ['start-up', 'runs', 'median ms', 'max ms', 'x floor'];

const ms = (n: number) => n.toFixed(0);

/** The targets of issue 18 this workload measures. */
export function startupTargets(r: StartupReport): Target[] {
  const answered = median(r.edgeplane.answeredMs);
  const floor = median(r.bareHttp.answeredMs);
  return [
    {
      target: 'start-up to first answer <= 0.2 s (median, all planes, existing store)',
      measured: `${ms(answered)} ms (floor ${ms(floor)} ms: ${(answered / floor).toFixed(1)}x)`,
      met: answered <= 200,
    },
  ];
}

export function renderStartup(r: StartupReport): string {
  return [
    `Start-up: spawn of node dist/bundle/server.js on an existing store to its first answer, planes ${r.planes.join(', ')} (${r.runs} runs, interleaved with the floor; load ${r.loadAverage.before.toFixed(1)} -> ${r.loadAverage.after.toFixed(1)})`,
    table(STARTUP_HEAD, startupRows(r)),
    ...startupTargets(r).map((t) => `Target: ${t.target}: ${t.measured}, met: ${t.met ? 'yes' : 'NO'}`),
  ].join('\n');
}

/** A Markdown table, text left and numbers right (as report.ts prints its own). */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}
