/**
 * Turns measurements into the printed tables, the verdict on the project's performance targets,
 * and the raw JSON. Every figure sits next to its ratio to the baseline: on a shared, noisy
 * machine the ratio is the number that carries over from one run to the next.
 */
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { type DnsReport, dnsTables, dnsTargets } from './dns-report.js';
import type { LoadResult } from './workloads.js';

export interface ScalingPoint {
  storedPullZones: number;
  seedSeconds: number;
  /** The SQLite file and its WAL, after seeding. */
  storeBytes: number;
  result: LoadResult;
}

/** A file read through the storage plane beside the same read from a bare server, same run. */
export interface FileRun {
  size: number;
  ceiling: LoadResult;
  edgeplane: LoadResult;
}

export interface Report {
  mode: 'full' | 'quick';
  machine: Machine;
  /** Sync-per-commit ceiling of the store's disk, measured just before the write workloads. */
  diskSyncsPerSecond: number | null;
  baseline: LoadResult;
  workloads: LoadResult[];
  scaling: ScalingPoint[];
  files?: FileRun[];
  filePuts?: LoadResult | undefined;
  dns?: DnsReport | undefined;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  kernel: string;
  /** 1-minute load average when the run started: how busy the shared machine was. */
  loadAverage: number;
}

export function describeMachine(): Machine {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    kernel: release(),
    loadAverage: loadavg()[0] ?? 0,
  };
}

const WRITES = ['add-dns-record', 'create-storage-zone'];

export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

/** The targets of the issue, checked against this run. */
export function checkTargets(report: Report): Target[] {
  const { baseline } = report;
  const targets: Target[] = [];
  const get = report.workloads.find((w) => w.name === 'get-pullzone');
  if (get) {
    const share = get.rps / baseline.rps;
    targets.push({
      target: 'GET /pullzone/{id} >= 60% of ceiling req/s',
      measured: `${pct(share)} (${int(get.rps)} of ${int(baseline.rps)})`,
      met: share >= 0.6,
    });
    targets.push({ target: 'GET /pullzone/{id} p99 < 10 ms at 32 connections', measured: `${ms(get.latencyMs.p99)} ms`, met: get.latencyMs.p99 < 10 });
  }
  for (const w of report.workloads.filter((x) => WRITES.includes(x.name))) {
    const disk = report.diskSyncsPerSecond === null ? '' : ` (disk: ${int(report.diskSyncsPerSecond)} syncs/s)`;
    targets.push({ target: `${w.label} >= 3,000 writes/s`, measured: `${int(w.rps)}/s${disk}`, met: w.rps >= 3000 });
  }
  const pgGet = report.workloads.find((w) => w.name === 'pg-get-pullzone');
  if (pgGet) {
    const share = pgGet.rps / baseline.rps;
    targets.push({
      target: 'GET /pullzone/{id} on PostgreSQL >= 50% of ceiling req/s',
      measured: `${pct(share)} (${int(pgGet.rps)} of ${int(baseline.rps)})`,
      met: share >= 0.5,
    });
  }
  const pgCreate = report.workloads.find((w) => w.name === 'pg-create-storage-zone');
  if (pgCreate) targets.push({ target: 'POST /storagezone on PostgreSQL >= 1,500 writes/s', measured: `${int(pgCreate.rps)}/s`, met: pgCreate.rps >= 1500 });
  for (const f of report.files ?? []) {
    const share = f.edgeplane.rps / f.ceiling.rps;
    targets.push({
      target: `${f.edgeplane.label} >= 60% of its ceiling`,
      measured: `${pct(share)} (${int(f.edgeplane.rps)} of ${int(f.ceiling.rps)})`,
      met: share >= 0.6,
    });
  }
  if (report.filePuts)
    targets.push({ target: `${report.filePuts.label} >= 2,000/s`, measured: `${int(report.filePuts.rps)}/s`, met: report.filePuts.rps >= 2000 });
  const drop = scalingDrop(report.scaling);
  const largest = report.scaling.at(-1);
  if (drop !== undefined && largest) {
    const label = `1k -> ${count(largest.storedPullZones)} pull zones`;
    targets.push({ target: `${label}: read drop <= 10%`, measured: `${pct(drop)}`, met: drop <= 0.1 });
    const rss = largest.result.server?.peakRssMb ?? null;
    targets.push({ target: `${label}: server RSS < 300 MB`, measured: rss === null ? 'n/a' : `${int(rss)} MB`, met: rss !== null && rss < 300 });
  }
  if (report.dns) targets.push(...dnsTargets(report.dns));
  const failures = allRuns(report).reduce((n, r) => n + failuresOf(r), 0);
  targets.push({ target: 'zero errors and non-2xx', measured: String(failures), met: failures === 0 });
  return targets;
}

/** Throughput lost from the smallest store to the largest, as a fraction (negative: it got faster). */
export function scalingDrop(scaling: ScalingPoint[]): number | undefined {
  const first = scaling[0];
  const last = scaling.at(-1);
  if (!first || !last || first === last) return undefined;
  return 1 - last.result.rps / first.result.rps;
}

export const failuresOf = (r: LoadResult) => r.errors + r.non2xx + r.warmupFailures;
const allRuns = (report: Report) => [
  report.baseline,
  ...report.workloads,
  ...report.scaling.map((s) => s.result),
  ...(report.files ?? []).map((f) => f.ceiling),
];

/** Runs that failed a request, for the exit code and the message that explains it. */
export function failedRuns(report: Report): LoadResult[] {
  return allRuns(report).filter((r) => failuresOf(r) > 0);
}

export function render(report: Report): string {
  const { baseline, machine } = report;
  const lines: string[] = [];
  lines.push(
    `edgeplane benchmark (${report.mode}): ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGb} GB, Node ${machine.node}, load ${machine.loadAverage.toFixed(2)} at start`,
  );
  if (report.diskSyncsPerSecond !== null) {
    lines.push(`Disk under the store: ${int(report.diskSyncsPerSecond)} appends+fdatasync per second (the ceiling of one-commit-per-request writes)`);
  }
  lines.push('');
  const head = [
    'workload',
    'conns',
    'req/s',
    'x ceiling',
    'p50 ms',
    'x ceiling',
    'p99 ms',
    'x ceiling',
    'errors',
    'non-2xx',
    'srv CPU',
    'client CPU',
    'srv peak RSS',
    'load',
  ];
  const row = (r: LoadResult) => [
    r.label,
    String(r.connections),
    int(r.rps),
    ratio(r.rps / baseline.rps),
    ms(r.latencyMs.p50),
    ratio(r.latencyMs.p50 / baseline.latencyMs.p50),
    ms(r.latencyMs.p99),
    ratio(r.latencyMs.p99 / baseline.latencyMs.p99),
    errorsCell(r),
    String(r.non2xx),
    r.server?.cpuPercent == null ? '-' : `${Math.round(r.server.cpuPercent)}%`,
    `${Math.round(r.clientCpuPercent)}%`,
    r.server?.peakRssMb == null ? '-' : `${int(r.server.peakRssMb)} MB`,
    r.loadAverage.toFixed(1),
  ];
  lines.push(table(head, [row({ ...baseline, label: 'ceiling: bare node:http, same bytes' }), ...report.workloads.map(row)]));

  if (report.files && report.files.length > 0) {
    lines.push('', 'Files: GET through the storage plane beside a bare node:http server streaming the same file from the same disk (same run)');
    const fileHead = [
      'read',
      'req/s',
      'MB/s',
      'x its ceiling',
      'p50 ms',
      'p99 ms',
      'ceiling req/s',
      'ceiling MB/s',
      'errors',
      'non-2xx',
      'srv CPU',
      'srv peak RSS',
    ];
    const fileRow = (f: FileRun) => [
      f.edgeplane.label,
      int(f.edgeplane.rps),
      int((f.edgeplane.rps * f.size) / 1e6),
      ratio(f.edgeplane.rps / f.ceiling.rps),
      ms(f.edgeplane.latencyMs.p50),
      ms(f.edgeplane.latencyMs.p99),
      int(f.ceiling.rps),
      int((f.ceiling.rps * f.size) / 1e6),
      errorsCell(f.edgeplane),
      String(f.edgeplane.non2xx),
      f.edgeplane.server?.cpuPercent == null ? '-' : `${Math.round(f.edgeplane.server.cpuPercent)}%`,
      f.edgeplane.server?.peakRssMb == null ? '-' : `${int(f.edgeplane.server.peakRssMb)} MB`,
    ];
    lines.push(table(fileHead, report.files.map(fileRow)));
  }

  if (report.scaling.length > 0) {
    lines.push('', 'Scaling: GET /pullzone/{random id} by number of stored pull zones (answer cache off: every read goes to the store)');
    const scaleHead = [
      'stored pull zones',
      'req/s',
      'x ceiling',
      'vs first',
      'p50 ms',
      'p99 ms',
      'errors',
      'non-2xx',
      'srv CPU',
      'srv disk reads',
      'srv peak RSS',
      'load',
      'seeded in',
      'store on disk',
    ];
    const first = report.scaling[0]!.result.rps;
    lines.push(
      table(
        scaleHead,
        report.scaling.map((s) => [
          count(s.storedPullZones),
          int(s.result.rps),
          ratio(s.result.rps / baseline.rps),
          signedPct(s.result.rps / first - 1),
          ms(s.result.latencyMs.p50),
          ms(s.result.latencyMs.p99),
          errorsCell(s.result),
          String(s.result.non2xx),
          s.result.server?.cpuPercent == null ? '-' : `${Math.round(s.result.server.cpuPercent)}%`,
          s.result.server?.storageReadMb == null ? '-' : `${int(s.result.server.storageReadMb)} MB`,
          s.result.server?.peakRssMb == null ? '-' : `${int(s.result.server.peakRssMb)} MB`,
          s.result.loadAverage.toFixed(1),
          `${s.seedSeconds.toFixed(1)} s`,
          `${int(s.storeBytes / 1e6)} MB`,
        ]),
      ),
    );
  }

  for (const dnsTable of report.dns ? dnsTables(report.dns) : []) lines.push('', dnsTable.title, table(dnsTable.head, dnsTable.rows));

  lines.push('', 'Targets');
  lines.push(
    table(
      ['target', 'measured', 'met'],
      checkTargets(report).map((t) => [t.target, t.measured, t.met ? 'yes' : 'NO']),
    ),
  );
  const perWorkload = allRuns(report).every((r) => r.server === null || r.server.peakIsPerWorkload);
  lines.push(
    '',
    `Peak RSS is ${perWorkload ? 'per workload (the kernel peak counter is reset before each)' : 'the server process lifetime peak'}; CPU 100% = one core busy (client = the load generator); load = 1-minute load average after the run.`,
  );
  return lines.join('\n');
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  // Text left, numbers right, as a reader scans them.
  const cell = (text: string, i: number) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

const errorsCell = (r: LoadResult) => `${r.errors}${r.warmupFailures > 0 ? ` (+${r.warmupFailures} in warm-up)` : ''}`;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);
const ratio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : '-');
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const signedPct = (n: number) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)}%`;
const count = (n: number) => n.toLocaleString('en-US');
