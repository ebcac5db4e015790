/**
 * `npx tsx bench/edge-targets.ts [--rounds 5] [--seconds 3] [--only gzip,h2,logs] [--before <tree>] [--cpu-prof <dir>] [--no-build]`
 *
 * The edge's three per-hit targets, each against its peer in the same round, several rounds, so
 * the spread of a shared machine shows: the 10 KiB stylesheet's gzip hit against Varnish's
 * `do_gzip` hit, the 10 KiB hit over HTTP/2 against a bare node:http2 server, and the hit of a
 * zone forwarding its log lines over UDP (access log on) against a zone with logging off. Each
 * round runs a pair back to back, its order swapped every round; the CPU per hit (the server's
 * CPU time over its answers, every thread) is steadier than req/s when other work shares the
 * cores. A first round warms every server up and is not counted. `--before <tree>` also runs
 * another checkout's built server (its `dist/bundle/server.js`, built there) in every round beside
 * this one: a before-and-after comparison under the same load. `--cpu-prof` writes the edge's V8
 * profile (read it with bench/profile.ts).
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
    before: { type: 'string' },
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
/** A round of one case: the peer's side, then each edge's (this tree's, and the tree before's with --before). */
type Round = Side[];

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
  const origin = await startEdgeOrigin();
  const stops: (() => Promise<void>)[] = [origin.stop];
  const tag = `t${randomBytes(3).toString('hex')}`;
  const edges: Edge[] = [];
  const results: Record<string, Round[]> = {};
  try {
    for (const [name, serverJs] of [
      ['edge', undefined],
      ['edge before', args.before && join(args.before, 'dist', 'bundle', 'server.js')],
    ] as const) {
      if (name !== 'edge' && serverJs === undefined) continue;
      const bootstrapKey = `bench-${randomBytes(16).toString('hex')}`;
      const cpuProfDir = name === 'edge' ? args['cpu-prof'] : undefined;
      const server = await startEdgeplane({ dbFile: join(workDir, `${edges.length}.db`), bootstrapKey, cpuProfDir, serverJs, settings: { LOG_LEVEL: 'warn' } });
      stops.unshift(server.stop);
      edges.push({ name, server, client: new Client(server.url, bootstrapKey), url: server.planes['edge']! });
    }
    const zone = async (edge: Edge, name: string, settings: Record<string, unknown>, path = '/obj/hit', headers: Record<string, string> = {}) => {
      const created = await edge.client.call<{ Id: number; Name: string }>('POST', '/pullzone', 201, { Name: `${tag}-${name}`, OriginUrl: origin.url });
      await edge.client.call('POST', `/pullzone/${created.Id}`, 200, settings);
      const host = `${created.Name.toLowerCase()}.edgeplane.test`;
      for (let i = 0; i < 2; i++) {
        const res = await request(`${edge.url}${path}`, { headers: { host, ...headers } });
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
    const autocannon = async (url: string, path: string, headers: Record<string, string>, pid: number | undefined) =>
      fromLoad(await w.runLoad(url, load(path, headers), timing, pid));
    /** Each case: its peer's run, then each edge's. */
    const cases: { name: string; peer: string; edges: string[]; sides: (() => Promise<Side>)[] }[] = [];
    if (only.has('gzip')) {
      const varnish = await startVarnish(workDir, origin.url);
      stops.unshift(varnish.stop);
      await gzipAnswer(varnish.url, {});
      const sides = [() => autocannon(varnish.url, CSS_PATH, ACCEPT, varnish.workerPid)];
      for (const edge of edges) {
        const host = await zone(edge, `gzip${edges.indexOf(edge)}`, {}, CSS_PATH, ACCEPT);
        await gzipAnswer(edge.url, { host });
        sides.push(() => autocannon(edge.url, CSS_PATH, { host, ...ACCEPT }, edge.server.pid));
      }
      cases.push({ name: 'gzip hit x Varnish do_gzip', peer: 'Varnish', edges: edges.map((e) => e.name), sides });
    }
    if (only.has('h2')) {
      const ceiling = await startHttp2Ceiling();
      stops.unshift(ceiling.stop);
      const h2 = async (url: string, host: string, pid: number) => {
        const r = await h2load(`${url}/obj/hit`, host, timing, url, pid);
        if (r.failed > 0 || !(r.succeeded > 0)) throw new Error(`h2load against ${url}: ${r.failed} failed`);
        return side(r.rps, r.serverCpuPercent);
      };
      const sides = [() => h2(ceiling.url, 'bare.test', ceiling.pid)];
      for (const edge of edges) {
        const host = await zone(edge, `h2${edges.indexOf(edge)}`, {});
        sides.push(() => h2(edge.server.planes['edge-tls']!, host, edge.server.pid));
      }
      cases.push({ name: 'HTTP/2 hit x bare node:http2', peer: 'bare node:http2', edges: edges.map((e) => e.name), sides });
    }
    if (only.has('logs')) {
      const sink = await startSyslogSink();
      stops.unshift(sink.stop);
      const { udpPort } = await sinkState(sink);
      const forwarding = {
        EnableLogging: true,
        LogForwardingEnabled: true,
        LogForwardingProtocol: 0,
        LogForwardingHostname: '127.0.0.1',
        LogForwardingPort: udpPort,
      };
      for (const edge of edges) {
        const n = edges.indexOf(edge);
        const off = await zone(edge, `logs-off${n}`, { EnableLogging: false });
        const fwd = await zone(edge, `logs-fwd${n}`, forwarding);
        cases.push({
          name: `${edge.name}: forwarded hit x logging off`,
          peer: 'logging off',
          edges: [`${edge.name}, forwarding`],
          sides: [
            () => autocannon(edge.url, '/obj/hit', { host: off }, edge.server.pid),
            () => autocannon(edge.url, '/obj/hit', { host: fwd }, edge.server.pid),
          ],
        });
      }
    }
    for (let round = 0; round <= rounds; round++) {
      for (const c of cases) {
        log(`${round === 0 ? 'warm-up' : `round ${round}/${rounds}`}: ${c.name}`);
        // The order turns every round: none is always first after another case.
        const order = c.sides.map((_, i) => (i + round) % c.sides.length);
        const measured: Side[] = [];
        for (const i of order) measured[i] = await c.sides[i]!();
        if (round > 0) (results[c.name] ??= []).push(measured);
      }
    }
    report(results, cases);
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  }
}

interface Edge {
  name: string;
  server: Awaited<ReturnType<typeof startEdgeplane>>;
  client: Client;
  url: string;
}

function report(results: Record<string, Round[]>, cases: { name: string; peer: string; edges: string[] }[]): void {
  const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
  const spread = (xs: number[], digits: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${f(s[Math.floor((s.length - 1) / 2)]!, digits)} (${f(s[0]!, digits)}–${f(s[s.length - 1]!, digits)})`;
  };
  for (const c of cases) {
    const rounds = results[c.name] ?? [];
    const names = c.edges;
    console.log(`\n${c.name} (CPU: µs per answer, every thread of the server)`);
    console.log(`| round | ${c.peer} req/s (CPU) | ${names.map((n) => `${n} req/s (CPU) | ratio`).join(' | ')} |`);
    console.log(`|--:|--:|${names.map(() => '--:|--:').join('|')}|`);
    for (const [i, r] of rounds.entries()) {
      const peer = r[0]!;
      const cells = r.slice(1).map((e) => `${Math.round(e.rps)} (${f(e.cpuUs)}) | ${f(e.rps / peer.rps, 2)}x`);
      console.log(`| ${i + 1} | ${Math.round(peer.rps)} (${f(peer.cpuUs)}) | ${cells.join(' | ')} |`);
    }
    for (const [k, name] of names.entries()) {
      const ratios = rounds.map((r) => r[k + 1]!.rps / r[0]!.rps);
      const cpuRatios = rounds.map((r) => r[0]!.cpuUs / r[k + 1]!.cpuUs);
      console.log(
        `${name}: ratio median ${spread(ratios, 2)}x; CPU ${spread(
          rounds.map((r) => r[k + 1]!.cpuUs),
          1,
        )} µs against ${spread(
          rounds.map((r) => r[0]!.cpuUs),
          1,
        )} µs; ${c.peer} CPU ÷ ${name} CPU ${spread(cpuRatios, 2)}x`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
