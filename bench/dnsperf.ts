/**
 * Drives one dnsperf run (Debian `dnsperf`, installed when missing) and reads its figures.
 * dnsperf prints only the average latency; with `-v` it prints every answer's own latency, which
 * are binned here (1 µs bins) for exact percentiles without keeping millions of numbers. Those
 * lines go to a file and are read after the run: read as they came, they took the bench about a
 * quarter of a core (26–27%) from the two that the server and dnsperf share, and cost the DNS
 * plane 11–17% of its queries per second and the bare node:dgram responder 15–26% (measured side
 * by side, 2026-11-27).
 */
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ensureDebianPackage } from '../test/helpers/debian-package.js';
import { cpuSeconds } from './proc.js';

export interface DnsperfOptions {
  port: number;
  queryFile: string;
  seconds: number;
  /** Queries in flight at once (closed loop: a new one leaves as an answer arrives). */
  outstanding: number;
  /** Cap on queries per second (open loop); unset: as fast as answers come. */
  maxQps?: number;
  transport?: 'udp' | 'tcp';
}

export interface DnsperfResult {
  qps: number;
  sent: number;
  completed: number;
  lost: number;
  /** Answers by response code (`NOERROR`, `NXDOMAIN`, …). */
  rcodes: Record<string, number>;
  latencyMs: { avg: number; p50: number; p99: number; max: number };
  /** dnsperf's own CPU use, 100% = one core: near 100% means the load generator set the pace. */
  clientCpuPercent: number;
}

const BINS = 1_000_000;

export async function runDnsperf(options: DnsperfOptions): Promise<DnsperfResult> {
  await ensureDebianPackage('dnsperf', 'dnsperf');
  const args = ['-s', '127.0.0.1', '-p', String(options.port), '-d', options.queryFile, '-l', String(options.seconds), '-q', String(options.outstanding), '-v'];
  if (options.maxQps !== undefined) args.push('-Q', String(options.maxQps));
  if (options.transport === 'tcp') args.push('-m', 'tcp');
  const started = process.hrtime.bigint();
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-dnsperf-'));
  const outFile = join(dir, 'out.txt');
  const out = openSync(outFile, 'w');
  const child = spawn('dnsperf', args, { stdio: ['ignore', out, 'pipe'] });
  closeSync(out);
  const bins = new Uint32Array(BINS + 1);
  let count = 0;
  let sumUs = 0;
  let maxUs = 0;
  const summary: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  // Its CPU time can only be read while it runs: sampled, the last sample kept.
  let clientCpu = 0;
  const sampler = setInterval(() => (clientCpu = cpuSeconds(child.pid!) ?? clientCpu), 250);
  let wallSeconds: number;
  try {
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`dnsperf ${args.join(' ')} exited with ${code}: ${stderr}`))));
      });
    } finally {
      clearInterval(sampler);
    }
    wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const lines = createInterface({ input: createReadStream(outFile), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (line.startsWith('> ')) {
        const us = Math.round(Number(line.slice(line.lastIndexOf(' ') + 1)) * 1e6);
        // Only answers carry a latency; anything else dnsperf says with `> ` is not one.
        if (!Number.isFinite(us)) continue;
        bins[Math.min(us, BINS)]!++;
        count++;
        sumUs += us;
        if (us > maxUs) maxUs = us;
      } else if (!line.startsWith('[Timeout]')) summary.push(line);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const text = summary.join('\n');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+([\\d.]+)`).exec(text)?.[1] ?? Number.NaN);
  const rcodes = Object.fromEntries([...(/Response codes:\s+(.*)/.exec(text)?.[1] ?? '').matchAll(/([A-Z]+) (\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
  return {
    qps: field('Queries per second'),
    sent: field('Queries sent'),
    completed: field('Queries completed'),
    lost: field('Queries lost'),
    rcodes,
    latencyMs: { avg: count === 0 ? 0 : sumUs / count / 1000, p50: percentile(bins, count, 0.5), p99: percentile(bins, count, 0.99), max: maxUs / 1000 },
    clientCpuPercent: (clientCpu / wallSeconds) * 100,
  };
}

function percentile(bins: Uint32Array, count: number, q: number): number {
  if (count === 0) return 0;
  const rank = Math.ceil(q * count);
  let seen = 0;
  for (let us = 0; us < bins.length; us++) {
    seen += bins[us]!;
    if (seen >= rank) return us / 1000;
  }
  return BINS / 1000;
}
