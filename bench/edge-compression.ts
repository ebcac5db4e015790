/**
 * The edge workload's compressed hit: a 10 KiB stylesheet's cache hit for a client that accepts
 * gzip, through the edge plane (which compressed its copy once, on the first request wanting gzip)
 * and through Varnish (which gzipped it once at fetch, `beresp.do_gzip`), same run, 32 connections
 * each. Both answers are checked first: gzip, and the stylesheet once decoded.
 */
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { OBJECT_BYTES, stylesheet } from './edge-origin.js';
import * as w from './workloads.js';

export interface CompressedHits {
  /** Bytes of the gzip answer each sends. */
  edgeBytes: number;
  varnishBytes: number;
  edge: w.LoadResult;
  varnish: w.LoadResult;
}

export const CSS_PATH = '/css/site.css';
const PATH = CSS_PATH;
export const ACCEPT = { 'accept-encoding': 'gzip, deflate, br;q=0' };
const TARGET = 1.0;

export async function measureCompressedHits(
  edge: { url: string; host: string; pid: number },
  varnish: { url: string; pid: number | undefined },
  timing: w.Timing,
  log: (message: string) => void,
): Promise<CompressedHits> {
  const edgeBytes = await gzipAnswer(edge.url, { host: edge.host });
  const varnishBytes = await gzipAnswer(varnish.url, {});
  const load = (name: string, label: string, headers: Record<string, string>): w.Load => ({
    name,
    label,
    connections: w.CONNECTIONS,
    requests: [{ method: 'GET', path: PATH, headers: { ...headers, ...ACCEPT } }],
  });
  log(`edge: gzip cache hits of a 10 KiB stylesheet through the edge plane, ${timing.seconds} s`);
  const ours = await w.runLoad(edge.url, load('edge-gzip-hit', 'edge: gzip HIT, 10 KiB CSS', { host: edge.host }), timing, edge.pid);
  log(`edge: gzip cache hits through Varnish (do_gzip), ${timing.seconds} s`);
  const theirs = await w.runLoad(varnish.url, load('edge-gzip-varnish', 'Varnish: gzip HIT (do_gzip), 10 KiB CSS', {}), timing, varnish.pid);
  return { edgeBytes, varnishBytes, edge: ours, varnish: theirs };
}

/** Fetches the stylesheet twice (the second a hit) and checks it comes gzipped and decodes to the origin's bytes: its length. */
export async function gzipAnswer(url: string, headers: Record<string, string>): Promise<number> {
  let body = Buffer.alloc(0);
  for (let i = 0; i < 2; i++) {
    const res = await request(`${url}${PATH}`, { headers: { ...headers, ...ACCEPT } });
    body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200 || res.headers['content-encoding'] !== 'gzip') {
      throw new Error(`${url} answered the stylesheet ${res.statusCode} with Content-Encoding ${String(res.headers['content-encoding'])}, not gzip`);
    }
  }
  if (!gunzipSync(body).equals(stylesheet(OBJECT_BYTES))) throw new Error(`${url}: the gzip answer does not decode to the stylesheet`);
  return body.length;
}

export function renderCompressed(c: CompressedHits): string[] {
  const row = (r: w.LoadResult, bytes: number) =>
    `| ${r.label} | ${int(r.rps)} | ${(r.rps / c.varnish.rps).toFixed(2)}x | ${bytes} B | ${r.latencyMs.p50.toFixed(2)} | ${r.latencyMs.p99.toFixed(2)} | ${r.errors + r.non2xx} | ${r.server?.cpuPercent == null ? '-' : `${Math.round(r.server.cpuPercent)}%`} | ${cpuPerHit(r)} |`;
  return [
    `Edge: gzip cache hits of a ${OBJECT_BYTES / 1024} KiB stylesheet (client accepts gzip), ${c.edge.connections} connections, same run`,
    '| | req/s | x Varnish | answer | p50 ms | p99 ms | failed | srv CPU | CPU µs per hit |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row(c.edge, c.edgeBytes),
    row(c.varnish, c.varnishBytes),
  ];
}

export function compressedTargets(c: CompressedHits): { target: string; measured: string; met: boolean }[] {
  const share = c.edge.rps / c.varnish.rps;
  return [
    {
      target: `edge gzip hits >= ${TARGET.toFixed(1)}x Varnish compressing at fetch (do_gzip)`,
      measured: `${share.toFixed(2)}x (${int(c.edge.rps)} vs ${int(c.varnish.rps)} req/s)`,
      met: share >= TARGET,
    },
  ];
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
/** The server's CPU time per answer: what a hit costs, whatever share of the machine the server got. */
export const cpuPerHit = (r: w.LoadResult) => (r.server?.cpuPercent == null || r.rps === 0 ? '-' : ((r.server.cpuPercent / 100 / r.rps) * 1e6).toFixed(1));
