/**
 * The edge workload's optimizer: a cached variant's hit (`/img/photo.jpg?width=400`, made once from
 * a 2000x1500 JPEG) against a plain hit of the same bytes (`/img/photo-400.jpg`, the origin's own
 * 400-px copy, through a zone without the optimizer), same run, 32 connections each, alternated
 * twice (the better run of each kept); then misses
 * that each resize the 2000x1500 JPEG to 400 px (one at a time, each a variant of its own, the
 * original in the cache) against the same resize by sharp alone, in a loop in this process.
 */
import { request } from 'undici';
import sharp from 'sharp';
import { PHOTO_HEIGHT, PHOTO_WIDTH, photo } from './edge-origin.js';
import type { Client } from './seed.js';
import * as w from './workloads.js';

export interface OptimizerBench {
  variantBytes: number;
  plainBytes: number;
  variant: w.LoadResult;
  plain: w.LoadResult;
  /** Milliseconds per resize: through the edge (a miss: the variant made from the cached original, answered) and by sharp alone. */
  missMs: number;
  aloneMs: number;
  /** Milliseconds per hit of the variant, one at a time beside the misses: the round trip a miss pays too. */
  hitMs: number;
  resizes: number;
}

const HIT_TARGET = 0.9;
const MISS_TARGET = 1.3;

export async function measureOptimizer(
  client: Client,
  edge: { url: string; pid: number },
  originUrl: string,
  tag: string,
  timing: w.Timing,
  resizes: number,
  log: (message: string) => void,
): Promise<OptimizerBench> {
  const zone = async (name: string, settings: Record<string, unknown>) => {
    const created = await client.call<{ Id: number; Name: string }>('POST', '/pullzone', 201, { Name: name, OriginUrl: originUrl });
    await client.call('POST', `/pullzone/${created.Id}`, 200, settings);
    return `${created.Name.toLowerCase()}.edgeplane.test`;
  };
  const optimized = await zone(`${tag}-optimizer`, { OptimizerEnabled: true });
  const plain = await zone(`${tag}-plain-images`, { OptimizerEnabled: false });
  const variantBytes = await widthOf(edge.url, optimized, '/img/photo.jpg?width=400');
  const plainBytes = await widthOf(edge.url, plain, '/img/photo-400.jpg');
  const load = (name: string, label: string, host: string, path: string): w.Load => ({
    name,
    label,
    connections: w.CONNECTIONS,
    requests: [{ method: 'GET', path, headers: { host } }],
  });
  // Alternated, twice each, the better run of each kept: the machine's other work falls on one run, not on one side.
  let variant: w.LoadResult | undefined;
  let plainHit: w.LoadResult | undefined;
  for (let round = 0; round < 2; round++) {
    log(`edge: cache hits of a 400-px variant, ${timing.seconds} s`);
    variant = w.betterRun(
      variant,
      await w.runLoad(edge.url, load('edge-variant-hit', 'edge: variant HIT (?width=400)', optimized, '/img/photo.jpg?width=400'), timing, edge.pid),
    );
    log(`edge: plain cache hits of the same image, ${timing.seconds} s`);
    plainHit = w.betterRun(
      plainHit,
      await w.runLoad(edge.url, load('edge-image-hit', 'edge: plain HIT (400-px JPEG)', plain, '/img/photo-400.jpg'), timing, edge.pid),
    );
  }

  log(`edge: ${resizes} misses resizing a ${PHOTO_WIDTH}x${PHOTO_HEIGHT} JPEG to 400 px, against sharp alone`);
  // Each miss a variant of its own that resizes the same way: a height the 400-px width keeps it under.
  const miss = async (i: number) => {
    const res = await request(`${edge.url}/img/photo.jpg?width=400&height=${1000 + i}`, { headers: { host: optimized } });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200 || res.headers['cdn-cache'] !== 'MISS')
      throw new Error(`a resize miss answered ${res.statusCode} ${String(res.headers['cdn-cache'])}`);
  };
  const original = await photo();
  sharp.cache(false);
  const alone = () => sharp(original).resize({ width: 400 }).jpeg({ quality: 85 }).toBuffer();
  await miss(-1);
  await alone();
  // Interleaved in rounds, so the machine's other work weighs on both alike.
  // Beside them, one hit of the variant at a time: what a round trip through the edge costs without the resize.
  const hit = async () => {
    const res = await request(`${edge.url}/img/photo.jpg?width=400`, { headers: { host: optimized } });
    await res.body.arrayBuffer();
  };
  let missTotal = 0;
  let aloneTotal = 0;
  let hitTotal = 0;
  for (let i = 0; i < resizes; i++) {
    let started = performance.now();
    await miss(i);
    missTotal += performance.now() - started;
    started = performance.now();
    await alone();
    aloneTotal += performance.now() - started;
    started = performance.now();
    await hit();
    hitTotal += performance.now() - started;
  }
  return {
    variantBytes,
    plainBytes,
    variant: variant!,
    plain: plainHit!,
    missMs: missTotal / resizes,
    aloneMs: aloneTotal / resizes,
    hitMs: hitTotal / resizes,
    resizes,
  };
}

/** Asks twice (the second a hit), checks a 400-px JPEG comes back: its length. */
async function widthOf(url: string, host: string, path: string): Promise<number> {
  let body = Buffer.alloc(0);
  for (let i = 0; i < 2; i++) {
    const res = await request(`${url}${path}`, { headers: { host } });
    body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
  }
  const meta = await sharp(body).metadata();
  if (meta.format !== 'jpeg' || meta.width !== 400) throw new Error(`${path}: a ${meta.width}-px ${meta.format}, not a 400-px JPEG`);
  return body.length;
}

export function renderOptimizer(o: OptimizerBench): string[] {
  const row = (r: w.LoadResult, bytes: number) =>
    `| ${r.label} | ${int(r.rps)} | ${(r.rps / o.plain.rps).toFixed(2)}x | ${bytes} B | ${r.latencyMs.p50.toFixed(2)} | ${r.latencyMs.p99.toFixed(2)} | ${r.errors + r.non2xx} | ${r.server?.cpuPercent == null ? '-' : `${Math.round(r.server.cpuPercent)}%`} |`;
  return [
    `Edge optimizer: a 400-px variant's cache hit against a plain hit of a 400-px JPEG, ${o.variant.connections} connections, same run`,
    '| | req/s | x plain | answer | p50 ms | p99 ms | failed | srv CPU |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row(o.variant, o.variantBytes),
    row(o.plain, o.plainBytes),
    '',
    `Edge optimizer: a miss resizing a ${PHOTO_WIDTH}x${PHOTO_HEIGHT} JPEG to 400 px, ${o.missMs.toFixed(1)} ms (through the edge, answered) against ${o.aloneMs.toFixed(1)} ms (sharp alone), ${o.resizes} each, interleaved; a hit of the variant one at a time beside them: ${o.hitMs.toFixed(1)} ms`,
  ];
}

export function optimizerTargets(o: OptimizerBench): { target: string; measured: string; met: boolean }[] {
  const hit = o.variant.rps / o.plain.rps;
  const miss = o.missMs / o.aloneMs;
  return [
    {
      target: `a variant's hit >= ${HIT_TARGET}x a plain hit`,
      measured: `${hit.toFixed(2)}x (${int(o.variant.rps)} vs ${int(o.plain.rps)} req/s)`,
      met: hit >= HIT_TARGET,
    },
    {
      target: `a resizing miss <= ${MISS_TARGET}x sharp alone`,
      measured: `${miss.toFixed(2)}x (${o.missMs.toFixed(1)} vs ${o.aloneMs.toFixed(1)} ms)`,
      met: miss <= MISS_TARGET,
    },
  ];
}

export const optimizerLoads = (o: OptimizerBench) => [o.variant, o.plain];

const int = (n: number) => Math.round(n).toLocaleString('en-US');
