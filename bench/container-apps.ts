/**
 * Container applications through the edge (issue 43): the built server with podman as its
 * container runtime, the test image (a small static HTTP server, test/helpers/container-image.ts)
 * pushed to a local registry and deployed through `POST /mc/apps` with a CDN endpoint. Measures the
 * time from the `POST` to the first answer through the edge, then the same container's requests
 * through the edge against the container reached directly on its published port, alternately in
 * the same run (the edge passes every request on: the server's answers carry no freshness).
 *
 *   npx tsx bench/container-apps.ts [--seconds 5] [--connections 10] [--cpu-prof DIR]
 *
 * `--cpu-prof DIR`: the server writes a V8 CPU profile there when it stops.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { podmanUnavailable, startRegistryWithImage, testTemplate } from '../test/helpers/container-image.js';
import { startBareProxy } from './bare-proxy.js';
import { cpuSeconds } from './proc.js';
import { ensureBuilt, killAll, startEdgeplane } from './server.js';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' }, 'cpu-prof': { type: 'string' } },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);

async function api(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { AccessKey: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU (user + system) the proxying process spent per request, µs. */
  cpuUs: number | undefined;
}

async function measure(url: string, host: string | undefined, proxyPid?: number): Promise<Measured> {
  const cpuBefore = proxyPid === undefined ? null : cpuSeconds(proxyPid);
  const result = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ url, connections, duration: seconds, headers: host ? { host } : {} }, (error, done) => (error ? reject(error) : resolve(done))),
  );
  const cpuAfter = proxyPid === undefined ? null : cpuSeconds(proxyPid);
  const cpuUs = cpuBefore === null || cpuAfter === null ? undefined : ((cpuAfter - cpuBefore) * 1e6) / Math.max(1, result.requests.total);
  return {
    cpuUs,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function main(): Promise<void> {
  const unavailable = await podmanUnavailable(0);
  if (unavailable) throw new Error(unavailable);
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-bench-containers-'));
  const key = `bench-${randomBytes(16).toString('hex')}`;
  const registry = await startRegistryWithImage('bench');
  const server = await startEdgeplane({
    dbFile: join(dir, 'bench.db'),
    bootstrapKey: key,
    cpuProfDir: args['cpu-prof'],
    settings: { EDGEPLANE_CONTAINER_RUNTIME: 'podman', EDGEPLANE_CONTAINER_RECONCILE_MS: '1000', LOG_LEVEL: 'warn' },
  });
  try {
    const edge = server.planes['edge'];
    if (!edge) throw new Error('the edge plane did not start');
    const reg = await api(server.url, key, 'POST', '/mc/registries', { displayName: 'local', type: 'vendorRegistry', hostName: `http://${registry.host}` });
    const started = performance.now();
    const created = await api(server.url, key, 'POST', '/mc/apps', {
      name: 'bench',
      runtimeType: 'reserved',
      autoScaling: { min: 1, max: 1 },
      regionSettings: {},
      containerTemplates: [testTemplate(reg.body.id, registry)],
    });
    if (created.status !== 201) throw new Error(`POST /mc/apps: ${created.status} ${JSON.stringify(created.body)}`);
    const appId = created.body.id as string;
    const host = (await api(server.url, key, 'GET', `/mc/apps/${appId}`)).body.containerTemplates[0].endpoints[0].publicHost as string;
    // node:http, not fetch: fetch will not send a Host header of the caller's.
    const status = () =>
      new Promise<number>((resolve) => {
        const req = get(`${edge}/`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.once('error', () => resolve(0));
      });
    while ((await status()) !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    const firstAnswerMs = performance.now() - started;
    const name = execFileSync('podman', ['ps', '--filter', `label=io.edgeplane.app=${appId}`, '--format', '{{.Names}}'])
      .toString()
      .trim();
    const direct = `http://${execFileSync('podman', ['port', name, '8080']).toString().trim()}/`;
    const proxy = await startBareProxy(direct);
    const rounds: Record<'direct' | 'proxy' | 'edge', Measured>[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        rounds.push({
          direct: await measure(direct, undefined),
          proxy: await measure(`${proxy.url}/`, undefined, proxy.pid),
          edge: await measure(`${edge}/`, host, server.pid),
        });
      }
    } finally {
      await proxy.stop();
    }
    const load = loadavg()[0]!.toFixed(1);
    process.stdout.write(`POST /mc/apps -> first answer through the edge: ${firstAnswerMs.toFixed(0)} ms (load ${load})\n\n`);
    process.stdout.write(
      `| round | direct req/s | bare Node proxy req/s | edge req/s | proxy / direct | edge / direct | edge / proxy | direct p50/p99 ms | proxy p50/p99 ms | edge p50/p99 ms | proxy / edge CPU µs per request | failed |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n`,
    );
    rounds.forEach((r, i) => {
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
      process.stdout.write(
        `| ${i + 1} | ${r.direct.rps.toFixed(0)} | ${r.proxy.rps.toFixed(0)} | ${r.edge.rps.toFixed(0)} | ${ratio(r.proxy.rps, r.direct.rps)} | ${ratio(r.edge.rps, r.direct.rps)} | ${ratio(r.edge.rps, r.proxy.rps)} | ${r.direct.p50}/${r.direct.p99} | ${r.proxy.p50}/${r.proxy.p99} | ${r.edge.p50}/${r.edge.p99} | ${r.proxy.cpuUs?.toFixed(0)} / ${r.edge.cpuUs?.toFixed(0)} | ${r.direct.errors + r.proxy.errors + r.edge.errors} |\n`,
      );
    });
    await api(server.url, key, 'DELETE', `/mc/apps/${appId}`);
    // The delete is acted on by the server's supervisor: wait for its containers to go.
    for (let i = 0; i < 300; i++) {
      if (
        execFileSync('podman', ['ps', '-a', '--filter', `label=io.edgeplane.app=${appId}`, '-q'])
          .toString()
          .trim() === ''
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await server.stop();
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  killAll();
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
