/**
 * The `dns` workload: the DNS plane of the running server against NSD and PowerDNS, same zone,
 * same queries, same run; then the DNS plane again, twice, while records are written through the
 * API at 500 per second (to zones of their own, then into the queried zone), checking that answers
 * stay right and new records become visible.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerData, DnsProbe } from './dns-probe.js';
import { startBatchedFloor, startNodeFloor, startNsd, startPowerDns, type DnsServer } from './dns-servers.js';
import { type BenchRecord, DNS_ZONE, writeQueryFile, writeZoneFile, ZONE_RECORDS, zoneRecords } from './dns-zone.js';
import { type DnsperfResult, runDnsperf } from './dnsperf.js';
import { measureWrites } from './dns-writes.js';
import type { DnsReport, DnsServerRun } from './dns-report.js';
import type { Client } from './seed.js';
import type { Child } from './server.js';
import { cpuSeconds, statusMb } from './proc.js';

/** Queries dnsperf keeps in flight: enough to keep any of the three servers busy on loopback. */
const OUTSTANDING = 100;

export interface DnsTiming {
  seconds: number;
  warmupSeconds: number;
}

export async function measureDns(server: Child, client: Client, workDir: string, timing: DnsTiming, log: (message: string) => void): Promise<DnsReport> {
  const plane = server.planes['dns'];
  if (!plane) throw new Error('the DNS plane is not listening (no "edgeplane: dns listening on" line)');
  const port = Number(new URL(plane.replace(/^dns:/, 'http:')).port);
  const dir = join(workDir, 'dns');
  mkdirSync(join(dir, 'nsd'), { recursive: true });
  mkdirSync(join(dir, 'pdns'), { recursive: true });
  const zoneFile = join(dir, `${DNS_ZONE}.zone`);
  const queryFile = join(dir, 'queries.txt');
  writeZoneFile(zoneFile);
  writeQueryFile(queryFile);

  log(`dns: creating ${DNS_ZONE} with ${ZONE_RECORDS.toLocaleString('en-US')} records through the API`);
  const zoneId = await createZone(client, zoneFile);
  const probe = new DnsProbe(port);
  try {
    await untilServed(probe);
  } finally {
    probe.close();
  }

  const runs: DnsServerRun[] = [];
  const measure = async (name: string, pid: number, serverPort: number) => {
    log(`dns: ${name}, ${timing.seconds} s of dnsperf at ${OUTSTANDING} queries in flight`);
    await runDnsperf({ port: serverPort, queryFile, seconds: timing.warmupSeconds, outstanding: OUTSTANDING });
    const cpuBefore = treeCpuSeconds(pid);
    const started = performance.now();
    const result = await runDnsperf({ port: serverPort, queryFile, seconds: timing.seconds, outstanding: OUTSTANDING });
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = treeCpuSeconds(pid);
    runs.push({ server: name, result, serverCpuPercent: ((cpuAfter - cpuBefore) / elapsed) * 100, serverRssMb: treeRssMb(pid) });
    if (result.lost > 0) log(`dns: ${name}: ${result.lost} queries lost`);
  };
  await measure('edgeplane', server.pid, port);
  for (const start of [() => startNsd(join(dir, 'nsd'), zoneFile), () => startPowerDns(join(dir, 'pdns'), zoneFile), startNodeFloor, startBatchedFloor]) {
    let other: DnsServer | undefined;
    try {
      other = await start();
      if (other) await measure(other.name, other.pid, other.port);
    } finally {
      await other?.stop();
    }
  }

  const underWrites = (into?: { id: number; domain: string }) => {
    log(
      `dns: edgeplane again, ${timing.seconds} s, while records are written through the API at 500/s into ${into ? 'the queried zone' : 'zones of their own'}`,
    );
    return measureWrites({
      client,
      dnsPort: port,
      seconds: timing.seconds,
      expected: sampleOfZone(),
      underLoad: () => dnsLoad(port, queryFile, timing.seconds),
      into,
    });
  };
  const writes = await underWrites();
  const writesIntoQueried = await underWrites({ id: zoneId, domain: DNS_ZONE });
  return { zoneRecords: ZONE_RECORDS, outstanding: OUTSTANDING, seconds: timing.seconds, runs, writes, writesIntoQueried };
}

function dnsLoad(port: number, queryFile: string, seconds: number): Promise<DnsperfResult> {
  return runDnsperf({ port, queryFile, seconds, outstanding: OUTSTANDING });
}

/**
 * POST /dnszone, then the zone file's 10,000 records in one import request (the import streams
 * zone files of up to 16 MiB). `domain` names the zone; the records are the bench zone's.
 */
export async function createZone(client: Client, zoneFile: string, domain = DNS_ZONE): Promise<number> {
  const zone = await client.call<{ Id: number }>('POST', '/dnszone', 201, { Domain: domain });
  const records = readFileSync(zoneFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !/^(\$|@)/.test(line));
  const response = await fetch(`${client.base}/dnszone/${zone.Id}/import`, {
    method: 'POST',
    headers: { AccessKey: client.key, 'Content-Type': 'text/plain' },
    body: `$ORIGIN ${domain}.\n${records.join('\n')}\n`,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST /dnszone/${zone.Id}/import: ${response.status}: ${text.slice(0, 500)}`);
  const result = JSON.parse(text) as { RecordsSuccessful: number; RecordsFailed: number };
  if (result.RecordsFailed > 0 || result.RecordsSuccessful !== ZONE_RECORDS) {
    throw new Error(`POST /dnszone/${zone.Id}/import added ${result.RecordsSuccessful} records (${result.RecordsFailed} failed), not ${ZONE_RECORDS}`);
  }
  return zone.Id;
}

/** Waits for the last record imported to be answered: the whole zone is then served. */
async function untilServed(probe: DnsProbe): Promise<void> {
  const last = zoneRecords().at(-1)!;
  const started = Date.now();
  for (;;) {
    const data = answerData(await probe.ask(`${last.name}.${DNS_ZONE}`, last.type), last.type);
    if (data?.includes(last.value)) return;
    if (Date.now() - started > 30_000) throw new Error(`the DNS plane did not answer ${last.name}.${DNS_ZONE} ${last.type} within 30 s of the import`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Records of the zone with the answer each must get, for the checks made while writes go on. */
function sampleOfZone(): { name: string; type: BenchRecord['type']; data: string }[] {
  return zoneRecords()
    .filter((_, i) => i % 10 === 0)
    .map((record) => ({ name: `${record.name}.${DNS_ZONE}`, type: record.type, data: expectedData(record) }));
}

function expectedData(record: BenchRecord): string {
  return record.type === 'MX' ? `${record.priority} ${record.value}` : record.value;
}

/** CPU seconds of a process and all its descendants (NSD serves from a child process). */
function treeCpuSeconds(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + (cpuSeconds(p) ?? 0), 0);
}

function treeRssMb(pid: number): number | null {
  const all = [pid, ...descendants(pid)].map((p) => statusMb(p, 'VmRSS'));
  return all[0] === null ? null : all.reduce<number>((sum, mb) => sum + (mb ?? 0), 0);
}

function descendants(pid: number): number[] {
  const found: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children === '' ? [] : children.split(' ').map(Number)) found.push(child, ...descendants(child));
    }
  } catch {
    // Gone, or /proc without children files: count the process alone.
  }
  return found;
}
