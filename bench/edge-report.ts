/** The edge workload's figures, its table and its targets (cache hits vs the bare origin and Varnish; the miss storm). */
import { type Http2Report, http2Failures, http2Targets, renderHttp2 } from './edge-http2.js';
import { type CompressedHits, compressedTargets, renderCompressed } from './edge-compression.js';
import { type OptimizerBench, optimizerLoads, optimizerTargets, renderOptimizer } from './edge-optimizer.js';
import { type LoggedHits, loggedTargets, renderLogged } from './edge-logging.js';
import type { LoadResult } from './workloads.js';

export interface EdgeReport {
  objectBytes: number;
  connections: number;
  seconds: number;
  bare: LoadResult;
  edge: LoadResult;
  varnish: LoadResult;
  compressed: CompressedHits;
  storm: { requests: number; ok: number; originRequests: number; ms: number };
  /** Cache hits over HTTP/2 against a bare node:http2 server (edge-http2.ts). */
  http2: Http2Report;
  /** The optimizer's variant hit and resizing miss (edge-optimizer.ts). */
  optimizer: OptimizerBench;
  /** Cache hits with log forwarding against logging off (edge-logging.ts). */
  logged: LoggedHits;
}

const SHARE_TARGET = 0.5;
const P99_TARGET_MS = 10;

export function renderEdge(edge: EdgeReport): string {
  const rows = [edge.bare, edge.edge, edge.varnish].map((r) => [
    r.label,
    int(r.rps),
    ratio(r.rps / edge.bare.rps),
    ratio(r.rps / edge.varnish.rps),
    ms(r.latencyMs.p50),
    ms(r.latencyMs.p99),
    ms(r.latencyMs.max),
    String(r.errors + r.non2xx),
    r.server?.cpuPercent == null ? '-' : `${Math.round(r.server.cpuPercent)}%`,
    r.server?.peakRssMb == null ? '-' : `${int(r.server.peakRssMb)} MB`,
  ]);
  const head = ['', 'req/s', 'x bare', 'x Varnish', 'p50 ms', 'p99 ms', 'max ms', 'failed', 'srv CPU', 'srv RSS'];
  const s = edge.storm;
  return [
    `Edge: GET of a ${edge.objectBytes / 1024} KiB object, ${edge.connections} connections, ${edge.seconds} s per server, same run`,
    table(head, rows),
    '',
    ...renderCompressed(edge.compressed),
    '',
    `Edge miss storm: ${int(s.requests)} concurrent requests for one uncached key (EnableRequestCoalescing): ${s.ok} answered 200, ${s.originRequests} origin request(s), ${Math.round(s.ms)} ms`,
    '',
    renderHttp2(edge.http2),
    '',
    ...renderOptimizer(edge.optimizer),
    ...renderLogged(edge.logged),
    '',
    ...edgeTargets(edge).map((t) => `${t.met ? 'met    ' : 'MISSED '} ${t.target}: ${t.measured}`),
  ].join('\n');
}

export function edgeTargets(edge: EdgeReport): { target: string; measured: string; met: boolean }[] {
  const share = edge.edge.rps / edge.bare.rps;
  return [
    {
      target: `edge cache hits >= ${SHARE_TARGET} of the bare server`,
      measured: `${ratio(share)} (${int(edge.edge.rps)} vs ${int(edge.bare.rps)} req/s)`,
      met: share >= SHARE_TARGET,
    },
    {
      target: `edge hit p99 < ${P99_TARGET_MS} ms at ${edge.connections} connections`,
      measured: `${ms(edge.edge.latencyMs.p99)} ms`,
      met: edge.edge.latencyMs.p99 < P99_TARGET_MS,
    },
    {
      target: `a miss storm of ${int(edge.storm.requests)} requests makes exactly one origin request`,
      measured: `${edge.storm.originRequests} origin request(s), ${edge.storm.ok} of ${edge.storm.requests} answered 200`,
      met: edge.storm.originRequests === 1 && edge.storm.ok === edge.storm.requests,
    },
    ...http2Targets(edge.http2),
    ...compressedTargets(edge.compressed),
    ...optimizerTargets(edge.optimizer),
    ...loggedTargets(edge.logged),
  ];
}

export function edgeFailures(edge: EdgeReport | undefined): string[] {
  if (!edge) return [];
  const failures: string[] = [];
  for (const r of [
    edge.bare,
    edge.edge,
    edge.varnish,
    edge.compressed.edge,
    edge.compressed.varnish,
    edge.logged.off,
    edge.logged.logged,
    edge.logged.forwarded,
    ...optimizerLoads(edge.optimizer),
  ])
    if (r.errors + r.non2xx + r.warmupFailures > 0) failures.push(`${r.label}: ${r.errors + r.non2xx + r.warmupFailures} failed requests`);
  if (edge.storm.ok !== edge.storm.requests) failures.push(`edge miss storm: ${edge.storm.requests - edge.storm.ok} requests failed`);
  failures.push(...http2Failures(edge.http2));
  return failures;
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);
const ratio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : '-');
