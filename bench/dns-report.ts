/**
 * The DNS workload's figures, its tables and its targets: the DNS plane against NSD and PowerDNS
 * (queries/s and its ratio to each, p99), and the plane while records are written.
 */
import type { DnsperfResult } from './dnsperf.js';

export interface DnsServerRun {
  server: string;
  result: DnsperfResult;
  /** The server and its child processes, 100% = one core. */
  serverCpuPercent: number;
  serverRssMb: number | null;
}

export interface DnsWritesRun {
  /** Where the records went: zones of their own, or the zone dnsperf queries. */
  into: string;
  targetWritesPerSecond: number;
  writesPerSecond: number;
  writeErrors: number;
  /** Writes not sent because too many were still in flight (the API fell behind). */
  writesSkipped: number;
  dns: DnsperfResult;
  /** Answers of the big zone checked during the writes, and how many were not the stored ones. */
  checked: number;
  wrong: number;
  /** New records checked for visibility; how long after the API's 201 the plane answered them. */
  visibleChecked: number;
  notVisible: number;
  visibleMs: { p50: number; p99: number; max: number };
}

export interface DnsReport {
  zoneRecords: number;
  outstanding: number;
  seconds: number;
  runs: DnsServerRun[];
  /** Writes to zones of their own: the target's run. */
  writes: DnsWritesRun;
  /** The same writes into the queried zone. */
  writesIntoQueried?: DnsWritesRun;
}

interface Table {
  title: string;
  head: string[];
  rows: string[][];
}

const P99_TARGET_MS = 5;
/** The server names of the bare responders (bench/dns-servers.ts): over node:dgram, and over the plane's batched socket. */
const NODE_FLOOR = 'bare node:dgram';
const BATCHED_FLOOR = 'bare batched (addon)';

export function dnsTables(dns: DnsReport): Table[] {
  const nsd = dns.runs.find((r) => r.server === 'NSD');
  const pdns = dns.runs.find((r) => r.server === 'PowerDNS');
  const floor = dns.runs.find((r) => r.server === NODE_FLOOR);
  const batchedFloor = dns.runs.find((r) => r.server === BATCHED_FLOOR);
  const w = dns.writes;
  return [
    {
      title: `DNS: a zone of ${int(dns.zoneRecords)} records (50% A, 20% AAAA, 10% MX, 10% TXT, 10% NXDOMAIN), dnsperf over UDP with ${dns.outstanding} queries in flight, ${dns.seconds} s per server, one worker each, same run`,
      head: [
        'server',
        'queries/s',
        'x NSD',
        'x PowerDNS',
        'x Node floor',
        'x batched floor',
        'p50 ms',
        'p99 ms',
        'max ms',
        'lost',
        'answers',
        'srv CPU',
        'srv RSS',
        'dnsperf CPU',
      ],
      rows: dns.runs.map((r) => [
        r.server,
        int(r.result.qps),
        nsd ? ratio(r.result.qps / nsd.result.qps) : '-',
        pdns ? ratio(r.result.qps / pdns.result.qps) : '-',
        floor ? ratio(r.result.qps / floor.result.qps) : '-',
        batchedFloor ? ratio(r.result.qps / batchedFloor.result.qps) : '-',
        ms(r.result.latencyMs.p50),
        ms(r.result.latencyMs.p99),
        ms(r.result.latencyMs.max),
        String(r.result.lost),
        Object.entries(r.result.rcodes)
          .map(([code, n]) => `${code} ${pct(n / r.result.completed)}`)
          .join(', '),
        `${Math.round(r.serverCpuPercent)}%`,
        r.serverRssMb === null ? '-' : `${int(r.serverRssMb)} MB`,
        `${Math.round(r.result.clientCpuPercent)}%`,
      ]),
    },
    {
      title: `DNS under writes: the same dnsperf load on edgeplane while A records are added through the API (PUT /dnszone/{id}/records, ${w.targetWritesPerSecond}/s target)`,
      head: [
        'written into',
        'writes/s',
        'write errors',
        'writes skipped',
        'queries/s',
        'p99 ms',
        'lost',
        'answers checked',
        'wrong',
        'new records checked',
        'visible p50 ms',
        'p99 ms',
        'max ms',
        'not visible in 5 s',
      ],
      rows: writesRuns(dns).map((run) => [
        run.into,
        int(run.writesPerSecond),
        String(run.writeErrors),
        String(run.writesSkipped),
        int(run.dns.qps),
        ms(run.dns.latencyMs.p99),
        String(run.dns.lost),
        int(run.checked),
        String(run.wrong),
        int(run.visibleChecked),
        ms(run.visibleMs.p50),
        ms(run.visibleMs.p99),
        ms(run.visibleMs.max),
        String(run.notVisible),
      ]),
    },
  ];
}

const writesRuns = (dns: DnsReport): DnsWritesRun[] => (dns.writesIntoQueried ? [dns.writes, dns.writesIntoQueried] : [dns.writes]);

export function dnsTargets(dns: DnsReport): { target: string; measured: string; met: boolean }[] {
  const ours = dns.runs.find((r) => r.server === 'edgeplane');
  if (!ours) return [];
  const targets = [];
  const nsd = dns.runs.find((r) => r.server === 'NSD');
  const pdns = dns.runs.find((r) => r.server === 'PowerDNS');
  if (pdns) {
    const share = ours.result.qps / pdns.result.qps;
    targets.push({
      target: 'DNS queries/s ahead of PowerDNS',
      measured: `${ratio(share)} (${int(ours.result.qps)} vs ${int(pdns.result.qps)})`,
      met: share > 1,
    });
  }
  if (nsd) {
    const share = ours.result.qps / nsd.result.qps;
    targets.push({ target: 'DNS queries/s >= 0.5 of NSD', measured: `${ratio(share)} (${int(ours.result.qps)} vs ${int(nsd.result.qps)})`, met: share >= 0.5 });
  }
  targets.push({ target: `DNS p99 < ${P99_TARGET_MS} ms`, measured: `${ms(ours.result.latencyMs.p99)} ms`, met: ours.result.latencyMs.p99 < P99_TARGET_MS });
  const w = dns.writes;
  targets.push({
    target: `DNS answers right during ${w.targetWritesPerSecond} writes/s`,
    measured: `${int(w.writesPerSecond)} writes/s, ${w.wrong} wrong of ${int(w.checked)}, ${w.notVisible} new records not visible of ${int(w.visibleChecked)}`,
    met: w.wrong === 0 && w.notVisible === 0 && w.writeErrors === 0 && w.writesPerSecond >= w.targetWritesPerSecond * 0.95,
  });
  return targets;
}

/** Queries lost by the DNS plane, or wrong answers: failures, as failed requests are for HTTP. */
export function dnsFailures(dns: DnsReport | undefined): string[] {
  if (!dns) return [];
  const failures = dns.runs.filter((r) => r.server === 'edgeplane' && r.result.lost > 0).map((r) => `DNS: ${r.result.lost} queries lost`);
  for (const run of writesRuns(dns)) {
    const under = `DNS under writes into ${run.into}`;
    if (run.dns.lost > 0) failures.push(`${under}: ${run.dns.lost} queries lost`);
    if (run.wrong > 0) failures.push(`${under}: ${run.wrong} wrong answers`);
    if (run.notVisible > 0) failures.push(`${under}: ${run.notVisible} new records not visible within 5 s`);
    if (run.writeErrors > 0) failures.push(`${under}: ${run.writeErrors} record writes failed`);
  }
  return failures;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);
const ratio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : '-');
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
