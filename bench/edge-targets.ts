/**
 * `npx tsx bench/edge-targets.ts [--rounds 5] [--seconds 3] [--only gzip,h2,logs] [--cpu-prof <dir>] [--no-build]`
 *
 * The edge's three per-hit targets, each against its peer in the same round, several rounds, so
 * the spread of a shared machine shows: the 10 KiB stylesheet's gzip hit against Varnish's
 * `do_gzip` hit, the 10 KiB hit over HTTP/2 against a bare node:http2 server, and the hit of a
 * zone forwarding its log lines over UDP (access log on) against a zone with logging off. Each
 * round runs a pair back to back, its order swapped every round; the CPU per hit (the server's
 * CPU time over its answers, every thread) is steadier than req/s when other work shares the
 * cores. `--cpu-prof` writes the edge's V8 profile (read it with bench/profile.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { ACCEPT, CSS_PATH, gzipAnswer } from './edge-compression.js';
import { h2load, startHttp2Ceiling } from './edge-http2.js';
import { startEdgeOrigin } from './edge-origin.js';
import { startVarnish } from './edge-varnish.js';
import { Client } from './seed.js';
import { ensureBuilt, killAll, startEdgeplane } from './server.js';
import { sinkState, startSyslogSink } from './syslog-sink.js';
import * as w from './workloads.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'gzip,h2,logs' },
    'cpu-prof': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const rounds = Number(args.rounds);
const timing: w.Timing = { seconds: Number(args.seconds), warmupSeconds: 0.5 };
const only = new Set(args.only.split(','));
const log = (message: string) => process.stderr.write(`edge-targets: ${message}\n`);

interface Side {
  rps: number;
  /** Server CPU µs per answer. */
  cpuUs: number;
}
type Pair = { ours: Side; theirs: Side };

const side = (rps: number, cpuPercent: number | null | undefined): Side => ({
  rps,
  cpuUs: cpuPercent == null || rps === 0 ? Number.NaN : (cpuPercent / 100 / rps) * 1e6,
});
const fromLoad = (r: w.LoadResult): Side => {
  if (r.errors + r.non2xx > 0) throw new Error(`${r.label}: ${r.errors + r.non2xx} failed requests ${JSON.stringify(r.statusCodes)}`);
  return side(r.rps, r.server?.cpuPercent);
};

process.once('exit', killAll);
process.once('SIGINT', () => process.exit(130));

async function main(): Promise<void> {
  if (!args['no-build']) ensureBuilt();
  const workDir = mkdtempSync(join(tmpdir(), 'edge-targets-'));
  const bootstrapKey = `bench-${randomBytes(16).toString('hex')}`;
  const server = await startEdgeplane({ dbFile: join(workDir, 'bench.db'), bootstrapKey, cpuProfDir: args['cpu-prof'], settings: { LOG_LEVEL: 'warn' } });
  const origin = await startEdgeOrigin();
  const client = new Client(server.url, bootstrapKey);
  const edge = server.planes['edge']!;
  const tag = `t${randomBytes(3).toString('hex')}`;
  const zone = async (name: string, settings: Record<string, unknown>, path = '/obj/hit', headers: Record<string, string> = {}) => {
    const created = await client.call<{ Id: number; Name: string }>('POST', '/pullzone', 201, { Name: `${tag}-${name}`, OriginUrl: origin.url });
    await client.call('POST', `/pullzone/${created.Id}`, 200, settings);
    const host = `${created.Name.toLowerCase()}.edgeplane.test`;
    for (let i = 0; i < 2; i++) {
      const res = await request(`${edge}${path}`, { headers: { host, ...headers } });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`the edge answered ${res.statusCode} for ${host}`);
    }
    return host;
  };
  const load = (path: string, headers: Record<string, string>): w.Load => ({
    name: 'edge-target',
    label: path,
    connections: w.CONNECTIONS,
    requests: [{ method: 'GET', path, headers }],
  });
  const results: Record<string, Pair[]> = {};
  const cases: { name: string; ours: () => Promise<Side>; theirs: () => Promise<Side> }[] = [];
  const stops: (() => Promise<void>)[] = [origin.stop, server.stop];
  try {
    if (only.has('gzip')) {
      const varnish = await startVarnish(workDir, origin.url);
      stops.unshift(varnish.stop);
      const host = await zone('gzip', {}, CSS_PATH, ACCEPT);
      await gzipAnswer(edge, { host });
      await gzipAnswer(varnish.url, {});
      cases.push({
        name: 'gzip hit x Varnish do_gzip',
        ours: async () => fromLoad(await w.runLoad(edge, load(CSS_PATH, { host, ...ACCEPT }), timing, server.pid)),
        theirs: async () => fromLoad(await w.runLoad(varnish.url, load(CSS_PATH, ACCEPT), timing, varnish.workerPid)),
      });
    }
    if (only.has('h2')) {
      const ceiling = await startHttp2Ceiling();
      stops.unshift(ceiling.stop);
      const host = await zone('h2', {});
      const h2 = async (url: string, pid: number) => {
        const r = await h2load(`${url}/obj/hit`, host, timing, url, pid);
        if (r.failed > 0 || !(r.succeeded > 0)) throw new Error(`h2load against ${url}: ${r.failed} failed`);
        return side(r.rps, r.serverCpuPercent);
      };
      cases.push({ name: 'HTTP/2 hit x bare node:http2', ours: () => h2(server.planes['edge-tls']!, server.pid), theirs: () => h2(ceiling.url, ceiling.pid) });
    }
    if (only.has('logs')) {
      const sink = await startSyslogSink();
      stops.unshift(sink.stop);
      const { udpPort } = await sinkState(sink);
      const off = await zone('logs-off', { EnableLogging: false });
      const forwarding = {
        EnableLogging: true,
        LogForwardingEnabled: true,
        LogForwardingProtocol: 0,
        LogForwardingHostname: '127.0.0.1',
        LogForwardingPort: udpPort,
      };
      const fwd = await zone('logs-fwd', forwarding);
      cases.push({
        name: 'forwarded hit x logging off',
        ours: async () => fromLoad(await w.runLoad(edge, load('/obj/hit', { host: fwd }), timing, server.pid)),
        theirs: async () => fromLoad(await w.runLoad(edge, load('/obj/hit', { host: off }), timing, server.pid)),
      });
    }
    for (let round = 0; round < rounds; round++) {
      for (const c of cases) {
        log(`round ${round + 1}/${rounds}: ${c.name}`);
        const first = round % 2 === 0 ? c.ours : c.theirs;
        const second = round % 2 === 0 ? c.theirs : c.ours;
        const a = await first();
        const b = await second();
        (results[c.name] ??= []).push(round % 2 === 0 ? { ours: a, theirs: b } : { ours: b, theirs: a });
      }
    }
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  }
  report(results);
}

function report(results: Record<string, Pair[]>): void {
  const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
  const spread = (xs: number[], digits: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${f(s[Math.floor((s.length - 1) / 2)]!, digits)} (${f(s[0]!, digits)}–${f(s[s.length - 1]!, digits)})`;
  };
  for (const [name, pairs] of Object.entries(results)) {
    console.log(`\n${name}\n| round | edge req/s | peer req/s | ratio | CPU µs per hit, edge / peer |\n|--:|--:|--:|--:|--:|`);
    for (const [i, p] of pairs.entries()) {
      console.log(
        `| ${i + 1} | ${Math.round(p.ours.rps)} | ${Math.round(p.theirs.rps)} | ${f(p.ours.rps / p.theirs.rps, 2)}x | ${f(p.ours.cpuUs)} / ${f(p.theirs.cpuUs)} |`,
      );
    }
    const ratios = pairs.map((p) => p.ours.rps / p.theirs.rps);
    const cpuRatios = pairs.map((p) => p.theirs.cpuUs / p.ours.cpuUs);
    console.log(
      `median (range): ratio ${spread(ratios, 2)}x; CPU edge ${spread(
        pairs.map((p) => p.ours.cpuUs),
        1,
      )} µs, peer ${spread(
        pairs.map((p) => p.theirs.cpuUs),
        1,
      )} µs; peer CPU ÷ edge CPU ${spread(cpuRatios, 2)}x`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
