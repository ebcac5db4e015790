/**
 * The edge workload's logging part: the 10 KiB cache hit of a zone whose logging is off, against
 * the same hit of a zone with its access log, and of one that also forwards every line as syslog
 * over UDP to a local collector (syslog-sink.ts, a process of its own), same run, 32 connections
 * each, alternated twice (the better run of each kept). The collector's count says the lines went out.
 */
import { request } from 'undici';
import { cpuPerHit } from './edge-compression.js';
import type { Client } from './seed.js';
import { sinkState, startSyslogSink } from './syslog-sink.js';
import * as w from './workloads.js';

export interface LoggedHits {
  off: w.LoadResult;
  /** The access log alone (EnableLogging, no forwarding): what forwarding adds is the difference to `forwarded`. */
  logged: w.LoadResult;
  forwarded: w.LoadResult;
  /** Datagrams the collector received during the forwarded runs, and the answers measured in them. */
  received: number;
  answered: number;
}

const TARGET = 0.9;
const PATH = '/obj/hit';

export async function measureLoggedHits(
  edge: { url: string; pid: number },
  client: Client,
  origin: string,
  tag: string,
  timing: w.Timing,
  log: (message: string) => void,
): Promise<LoggedHits> {
  const sink = await startSyslogSink();
  try {
    const { udpPort } = await sinkState(sink);
    const off = await zone(client, edge.url, `${tag}-logs-off`, origin, { EnableLogging: false });
    const logged = await zone(client, edge.url, `${tag}-logs-on`, origin, { EnableLogging: true });
    const forwarded = await zone(client, edge.url, `${tag}-logs-fwd`, origin, {
      EnableLogging: true,
      LogForwardingEnabled: true,
      LogForwardingProtocol: 0,
      LogForwardingHostname: '127.0.0.1',
      LogForwardingPort: udpPort,
    });
    const load = (name: string, label: string, host: string): w.Load => ({
      name,
      label,
      connections: w.CONNECTIONS,
      requests: [{ method: 'GET', path: PATH, headers: { host } }],
    });
    // Alternated, twice each, the better run of each kept (the first case measured after the
    // other workloads ran slow in every run on a loaded machine, whichever it was).
    let offHits: w.LoadResult | undefined;
    let loggedHits: w.LoadResult | undefined;
    let forwardedHits: w.LoadResult | undefined;
    let received = 0;
    let answered = 0;
    for (let round = 0; round < 2; round++) {
      log(`edge: cache hits of a zone with logging off, ${timing.seconds} s`);
      offHits = w.betterRun(offHits, await w.runLoad(edge.url, load('edge-logs-off', 'edge: HIT, logging off', off), timing, edge.pid));
      log(`edge: cache hits of a zone with its access log, ${timing.seconds} s`);
      loggedHits = w.betterRun(loggedHits, await w.runLoad(edge.url, load('edge-logs-on', 'edge: HIT, access log', logged), timing, edge.pid));
      const before = (await sinkState(sink)).received;
      log(`edge: cache hits of a zone forwarding its lines over UDP, ${timing.seconds} s`);
      const run = await w.runLoad(edge.url, load('edge-logs-forwarded', 'edge: HIT, logged + forwarded (UDP)', forwarded), timing, edge.pid);
      forwardedHits = w.betterRun(forwardedHits, run);
      // The last lines leave within the forwarder's pace (50 ms).
      await new Promise((resolve) => setTimeout(resolve, 500));
      received += (await sinkState(sink)).received - before;
      answered += run.responses;
    }
    return { off: offHits!, logged: loggedHits!, forwarded: forwardedHits!, received, answered };
  } finally {
    await sink.stop();
  }
}

/** A zone with `settings` whose object is in the edge's cache: its host. */
async function zone(client: Client, edge: string, name: string, origin: string, settings: Record<string, unknown>): Promise<string> {
  const created = await client.call<{ Id: number; Name: string }>('POST', '/pullzone', 201, { Name: name, OriginUrl: origin });
  await client.call('POST', `/pullzone/${created.Id}`, 200, settings);
  const host = `${created.Name.toLowerCase()}.edgeplane.test`;
  for (let i = 0; i < 2; i++) {
    const res = await request(`${edge}${PATH}`, { headers: { host } });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`the edge answered ${res.statusCode} for ${host}`);
  }
  return host;
}

export function renderLogged(l: LoggedHits): string[] {
  const row = (r: w.LoadResult) =>
    `| ${r.label} | ${int(r.rps)} | ${(r.rps / l.off.rps).toFixed(2)}x | ${r.latencyMs.p50.toFixed(2)} | ${r.latencyMs.p99.toFixed(2)} | ${r.errors + r.non2xx} | ${r.server?.cpuPercent == null ? '-' : `${Math.round(r.server.cpuPercent)}%`} | ${cpuPerHit(r)} |`;
  return [
    `Edge: cache hits with log forwarding (syslog over UDP to a local collector) against logging off, ${l.off.connections} connections, same run`,
    '| | req/s | x off | p50 ms | p99 ms | failed | srv CPU | CPU µs per hit |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row(l.off),
    row(l.logged),
    row(l.forwarded),
    `The collector received ${int(l.received)} lines for ${int(l.answered)} answers measured in the forwarded runs (and their warm-ups'); each case run twice, alternated, the better run kept.`,
  ];
}

export function loggedTargets(l: LoggedHits): { target: string; measured: string; met: boolean }[] {
  const share = l.forwarded.rps / l.off.rps;
  return [
    {
      target: `edge hits with log forwarding >= ${TARGET}x the hits with logging off`,
      measured: `${share.toFixed(2)}x (${int(l.forwarded.rps)} vs ${int(l.off.rps)} req/s)`,
      met: share >= TARGET,
    },
  ];
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
