/**
 * The request mixes the benchmark drives, and the runner that drives one with autocannon and
 * measures it: throughput, exact latency percentiles, failures, and the server's CPU and memory.
 */
import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import { cpuSeconds, resetPeakRss, statusMb, storageReadBytes } from './proc.js';

/** What the workloads need from the seeded server. */
export interface Fixture {
  key: string;
  /** The zone whose response the baseline replays. */
  pullZoneId: number;
  pullZoneIds: number[];
  dnsZoneIds: number[];
  /** Unique per benchmark run, so names never collide with anything already stored. */
  tag: string;
  /** Next number of a run-wide counter: every write gets a name no other request used. */
  unique(): number;
}

export interface Load {
  name: string;
  label: string;
  connections: number;
  requests: autocannon.Request[];
}

export const CONNECTIONS = 32;

const jsonHeaders = (key: string) => ({ AccessKey: key, 'Content-Type': 'application/json' });
const pick = (ids: readonly number[]) => ids[Math.floor(Math.random() * ids.length)]!;

export function getPullZone(fx: Fixture): Load {
  return {
    name: 'get-pullzone',
    label: 'GET /pullzone/{id}',
    connections: CONNECTIONS,
    requests: [{ method: 'GET', path: `/pullzone/${fx.pullZoneId}`, headers: { AccessKey: fx.key } }],
  };
}

/** Reads spread over `ids`, so the store's indexes and caches see a realistic access pattern. */
export function getRandomPullZone(fx: Fixture, ids: readonly number[]): Load {
  return { name: 'get-pullzone-random', label: 'GET /pullzone/{random id}', connections: CONNECTIONS, requests: [randomPullZoneRead(fx, ids)] };
}

export function listApiKeys(fx: Fixture): Load {
  return {
    name: 'list-apikeys',
    label: 'GET /apikey?perPage=1000 (1,000 keys)',
    connections: CONNECTIONS,
    requests: [{ method: 'GET', path: '/apikey?perPage=1000', headers: { AccessKey: fx.key } }],
  };
}

export function addDnsRecord(fx: Fixture): Load {
  return { name: 'add-dns-record', label: 'PUT /dnszone/{id}/records (zone of 10,000)', connections: CONNECTIONS, requests: [dnsRecordWrite(fx)] };
}

/** Reads of one stored file through the file API (`url` decides the server: edgeplane or the bare one). */
export function getFile(name: string, label: string, path: string, key: string | undefined): Load {
  return { name, label, connections: CONNECTIONS, requests: [{ method: 'GET', path, headers: key ? { AccessKey: key } : {} }] };
}

/** Durable uploads of `bytes`-sized files, each to a path no other request used. */
export function putFile(fx: Fixture, zone: { Name: string; Password: string }, body: Buffer): Load {
  return {
    name: 'put-file',
    label: `PUT of a ${body.length / 1024} KiB file (durable)`,
    connections: CONNECTIONS,
    requests: [
      {
        method: 'PUT',
        headers: { AccessKey: zone.Password, 'content-type': 'application/octet-stream' },
        setupRequest: (request) => ({ ...request, path: `/${zone.Name}/put/${fx.unique()}.bin`, body }),
      },
    ],
  };
}

/** The same load against another store: `pg-` names, labels that say which store. */
export function onPostgres(load: Load): Load {
  return { ...load, name: `pg-${load.name}`, label: `${load.label}, on PostgreSQL` };
}

export function createStorageZone(fx: Fixture): Load {
  return {
    name: 'create-storage-zone',
    label: 'POST /storagezone',
    connections: CONNECTIONS,
    requests: [
      {
        method: 'POST',
        path: '/storagezone',
        headers: jsonHeaders(fx.key),
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ Name: `${fx.tag}-sz-${fx.unique()}`, Region: 'DE' }) }),
      },
    ],
  };
}

/** Four reads, then one write, on every connection: exactly 80% / 20%. */
export function mixed(fx: Fixture): Load {
  const read = randomPullZoneRead(fx, fx.pullZoneIds);
  return {
    name: 'mixed',
    label: 'mixed: 80% GET /pullzone/{id}, 20% PUT record',
    connections: CONNECTIONS,
    requests: [read, read, read, read, dnsRecordWrite(fx)],
  };
}

function randomPullZoneRead(fx: Fixture, ids: readonly number[]): autocannon.Request {
  return { method: 'GET', headers: { AccessKey: fx.key }, setupRequest: (request) => ({ ...request, path: `/pullzone/${pick(ids)}` }) };
}

/**
 * A new A record with a name never used before. Records are spread round-robin over the seeded
 * zones because a zone is stored as one document with all its records: the platform's zones hold
 * tens to hundreds of records, not the tens of thousands a single-zone benchmark would pile up.
 */
function dnsRecordWrite(fx: Fixture): autocannon.Request {
  return {
    method: 'PUT',
    headers: jsonHeaders(fx.key),
    setupRequest: (request) => {
      const n = fx.unique();
      const zoneId = fx.dnsZoneIds[n % fx.dnsZoneIds.length]!;
      const body = JSON.stringify({ Type: 0, Name: `r${n}`, Value: `192.0.2.${(n % 254) + 1}`, Ttl: 300 });
      return { ...request, path: `/dnszone/${zoneId}/records`, body };
    },
  };
}

export interface Timing {
  seconds: number;
  warmupSeconds: number;
}

export interface LoadResult {
  name: string;
  label: string;
  connections: number;
  /** Measured from the first request to the last response, in seconds. */
  seconds: number;
  responses: number;
  rps: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Failures while warming up: they fail the run like any other. */
  warmupFailures: number;
  /** CPU used by this process, the load generator: near 100% means it, not the server, set the pace. */
  clientCpuPercent: number;
  /** 1-minute load average at the end of the run: how much else the shared machine was doing. */
  loadAverage: number;
  server: {
    cpuPercent: number | null;
    peakRssMb: number | null;
    peakIsPerWorkload: boolean;
    /** Read from the storage device during the run, in MiB: the part of the store that was not cached. */
    storageReadMb: number | null;
  } | null;
}

/** Of two runs of one case, the one that served more (the machine's other work falls on one run, not on one side). */
export const betterRun = (a: LoadResult | undefined, b: LoadResult): LoadResult => (a === undefined || b.rps > a.rps ? b : a);

/** Safety bound on a run's request count; the duration ends every realistic run first. */
const MAX_RPS = 100_000;

let current: autocannon.Instance | undefined;

/** Ends the run in progress (on Ctrl-C); its promise still settles. */
export function stopCurrentLoad(): void {
  current?.stop();
}

export async function runLoad(url: string, load: Load, timing: Timing, serverPid?: number): Promise<LoadResult> {
  const warmup = timing.warmupSeconds > 0 ? await fire(url, load, timing.warmupSeconds) : undefined;
  const perWorkloadPeak = serverPid !== undefined && resetPeakRss(serverPid);
  const cpuBefore = serverPid !== undefined ? cpuSeconds(serverPid) : null;
  const readBefore = serverPid !== undefined ? storageReadBytes(serverPid) : null;
  const wallBefore = performance.now();
  const clientBefore = process.cpuUsage();
  const run = await fire(url, load, timing.seconds);
  const client = process.cpuUsage(clientBefore);
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  const cpuAfter = serverPid !== undefined ? cpuSeconds(serverPid) : null;
  const readAfter = serverPid !== undefined ? storageReadBytes(serverPid) : null;

  const sorted = Float64Array.from(run.latencies).sort();
  const n = sorted.length;
  const at = (q: number) => (n === 0 ? 0 : sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!);
  const statusCodes = Object.fromEntries(Object.entries(run.result.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    name: load.name,
    label: load.label,
    connections: load.connections,
    seconds: run.seconds,
    responses: n,
    rps: run.seconds > 0 ? n / run.seconds : 0,
    latencyMs: { p50: at(0.5), p99: at(0.99), mean: n === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / n, max: n === 0 ? 0 : sorted[n - 1]! },
    errors: run.result.errors,
    non2xx: run.result.non2xx,
    statusCodes,
    warmupFailures: warmup ? warmup.result.errors + warmup.result.non2xx : 0,
    clientCpuPercent: ((client.user + client.system) / 1e6 / wallSeconds) * 100,
    loadAverage: loadavg()[0] ?? 0,
    server:
      serverPid === undefined
        ? null
        : {
            cpuPercent: cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) / wallSeconds) * 100 : null,
            peakRssMb: statusMb(serverPid, 'VmHWM'),
            peakIsPerWorkload: perWorkloadPeak,
            storageReadMb: readBefore !== null && readAfter !== null ? (readAfter - readBefore) / 2 ** 20 : null,
          },
  };
}

interface Fired {
  result: autocannon.Result;
  /** Every response's latency in milliseconds, at full resolution (autocannon's own are whole ms). */
  latencies: number[];
  seconds: number;
}

function fire(url: string, load: Load, seconds: number): Promise<Fired> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let started = 0;
    let last = 0;
    const instance = autocannon(
      {
        url,
        title: load.name,
        connections: load.connections,
        duration: seconds,
        maxOverallRequests: Math.ceil(seconds * MAX_RPS),
        timeout: 10,
        // Short samples so a run stops promptly when its time is up (the default waits up to a second).
        sampleInt: 100,
        requests: load.requests,
      },
      (error, result) => {
        current = undefined;
        if (error) reject(error);
        else resolve({ result, latencies, seconds: started > 0 && last > started ? (last - started) / 1000 : 0 });
      },
    );
    current = instance;
    instance.once('start', () => (started = performance.now()));
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
      last = performance.now();
      latencies.push(ms);
    });
  });
}
