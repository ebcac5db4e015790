/**
 * A test suite's day: one client, one keep-alive connection, one request at a time, as a CI suite
 * drives the API: it creates a key, then for every resource family creates, reads, updates, lists
 * (with paging) and deletes, over and over. Then the very same sequence of requests (methods,
 * paths, bodies) goes to the bare node:http ceiling, so the two medians compare the server and
 * nothing else.
 */
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import type { CapturedResponse } from './baseline.js';
import { startBaseline } from './baseline.js';
import { cpuSeconds, syncsPerSecond } from './proc.js';
import { startEdgeplane } from './server.js';
import type { Target } from './report.js';
import { median, table } from './startup.js';

export interface SessionReport {
  iterations: number;
  requests: number;
  /** Requests per resource family, in the order they were sent. */
  families: Record<string, number>;
  edgeplane: Latencies;
  /** The session's reads (GET) and writes (everything else) apart: writes wait for the disk. */
  edgeplaneReads: Latencies;
  edgeplaneWrites: Latencies;
  ceiling: Latencies;
  /**
   * Server CPU (user + system) per request, in ms: unlike latency, it does not count the time the
   * process waited for a core, so it carries over better from a loaded machine to a quiet one.
   */
  cpuMsPerRequest: { edgeplane: number | null; ceiling: number | null };
  /** One 4 KiB append + fdatasync in the store's directory, just after the session (ms). */
  fsyncMs: number;
  /** The same session against a server on `sqlite::memory:`: what is left without the disk. */
  inMemory: Latencies;
  /** Where the session's time went: each kind of request (ids as {id}), the costliest first. */
  byKind: { kind: string; requests: number; p50: number; totalMs: number }[];
  loadAverage: number;
}

export interface Latencies {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  totalSeconds: number;
  count: number;
}

interface Sent {
  method: string;
  path: string;
  body: string | undefined;
}

interface Answer {
  status: number;
  body: string;
}

class SequentialClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  readonly latencies: number[] = [];
  readonly sent: Sent[] = [];

  constructor(
    private readonly base: string,
    public key: string,
  ) {}

  async call(method: string, path: string, body?: unknown, family = ''): Promise<Answer> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    this.sent.push({ method, path, body: text });
    const started = performance.now();
    const answer = await send(this.agent, this.base, { method, path, body: text }, this.key);
    this.latencies.push(performance.now() - started);
    if (answer.status < 200 || answer.status > 299)
      throw new Error(`session (${family}): ${method} ${path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return answer;
  }

  close(): void {
    this.agent.destroy();
  }
}

function send(agent: Agent, base: string, req: Sent, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { AccessKey: key };
    if (req.body !== undefined) headers['Content-Type'] = 'application/json';
    const r = httpRequest(`${base}${req.path}`, { method: req.method, agent, headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    r.on('timeout', () => r.destroy(new Error(`${req.method} ${req.path} timed out`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

const json = <T>(a: Answer) => JSON.parse(a.body) as T;

/** One iteration over every family: create, read, update, list a page or two, delete. */
async function iteration(c: SequentialClient, tag: string, i: number, counts: Record<string, number>): Promise<void> {
  const count = (family: string, before: number) => (counts[family] = (counts[family] ?? 0) + c.latencies.length - before);
  let before = c.latencies.length;
  const pz = json<{ Id: number }>(await c.call('POST', '/pullzone', { Name: `${tag}-pz-${i}`, OriginUrl: `https://origin-${i}.example.com` }, 'pull zone'));
  await c.call('GET', `/pullzone/${pz.Id}`);
  await c.call('POST', `/pullzone/${pz.Id}`, { MonthlyBandwidthLimit: 10_000 + i });
  await c.call('GET', '/pullzone?page=1&perPage=10');
  await c.call('GET', '/pullzone?page=2&perPage=10');
  await c.call('DELETE', `/pullzone/${pz.Id}`);
  count('pull zones', before);

  before = c.latencies.length;
  const sz = json<{ Id: number }>(await c.call('POST', '/storagezone', { Name: `${tag}-sz-${i}`, Region: 'DE' }, 'storage zone'));
  await c.call('GET', `/storagezone/${sz.Id}`);
  await c.call('POST', `/storagezone/${sz.Id}`, { Rewrite404To200: i % 2 === 0 });
  await c.call('GET', '/storagezone?page=1&perPage=10');
  await c.call('DELETE', `/storagezone/${sz.Id}`);
  count('storage zones', before);

  before = c.latencies.length;
  const dz = json<{ Id: number }>(await c.call('POST', '/dnszone', { Domain: `${tag}-${i}.example` }, 'DNS zone'));
  await c.call('GET', `/dnszone/${dz.Id}`);
  await c.call('POST', `/dnszone/${dz.Id}`, { LoggingEnabled: true });
  const record = json<{ Id: number }>(
    await c.call('PUT', `/dnszone/${dz.Id}/records`, { Type: 0, Name: 'www', Value: `192.0.2.${(i % 254) + 1}`, Ttl: 300 }, 'DNS record'),
  );
  await c.call('PUT', `/dnszone/${dz.Id}/records`, { Type: 3, Name: '', Value: 'v=spf1 -all', Ttl: 300 }, 'DNS record');
  await c.call('POST', `/dnszone/${dz.Id}/records/${record.Id}`, { Ttl: 600 }, 'DNS record');
  await c.call('DELETE', `/dnszone/${dz.Id}/records/${record.Id}`, undefined, 'DNS record');
  await c.call('GET', '/dnszone?page=1&perPage=10');
  await c.call('DELETE', `/dnszone/${dz.Id}`);
  count('DNS zones and records', before);

  before = c.latencies.length;
  const vl = json<{ Id: number }>(await c.call('POST', '/videolibrary', { Name: `${tag}-vl-${i}` }, 'video library'));
  await c.call('GET', `/videolibrary/${vl.Id}`);
  await c.call('POST', `/videolibrary/${vl.Id}`, { Name: `${tag}-vl-${i}-renamed` });
  await c.call('GET', '/videolibrary?page=1&perPage=10');
  await c.call('DELETE', `/videolibrary/${vl.Id}`);
  count('video libraries', before);

  before = c.latencies.length;
  const app = json<{ id: string }>(
    await c.call(
      'POST',
      '/mc/apps',
      {
        name: `${tag}-app-${i}`,
        runtimeType: 'shared',
        autoScaling: { min: 1, max: 3 },
        regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
      },
      'container app',
    ),
  );
  await c.call('GET', `/mc/apps/${app.id}`);
  await c.call('PATCH', `/mc/apps/${app.id}`, { name: `${tag}-app-${i}-renamed` });
  await c.call('GET', '/mc/apps?limit=10');
  await c.call('DELETE', `/mc/apps/${app.id}`);
  count('container apps', before);

  before = c.latencies.length;
  const key = json<{ Id: number }>(await c.call('POST', '/apikey', { Roles: ['ReadOnly'] }, 'API key'));
  await c.call('GET', '/apikey?page=1&perPage=10');
  await c.call('DELETE', `/apikey/${key.Id}`);
  count('API keys', before);
}

export interface SessionOptions {
  url: string;
  /** The server's process, for the CPU it spends per request. */
  pid: number;
  bootstrapKey: string;
  tag: string;
  iterations: number;
  /** The captured `GET /pullzone/{id}` answer the ceiling replays (whatever it is asked). */
  captured: CapturedResponse;
  workDir: string;
  /** Settings of the bench's server (the log level), for the second server on an in-memory store. */
  settings: Record<string, string>;
  log: (message: string) => void;
}

export async function measureSession(options: SessionOptions): Promise<SessionReport> {
  const { log } = options;
  log(`session: a new key, then ${options.iterations} x create/read/update/list/delete of every family, one request at a time`);
  const client = new SequentialClient(options.url, options.bootstrapKey);
  const counts: Record<string, number> = {};
  let edgeplane: Latencies;
  let edgeplaneCpuMs: number | null;
  let edgeplaneReads: Latencies;
  let edgeplaneWrites: Latencies;
  let byKind: SessionReport['byKind'];
  try {
    const key = json<{ Key: string }>(await client.call('POST', '/apikey', {}, 'the session key'));
    client.key = key.Key;
    counts['the session key'] = 1;
    const cpuBefore = cpuSeconds(options.pid);
    const started = performance.now();
    for (let i = 0; i < options.iterations; i++) await iteration(client, `${options.tag}s`, i, counts);
    const seconds = (performance.now() - started) / 1000;
    edgeplane = summarize(client.latencies, seconds);
    edgeplaneCpuMs = cpuPerRequestMs(cpuBefore, cpuSeconds(options.pid), client.latencies.length - 1);
    const isRead = client.sent.map((req) => req.method === 'GET');
    edgeplaneReads = summarize(
      client.latencies.filter((_, i) => isRead[i]),
      NaN,
    );
    edgeplaneWrites = summarize(
      client.latencies.filter((_, i) => !isRead[i]),
      NaN,
    );
    byKind = kinds(client.sent, client.latencies);
  } finally {
    client.close();
  }

  // A durable write waits for the disk at least once: its latency now is the writes' floor.
  const fsyncMs = 1000 / syncsPerSecond(options.workDir);
  const inMemory = await sessionInMemory(options);

  const ceiling = await startBaseline(options.captured, options.workDir);
  log(`session: the same ${client.sent.length} requests, one at a time, to the bare node:http ceiling`);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const started = performance.now();
  const ceilingCpuBefore = cpuSeconds(ceiling.pid);
  let ceilingCpuMs: number | null;
  try {
    for (const req of client.sent) {
      const t = performance.now();
      const answer = await send(agent, ceiling.url, req, options.bootstrapKey);
      latencies.push(performance.now() - t);
      if (answer.status !== options.captured.status) throw new Error(`session ceiling answered ${answer.status}`);
    }
    ceilingCpuMs = cpuPerRequestMs(ceilingCpuBefore, cpuSeconds(ceiling.pid), latencies.length);
  } finally {
    agent.destroy();
    await ceiling.stop();
  }
  return {
    iterations: options.iterations,
    requests: client.sent.length,
    families: counts,
    edgeplane,
    edgeplaneReads,
    edgeplaneWrites,
    byKind,
    ceiling: summarize(latencies, (performance.now() - started) / 1000),
    cpuMsPerRequest: { edgeplane: edgeplaneCpuMs, ceiling: ceilingCpuMs },
    fsyncMs,
    inMemory,
    loadAverage: loadavg()[0] ?? 0,
  };
}

/** The same session on a second server whose store is in memory (nothing waits for the disk). */
async function sessionInMemory(options: SessionOptions): Promise<Latencies> {
  options.log('session: the same session on a second server with an in-memory store (sqlite::memory:)');
  const server = await startEdgeplane({ dbFile: ':memory:', bootstrapKey: options.bootstrapKey, settings: options.settings });
  const client = new SequentialClient(server.url, options.bootstrapKey);
  try {
    client.key = json<{ Key: string }>(await client.call('POST', '/apikey', {}, 'the session key')).Key;
    const started = performance.now();
    for (let i = 0; i < options.iterations; i++) await iteration(client, `${options.tag}m`, i, {});
    return summarize(client.latencies, (performance.now() - started) / 1000);
  } finally {
    client.close();
    await server.stop();
  }
}

function cpuPerRequestMs(before: number | null, after: number | null, requests: number): number | null {
  return before === null || after === null || requests === 0 ? null : ((after - before) * 1000) / requests;
}

function kinds(sent: Sent[], latencies: number[]): SessionReport['byKind'] {
  const groups = new Map<string, number[]>();
  sent.forEach((req, i) => {
    const kind = `${req.method} ${req.path.replace(/\/[0-9a-f-]{6,}|\/\d+/g, '/{id}').replace(/\?.*/, '?…')}`;
    const group = groups.get(kind) ?? [];
    group.push(latencies[i]!);
    groups.set(kind, group);
  });
  return [...groups]
    .map(([kind, l]) => ({ kind, requests: l.length, p50: median(l), totalMs: l.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.totalMs - a.totalMs);
}

function summarize(latencies: number[], totalSeconds: number): Latencies {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
  return { p50: median(latencies), p90: at(0.9), p99: at(0.99), max: sorted.at(-1) ?? 0, totalSeconds, count: latencies.length };
}

export const SESSION_HEAD = ['sequential session', 'requests', 'p50 ms', 'x ceiling', 'p90 ms', 'p99 ms', 'max ms', 'total s', 'srv CPU ms/req'];

export function sessionRows(r: SessionReport): string[][] {
  const cpu = (ms: number | null | undefined) => (ms == null ? '' : ms.toFixed(3));
  const row = (label: string, l: Latencies, requests = r.requests, cpuMs?: number | null) => [
    label,
    requests.toLocaleString('en-US'),
    l.p50.toFixed(3),
    `${(l.p50 / r.ceiling.p50).toFixed(2)}x`,
    l.p90.toFixed(3),
    l.p99.toFixed(3),
    l.max.toFixed(1),
    Number.isNaN(l.totalSeconds) ? '' : l.totalSeconds.toFixed(1),
    cpu(cpuMs),
  ];
  return [
    row(`edgeplane: CI-like session (${r.iterations} iterations, every family)`, r.edgeplane, r.requests, r.cpuMsPerRequest.edgeplane),
    row('  of which reads (GET)', r.edgeplaneReads, r.edgeplaneReads.count),
    row('  of which writes (POST, PUT, PATCH, DELETE)', r.edgeplaneWrites, r.edgeplaneWrites.count),
    row('same session, in-memory store (sqlite::memory:)', r.inMemory, r.inMemory.count),
    row('ceiling: bare node:http, same requests', r.ceiling, r.requests, r.cpuMsPerRequest.ceiling),
  ];
}

export function sessionTargets(r: SessionReport): Target[] {
  const share = r.edgeplane.p50 / r.ceiling.p50;
  return [
    {
      target: 'CI-like sequential session: median latency <= 2x the ceiling',
      measured: `${share.toFixed(2)}x (${r.edgeplane.p50.toFixed(3)} ms vs ${r.ceiling.p50.toFixed(3)} ms)`,
      met: share <= 2,
    },
  ];
}

export function renderSession(r: SessionReport): string {
  const families = Object.entries(r.families)
    .map(([family, n]) => `${family} ${n}`)
    .join(', ');
  return [
    `A test suite's day: one client, one connection, one request at a time (load ${r.loadAverage.toFixed(1)}); requests: ${families}`,
    table(SESSION_HEAD, sessionRows(r)),
    `Disk: one 4 KiB append + fdatasync in the store's directory took ${r.fsyncMs.toFixed(3)} ms (every durable write waits for at least one).`,
    `Costliest kinds of request: ${r.byKind
      .slice(0, 8)
      .map((k) => `${k.kind} ${k.requests} x p50 ${k.p50.toFixed(2)} ms`)
      .join('; ')}`,
    ...sessionTargets(r).map((t) => `Target: ${t.target}: ${t.measured}, met: ${t.met ? 'yes' : 'NO'}`),
  ].join('\n');
}
