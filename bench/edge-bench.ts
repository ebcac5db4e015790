/**
 * The `edge` workload: a cache hit of a 10 KiB object through the edge plane, against the bare
 * node:http origin sending the same bytes (the ceiling) and against Varnish caching the same
 * origin, same run, 32 connections each; the gzip hit of a 10 KiB stylesheet against Varnish
 * compressing at fetch (edge-compression.ts); the same hit over HTTP/2 against a bare node:http2
 * server (edge-http2.ts); the optimizer's variant hit and resizing miss (edge-optimizer.ts); the hit with log forwarding against logging off (edge-logging.ts); then a miss storm: 1,000 concurrent requests for one uncached key of a
 * zone with EnableRequestCoalescing, and how many reached the origin.
 */
import { request } from 'undici';
import { measureCompressedHits } from './edge-compression.js';
import { measureHttp2Hits } from './edge-http2.js';
import { measureOptimizer } from './edge-optimizer.js';
import { measureLoggedHits } from './edge-logging.js';
import { startEdgeOrigin } from './edge-origin.js';
import type { EdgeReport } from './edge-report.js';
import { startVarnish, type Varnish } from './edge-varnish.js';
import type { Client } from './seed.js';
import type { Child } from './server.js';
import * as w from './workloads.js';

const STORM = 1_000;

export async function measureEdge(
  server: Child,
  client: Client,
  workDir: string,
  timing: w.Timing,
  tag: string,
  log: (message: string) => void,
): Promise<EdgeReport> {
  const edge = server.planes['edge'];
  if (!edge) throw new Error('the edge plane is not listening (no "edgeplane: edge listening on" line)');
  // A few seconds per case: a hit is the same work every time.
  const caseTiming: w.Timing = { seconds: Math.min(timing.seconds, 5), warmupSeconds: Math.min(timing.warmupSeconds, 1) };
  const origin = await startEdgeOrigin();
  let varnish: Varnish | undefined;
  try {
    const zone = await client.call<{ Id: number; Name: string }>('POST', '/pullzone', 201, { Name: `${tag}-edge`, OriginUrl: origin.url });
    const host = `${zone.Name.toLowerCase()}.edgeplane.test`;
    const hit = (name: string, label: string, headers: Record<string, string> = {}): w.Load => ({
      name,
      label,
      connections: w.CONNECTIONS,
      requests: [{ method: 'GET', path: '/obj/hit', headers }],
    });
    const warm = await request(`${edge}/obj/hit`, { headers: { host } });
    await warm.body.arrayBuffer();
    if (warm.statusCode !== 200) throw new Error(`the edge answered ${warm.statusCode} for the bench zone`);

    log(`edge: ceiling, the bare origin sending the 10 KiB object, ${caseTiming.seconds} s`);
    const bare = await w.runLoad(origin.url, hit('edge-ceiling', 'ceiling: bare node:http, 10 KiB'), caseTiming, origin.pid);
    log(`edge: cache hits through the edge plane, ${caseTiming.seconds} s`);
    const ours = await w.runLoad(edge, hit('edge-hit', 'edge: cache HIT, 10 KiB', { host }), caseTiming, server.pid);
    log('edge: starting Varnish');
    varnish = await startVarnish(workDir, origin.url);
    log(`edge: cache hits through Varnish, ${caseTiming.seconds} s`);
    // Server figures from varnishd's cache process, the child of the one started.
    const theirs = await w.runLoad(varnish.url, hit('edge-varnish', 'Varnish: cache HIT, 10 KiB'), caseTiming, varnish.workerPid);
    const compressed = await measureCompressedHits({ url: edge, host, pid: server.pid }, { url: varnish.url, pid: varnish.workerPid }, caseTiming, log);
    const edgeTls = server.planes['edge-tls'];
    if (!edgeTls) throw new Error('the edge TLS plane is not listening (no "edgeplane: edge-tls listening on" line)');
    const http2 = await measureHttp2Hits(edgeTls, host, server.pid, caseTiming, log);
    const logged = await measureLoggedHits({ url: edge, pid: server.pid }, client, origin.url, tag, caseTiming, log);

    const optimizer = await measureOptimizer(client, { url: edge, pid: server.pid }, origin.url, tag, caseTiming, timing.seconds < 10 ? 10 : 30, log);

    log(`edge: miss storm, ${STORM} concurrent requests for one key (EnableRequestCoalescing)`);
    const storm = await missStorm(client, edge, origin.url, `${tag}-storm`);
    return {
      objectBytes: 10 * 1024,
      connections: w.CONNECTIONS,
      seconds: caseTiming.seconds,
      bare,
      edge: ours,
      varnish: theirs,
      compressed,
      storm,
      http2,
      optimizer,
      logged,
    };
  } finally {
    await varnish?.stop();
    await origin.stop();
  }
}

async function missStorm(client: Client, edge: string, originUrl: string, name: string): Promise<EdgeReport['storm']> {
  const zone = await client.call<{ Id: number; Name: string }>('POST', '/pullzone', 201, { Name: name, OriginUrl: originUrl });
  await client.call('POST', `/pullzone/${zone.Id}`, 200, { EnableRequestCoalescing: true });
  const host = `${zone.Name.toLowerCase()}.edgeplane.test`;
  const path = `/slow/storm-${Date.now()}`;
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: STORM }, async () => {
      try {
        const res = await request(`${edge}${path}`, { headers: { host } });
        await res.body.arrayBuffer();
        return res.statusCode;
      } catch {
        return 0;
      }
    }),
  );
  const ms = performance.now() - started;
  const counted = await request(`${originUrl}/_count?path=${encodeURIComponent(path)}`);
  const originRequests = Number(await counted.body.text());
  return { requests: STORM, ok: statuses.filter((s) => s === 200).length, originRequests, ms };
}
