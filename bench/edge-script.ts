/**
 * Edge scripts: a trivial standalone script's answer through the edge against the same code run
 * directly by Deno (`deno serve`), in the same run, alternating, at the same concurrency; and the
 * cold start of a script's first request (publish to first answer, and the process's own start).
 * The answer is `no-store`, so every request runs the script. The ceiling of any edge in Node:
 * a bare node:http reverse proxy (bench/bare-proxy.ts: one keep-alive agent, nothing else) in
 * front of the same `deno serve`, same rounds; and the ceiling of any HTTP server in Node: a bare
 * node:http server answering the same text itself (no proxying at all), same rounds.
 * Run: `npx tsx bench/edge-script.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { startBareProxy } from './bare-proxy.js';
import { request } from 'undici';
import { readConfig } from '../src/config.js';
import { packageRoot } from '../src/package-root.js';
import { processCpuMs } from '../src/domain/edge/scripts/runtime/cpu-usage.js';
import { denoBinary } from '../src/domain/edge/scripts/runtime/script-process.js';
import { createEdgeCore } from '../src/planes/edge/core.js';
import { listenEdge } from '../src/planes/edge/listen.js';
import { buildRuntime } from '../src/runtime.js';
import { openStore } from '../src/store/open.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
/** A file name prefix: the edge's process is profiled while it is loaded (bench/profile.ts reads the files). */
const PROFILE = process.env['BENCH_PROFILE'];
const COLD_STARTS = Number(process.env['BENCH_COLD_STARTS'] ?? 3);
/** EDGEPLANE_EDGE_SCRIPT_NETWORK of the run (`namespace`: each script's process in a network namespace of its own). */
const NETWORK = process.env['BENCH_SCRIPT_NETWORK'] === 'namespace' ? 'namespace' : 'deny-list';

const HANDLER = `(request) => new Response("hello from the edge", { headers: { "content-type": "text/plain", "cache-control": "no-store" } })`;
/**
 * `BENCH_SCRIPT_FETCH=1`: the script answers what it fetched from the plain origin (one subrequest
 * a request), to measure a script's fetch (through the egress with `BENCH_SCRIPT_NETWORK=namespace`).
 */
const FETCHING = process.env['BENCH_SCRIPT_FETCH'] === '1';
const scriptCode = (originUrl: string) =>
  `import * as BunnySDK from "https://esm.sh/@bunny.net/edgescript-sdk@0.11.2";\nBunnySDK.net.http.serve(${
    FETCHING ? `async () => new Response(await (await fetch(${JSON.stringify(originUrl)})).text(), { headers: { "cache-control": "no-store" } })` : HANDLER
  });\n`;
const DENO_SERVE = `export default { fetch: ${HANDLER} };\n`;

/** autocannon in a process of its own (as `deno serve` is): in the edge's process it would take the edge's CPU. */
function load(url: string, host?: string): Promise<autocannon.Result> {
  const bin = join(packageRoot(), 'node_modules', 'autocannon', 'autocannon.js');
  const args = [bin, '--json', '-c', String(CONNECTIONS), '-d', String(SECONDS), ...(host ? ['-H', `host=${host}`] : []), url];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        resolve(JSON.parse(out) as autocannon.Result);
      } catch {
        reject(new Error(`autocannon exited ${code}: ${out.slice(0, 500)}`));
      }
    });
  });
}

async function startProfile(): Promise<{ stop: (file: string) => Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async (file) => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** A bare node:http server answering the script's text: the origin of the control zone. */
async function startPlainOrigin(): Promise<{ url: string; child: ChildProcess }> {
  const code = `require('http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store', 'content-length': 19 }); s.end('hello from the edge'); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (text: Buffer) => resolve(text.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, child };
}

async function startDenoServe(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const file = join(dir, 'serve.js');
  writeFileSync(file, DENO_SERVE);
  const child = spawn(denoBinary(), ['serve', '--no-config', '--host', '127.0.0.1', '--port', '0', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (text: Buffer) => {
      out += text.toString();
      const found = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (found) resolve(`http://127.0.0.1:${found[1]}/`);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`deno serve exited: ${out}`)));
  });
  return { url, child };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-bench-scripts-'));
  // The startup bound raised: on a loaded machine Deno's start alone can pass the platform's 500 ms; the bench reports what it took.
  const config = readConfig(
    {},
    { databaseUrl: `sqlite:${join(dir, 'bench.db')}`, edgeScriptStartupMs: 10_000, edgeScriptCacheDir: join(dir, 'deno-cache'), edgeScriptNetwork: NETWORK },
  );
  const store = await openStore(config);
  const masterKey = randomBytes(32);
  const runtime = buildRuntime({ config, store, masterKey });
  const { services } = runtime;
  const account = await services.accounts.create('bench');
  const principal = { accountId: account.account.id, keyId: 0, keyKind: 'personal' as const, roles: ['FullAccess'] };
  const edge = await listenEdge(createEdgeCore(services, { cdnDomain: config.cdnDomain, cacheBytes: 1 << 26, logError: console.error }), '127.0.0.1', 0);
  const origin = await startPlainOrigin();
  const SCRIPT = scriptCode(origin.url);
  const script = await services.edgeScripts.scripts.create(principal, {
    Name: 'bench',
    Code: SCRIPT,
    ScriptType: 1,
    CreateLinkedPullZone: true,
    LinkedPullZoneName: 'bench-script',
  });
  const host = `bench-script.${config.cdnDomain}`;
  // The control: the same answer from a bare node:http origin, passed through the edge (a no-store miss).
  await services.pullZones.create(principal, { Name: 'bench-plain', OriginUrl: origin.url } as Parameters<typeof services.pullZones.create>[1]);
  const plainHost = `bench-plain.${config.cdnDomain}`;
  const edgeUrl = `${edge.url}/`;

  // Cold start: publish, then a fresh instance's first request (the process starts for it); with
  // Deno's cache as a restarted instance finds it (kept from the runs before), and with an empty one
  // (the first script an installation ever runs).
  type ColdStart = { firstAnswerMs: number; processStartMs: number };
  const coldStarts: ColdStart[] = [];
  const coldStartsEmptyCache: ColdStart[] = [];
  let edits = 0;
  const coldStart = async (cacheDir: string): Promise<ColdStart> => {
    await services.edgeScripts.scripts.setCode(principal, script.Id, `${SCRIPT}// ${++edits}\n`);
    await services.edgeScripts.scripts.publish(principal, script.Id, null);
    const fresh = buildRuntime({ config: { ...config, edgeScriptCacheDir: cacheDir }, store, masterKey });
    const edgeFresh = await listenEdge(
      createEdgeCore(fresh.services, { cdnDomain: config.cdnDomain, cacheBytes: 1 << 20, logError: console.error }),
      '127.0.0.1',
      0,
    );
    const started = performance.now();
    const answer = await request(`${edgeFresh.url}/`, { headers: { host } });
    const text = await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`cold start: ${answer.statusCode} ${text}`);
    const measured = { firstAnswerMs: performance.now() - started, processStartMs: fresh.services.edgeScripts.runtime.startMsOf(script.Id) ?? Number.NaN };
    await edgeFresh.close();
    await fresh.close();
    return measured;
  };
  const sharedCache = config.edgeScriptCacheDir!;
  if (COLD_STARTS > 0) await coldStart(sharedCache); // fills the kept cache, as an earlier run would have
  for (let i = 0; i < COLD_STARTS; i++) {
    coldStartsEmptyCache.push(await coldStart(join(dir, `deno-cache-empty-${i}`)));
    coldStarts.push(await coldStart(sharedCache));
    console.error(
      `bench: cold start ${i + 1}: ${Math.round(coldStarts.at(-1)!.firstAnswerMs)} ms, with an empty cache ${Math.round(coldStartsEmptyCache.at(-1)!.firstAnswerMs)} ms`,
    );
  }

  if (COLD_STARTS === 0) await services.edgeScripts.scripts.publish(principal, script.Id, null);
  const idleBefore = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = process.cpuUsage(idleBefore);
  console.error(`bench: the edge's process idle: ${Math.round((idle.user + idle.system) / 2000)} ms of CPU a second`);
  const deno = await startDenoServe(dir);
  console.error(`bench: deno serve at ${deno.url}`);
  const proxy = await startBareProxy(deno.url);
  // Warm them all.
  await load(edgeUrl, host);
  await load(deno.url);
  await load(`${proxy.url}/`);
  await load(edgeUrl, plainHost);
  const edgeRps: number[] = [];
  const denoRps: number[] = [];
  const edgeP99: number[] = [];
  const denoP99: number[] = [];
  const edgeCpuUs: number[] = [];
  const scriptCpuUs: number[] = [];
  const plainRps: number[] = [];
  const plainCpuUs: number[] = [];
  const proxyRps: number[] = [];
  const nodeServerRps: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const profiling = PROFILE ? await startProfile() : undefined;
    const cpuBefore = process.cpuUsage();
    const scriptPid = runtime.services.edgeScripts.runtime.pidOf(script.Id);
    const scriptCpuBefore = scriptPid === undefined ? undefined : await processCpuMs(scriptPid);
    const e = await load(edgeUrl, host);
    const cpu = process.cpuUsage(cpuBefore);
    const scriptCpuAfter = scriptPid === undefined ? undefined : await processCpuMs(scriptPid);
    if (scriptCpuBefore !== undefined && scriptCpuAfter !== undefined)
      scriptCpuUs.push(Math.round(((scriptCpuAfter - scriptCpuBefore) * 1000) / e.requests.total));
    if (profiling) await profiling.stop(`${PROFILE}-${round}.cpuprofile`);
    edgeCpuUs.push(Math.round((cpu.user + cpu.system) / e.requests.total));
    console.error(`bench: edge CPU per request: user ${Math.round(cpu.user / e.requests.total)} µs, system ${Math.round(cpu.system / e.requests.total)} µs`);
    if (e.non2xx > 0 || e.errors > 0) throw new Error(`edge: ${e.non2xx} non-2xx, ${e.errors} errors`);
    const d = await load(deno.url);
    const bare = await load(`${proxy.url}/`);
    if (bare.non2xx > 0 || bare.errors > 0) throw new Error(`bare proxy: ${bare.non2xx} non-2xx, ${bare.errors} errors`);
    proxyRps.push(bare.requests.average);
    const server = await load(`${origin.url}/`);
    if (server.non2xx > 0 || server.errors > 0) throw new Error(`bare node:http server: ${server.non2xx} non-2xx, ${server.errors} errors`);
    nodeServerRps.push(server.requests.average);
    const plainCpuBefore = process.cpuUsage();
    const p = await load(edgeUrl, plainHost);
    const plainCpu = process.cpuUsage(plainCpuBefore);
    if (p.non2xx > 0 || p.errors > 0) throw new Error(`plain origin: ${p.non2xx} non-2xx, ${p.errors} errors`);
    plainRps.push(p.requests.average);
    plainCpuUs.push(Math.round((plainCpu.user + plainCpu.system) / p.requests.total));
    edgeRps.push(e.requests.average);
    edgeP99.push(e.latency.p99);
    denoRps.push(d.requests.average);
    denoP99.push(d.latency.p99);
  }
  deno.child.kill();
  await proxy.stop();
  origin.child.kill();
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const ratio = sum(edgeRps) / sum(denoRps);
  console.log(
    JSON.stringify(
      {
        load: loadavg().map((l) => Number(l.toFixed(2))),
        connections: CONNECTIONS,
        seconds: SECONDS,
        edge: { rps: edgeRps.map(Math.round), p99Ms: edgeP99, cpuUsPerRequest: edgeCpuUs, scriptProcessCpuUsPerRequest: scriptCpuUs },
        denoServe: { rps: denoRps.map(Math.round), p99Ms: denoP99 },
        ratio: Number(ratio.toFixed(2)),
        bareNodeProxyToDenoServe: {
          rps: proxyRps.map(Math.round),
          ratioToDenoServe: Number((sum(proxyRps) / sum(denoRps)).toFixed(2)),
          edgeRatioToBareProxy: Number((sum(edgeRps) / sum(proxyRps)).toFixed(2)),
        },
        bareNodeServer: {
          rps: nodeServerRps.map(Math.round),
          ratioToDenoServe: Number((sum(nodeServerRps) / sum(denoRps)).toFixed(2)),
        },
        plainOriginThroughEdge: {
          rps: plainRps.map(Math.round),
          cpuUsPerRequest: plainCpuUs,
          ratioToDenoServe: Number((sum(plainRps) / sum(denoRps)).toFixed(2)),
        },
        coldStarts: coldStarts.map((c) => ({ firstAnswerMs: Math.round(c.firstAnswerMs), processStartMs: Math.round(c.processStartMs) })),
        coldStartsEmptyCache: coldStartsEmptyCache.map((c) => ({ firstAnswerMs: Math.round(c.firstAnswerMs), processStartMs: Math.round(c.processStartMs) })),
      },
      null,
      2,
    ),
  );
  await edge.close();
  await runtime.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

const watchdog = setTimeout(() => {
  console.error('bench: timed out');
  process.exit(2);
}, 600_000);
await main();
clearTimeout(watchdog);
