/**
 * The edge workload's HTTP/2 part: cache hits of the 10 KiB object over HTTP/2 (TLS, ALPN `h2`)
 * through the edge's TLS listener, against a bare node:http2 server sending the same bytes (the
 * ceiling: one `stream.respond` and `stream.end` per request, without node:http2's compatibility
 * layer the edge's handler runs on), same run. The load is h2load's (Debian's nghttp2-client,
 * installed when missing; C, one thread, so the client takes little of a shared machine's CPU):
 * CONNECTIONS connections with STREAMS requests in flight on each, for a fixed time after a
 * warm-up, on 127.0.0.1 only.
 *
 * Run as a script, this file is the ceiling: `node --import tsx bench/edge-http2.ts`.
 */
import { execFile } from 'node:child_process';
import http2 from 'node:http2';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureDebianPackage } from '../test/helpers/debian-package.js';
import { CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../test/http/pull-zones/fixtures.js';
import { OBJECT_BYTES } from './edge-origin.js';
import { cpuSeconds } from './proc.js';
import { type Child, startChild } from './server.js';
import type { Timing } from './workloads.js';

const run = promisify(execFile);

export const CONNECTIONS = 4;
/** Requests in flight per connection (the edge's sessions allow 128). */
export const STREAMS = 32;

export interface H2Result {
  label: string;
  rps: number;
  meanMs: number;
  maxMs: number;
  succeeded: number;
  failed: number;
  /** CPU the server used over the measured time (100% = one core); null when not known. */
  serverCpuPercent: number | null;
}

export interface Http2Report {
  connections: number;
  streams: number;
  seconds: number;
  bare: H2Result;
  edge: H2Result;
}

export function startHttp2Ceiling(): Promise<Child> {
  return startChild(
    'edge-h2-ceiling',
    ['--import', 'tsx', fileURLToPath(import.meta.url)],
    /edge-h2-ceiling: listening on (https:\/\/127\.0\.0\.1:\d+)/,
    process.env,
  );
}

/** HTTP/2 cache hits through the edge's TLS listener (`edgeTls`) for `host`, then the bare ceiling, each for `timing`. */
export async function measureHttp2Hits(edgeTls: string, host: string, serverPid: number, timing: Timing, log: (message: string) => void): Promise<Http2Report> {
  await ensureDebianPackage('h2load', 'nghttp2-client');
  const ceiling = await startHttp2Ceiling();
  try {
    log(`edge: HTTP/2 ceiling, a bare node:http2 server sending the 10 KiB object, ${timing.seconds} s`);
    const bare = await h2load(`${ceiling.url}/obj/hit`, host, timing, 'ceiling: bare node:http2, 10 KiB', ceiling.pid);
    log(`edge: HTTP/2 cache hits through the edge's TLS listener, ${timing.seconds} s`);
    const edge = await h2load(`${edgeTls}/obj/hit`, host, timing, 'edge: cache HIT over HTTP/2, 10 KiB', serverPid);
    return { connections: CONNECTIONS, streams: STREAMS, seconds: timing.seconds, bare, edge };
  } finally {
    await ceiling.stop();
  }
}

export async function h2load(url: string, authority: string, timing: Timing, label: string, pid: number): Promise<H2Result> {
  const args = [
    '-c',
    String(CONNECTIONS),
    '-m',
    String(STREAMS),
    '-t',
    '1',
    '-D',
    `${Math.round(timing.seconds * 1000)}ms`,
    `--warm-up-time=${Math.round(timing.warmupSeconds * 1000)}ms`,
  ];
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  const { stdout } = await run('h2load', [...args, '-H', `:authority: ${authority}`, url], { maxBuffer: 16 * 1024 * 1024 });
  // The server's CPU over the warm-up and the measured time both: the same work throughout.
  const wall = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds(pid);
  const field = (pattern: RegExp) => Number(pattern.exec(stdout)?.[1] ?? Number.NaN);
  const rps = field(/finished in [\d.]+s, ([\d.]+) req\/s/);
  if (!Number.isFinite(rps)) throw new Error(`h2load printed no result:\n${stdout}`);
  const requestTimes = /time for request:\s+(\S+)\s+(\S+)\s+(\S+)/.exec(stdout);
  return {
    label,
    rps,
    meanMs: durationMs(requestTimes?.[3]),
    maxMs: durationMs(requestTimes?.[2]),
    succeeded: field(/(\d+) succeeded/),
    failed: field(/(\d+) failed/) + field(/(\d+) errored/) + field(/(\d+) timeout/),
    serverCpuPercent: cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) / wall) * 100 : null,
  };
}

/** h2load's `646us`, `6.89ms`, `1.02s` in milliseconds. */
function durationMs(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

const SHARE_TARGET = 0.6;

export function renderHttp2(report: Http2Report): string {
  const rows = [report.bare, report.edge].map((r) => [
    r.label,
    Math.round(r.rps).toLocaleString('en-US'),
    `${(r.rps / report.bare.rps).toFixed(2)}x`,
    r.meanMs.toFixed(2),
    r.maxMs.toFixed(2),
    String(r.failed),
    r.serverCpuPercent === null ? '-' : `${Math.round(r.serverCpuPercent)}%`,
  ]);
  const head = ['', 'req/s', 'x bare', 'mean ms', 'max ms', 'failed', 'srv CPU'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    `Edge over HTTP/2 (h2load): GET of a 10 KiB object, ${report.connections} connections x ${report.streams} streams, ${report.seconds} s per server, same run`,
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

export function http2Targets(report: Http2Report): { target: string; measured: string; met: boolean }[] {
  const share = report.edge.rps / report.bare.rps;
  return [
    {
      target: `edge HTTP/2 cache hits >= ${SHARE_TARGET} of a bare node:http2 server`,
      measured: `${share.toFixed(2)}x (${Math.round(report.edge.rps)} vs ${Math.round(report.bare.rps)} req/s)`,
      met: share >= SHARE_TARGET,
    },
  ];
}

export function http2Failures(report: Http2Report | undefined): string[] {
  if (!report) return [];
  return [report.bare, report.edge].filter((r) => r.failed > 0 || r.succeeded === 0).map((r) => `${r.label}: ${r.failed} failed requests`);
}

function serve(): void {
  const body = Buffer.alloc(OBJECT_BYTES, 'edgeplane bench object ');
  const server = http2.createSecureServer({ cert: CERTIFICATE_PEM, key: CERTIFICATE_KEY_PEM });
  server.on('stream', (stream) => {
    stream.respond({
      ':status': 200,
      'content-type': 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'max-age=3600',
      etag: '"bench-10k"',
    });
    stream.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('edge-h2-ceiling: no TCP address');
    process.stdout.write(`edge-h2-ceiling: listening on https://127.0.0.1:${address.port}\n`);
  });
  process.once('SIGTERM', () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve();
