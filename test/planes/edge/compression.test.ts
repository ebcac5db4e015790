/**
 * Compression at the edge over real sockets (undici, and curl --compressed): identity for clients
 * that accept no coding and for types that do not compress; gzip and Brotli from Accept-Encoding,
 * each compressed once per cached copy and kept with it; Vary, the encoded representation's own
 * ETag, ranges from identity, 304s for either representation, HEAD; an origin's own coding passed
 * through; answers passing through compressed as they stream; the bytes counted as sent.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, type TestPullZone } from '../../helpers/edge-plane.js';

const run = promisify(execFile);

/** 10 KiB of a stylesheet, and other bodies the origin serves. */
const CSS = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `.item-${i} > a:hover { color: #${(i * 7919).toString(16).padStart(6, '0').slice(-6)}; margin: ${i % 13}px; }\n`)
    .join('')
    .slice(0, 10 * 1024),
);
const JSON_BODY = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `entry ${i}` }))));
const BINARY = Buffer.alloc(8 * 1024, 'not an image, but typed as one ');
const SCRIPT = Buffer.from('console.log("already compressed by the origin");\n'.repeat(100));
const SCRIPT_GZIP = gzipSync(SCRIPT);

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let zone: TestPullZone;

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const cached = { 'cache-control': 'max-age=60', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' };
    if (path.startsWith('/css/')) res.writeHead(200, { ...cached, 'content-type': 'text/css; charset=utf-8', etag: '"css-v1"', vary: 'Origin' }).end(CSS);
    else if (path === '/tiny.css') res.writeHead(200, { ...cached, 'content-type': 'text/css' }).end('a { color: red }');
    else if (path.startsWith('/photo') || path.startsWith('/force/')) res.writeHead(200, { ...cached, 'content-type': 'image/jpeg' }).end(BINARY);
    else if (path === '/pre.js') {
      res.writeHead(200, { ...cached, 'content-type': 'application/javascript', 'content-encoding': 'gzip', vary: 'Accept-Encoding' }).end(SCRIPT_GZIP);
    } else if (path === '/fixed.css') res.writeHead(200, { ...cached, 'content-type': 'text/css', 'cache-control': 'max-age=60, no-transform' }).end(CSS);
    // Not kept (no-store) or not cacheable (POST): passed through, compressed as they stream.
    else res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', etag: '"api-1"' }).end(JSON_BODY);
  });
  edge = await startEdgePlane(t);
  zone = await createPullZone(t, 'compress', origin.url);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => edge.get(zone.host, path, headers);
const counts = () => ({ ...edge.core.pipeline.compressions });

describe('off', () => {
  it('answers identity to a client that accepts no coding, with Vary: Accept-Encoding', async () => {
    for (const accept of [undefined, 'identity', 'gzip;q=0, br;q=0', 'deflate, zstd', '*;q=0']) {
      const res = await get('/css/plain.css', accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.headers['vary']).toBe('Origin, Accept-Encoding');
      expect(res.headers['etag']).toBe('"css-v1"');
      expect([res.headers['content-length'], res.headers['accept-ranges']]).toEqual([String(CSS.length), 'bytes']);
      expect(res.body.equals(CSS)).toBe(true);
    }
    expect(counts().copies).toBe(0);
  });

  it('sends a type that does not compress, an answer under 1 KiB, or one marked no-transform as it is, without Vary', async () => {
    for (const path of ['/photo.jpg', '/tiny.css', '/fixed.css']) {
      const res = await get(path, { 'accept-encoding': 'gzip, br' });
      expect([res.status, res.headers['content-encoding'], res.headers['vary']], path).toEqual([200, undefined, undefined]);
    }
    expect((await get('/photo.jpg', { 'accept-encoding': 'gzip' })).body.equals(BINARY)).toBe(true);
  });
});

describe('on', () => {
  it('compresses with the coding the client prefers (q-values; Brotli before gzip when equal)', async () => {
    const cases: [string, string][] = [
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
      ['br;q=0, *', 'gzip'],
    ];
    for (const [accept, coding] of cases) {
      const res = await get('/css/chosen.css', { 'accept-encoding': accept });
      expect([res.status, res.headers['content-encoding']], accept).toEqual([200, coding]);
      expect(decoded(res.body, coding).equals(CSS)).toBe(true);
      expect(res.headers['content-length']).toBe(String(res.body.length));
      expect(res.headers['vary']).toBe('Origin, Accept-Encoding');
      expect(res.headers['etag']).toBe(`"css-v1-${coding}"`);
      expect(res.headers['accept-ranges']).toBeUndefined();
    }
    expect((await get('/css/chosen.css', { 'accept-encoding': 'gzip;q=0.5, identity' })).headers['content-encoding']).toBeUndefined();
  });

  it('compresses a cached copy once per coding, keeps it with the copy in the cache, and serves it on every later hit', async () => {
    const before = counts().copies;
    const first = await get('/css/once.css', { 'accept-encoding': 'gzip' });
    expect(first.headers['cdn-cache']).toBe('MISS');
    expect(counts().copies).toBe(before + 1);
    const cacheBytes = edge.core.cache.bytes;
    const hits = await Promise.all(Array.from({ length: 5 }, () => get('/css/once.css', { 'accept-encoding': 'gzip, deflate' })));
    for (const hit of hits) expect([hit.headers['cdn-cache'], hit.body.equals(first.body)]).toEqual(['HIT', true]);
    expect(counts().copies).toBe(before + 1);
    // Concurrent first requests for another coding wait for one compression, whose bytes the cache counts.
    const brs = await Promise.all(Array.from({ length: 5 }, () => get('/css/once.css', { 'accept-encoding': 'br' })));
    expect(new Set(brs.map((r) => r.body.toString('base64'))).size).toBe(1);
    expect(counts().copies).toBe(before + 2);
    expect(edge.core.cache.bytes).toBe(cacheBytes + brs[0]!.body.length);
    expect(origin.requests.filter((r) => r.url === '/css/once.css').map((r) => r.headers['accept-encoding'])).toEqual(['identity']);
  });

  it('gives curl --compressed the bytes the origin sent', async () => {
    const { stdout } = await run('curl', ['-s', '--compressed', '-D', '-', '-H', `Host: ${zone.host}`, `${edge.url}/css/curl.css`], {
      encoding: 'buffer',
      maxBuffer: 1 << 20,
    });
    const end = stdout.indexOf('\r\n\r\n');
    const head = stdout.subarray(0, end).toString('latin1').toLowerCase();
    expect(head).toMatch(/\r\ncontent-encoding: (br|gzip)\r\n/);
    expect(head).toContain('\r\nvary: origin, accept-encoding\r\n');
    expect(stdout.subarray(end + 4).equals(CSS)).toBe(true);
  });

  it('compresses any type under an edge rule ForceCompression', async () => {
    const rule = { ActionType: 13, Enabled: true, Description: 'compress', TriggerMatchingType: 0, ActionParameter1: '', ActionParameter2: '' };
    const added = await t.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, {
      ...rule,
      Triggers: [{ Type: 0, PatternMatches: ['/force/*'], PatternMatchingType: 0 }],
    });
    expect(added.status).toBe(201);
    const forced = await get('/force/a.jpg', { 'accept-encoding': 'gzip' });
    expect([forced.headers['content-encoding'], gunzipSync(forced.body).equals(BINARY)]).toEqual(['gzip', true]);
    expect((await get('/photo-2.jpg', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
  });
});

describe('ranges, conditions, HEAD', () => {
  it('serves a range from the identity representation, even to a client that accepts gzip', async () => {
    const res = await get('/css/range.css', { 'accept-encoding': 'gzip', range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes 100-199/${CSS.length}`);
    expect(res.body.equals(CSS.subarray(100, 200))).toBe(true);
    // An If-Range naming the gzip representation names no identity bytes: the whole answer.
    const whole = await get('/css/range.css', { 'accept-encoding': 'gzip', range: 'bytes=0-9', 'if-range': '"css-v1-gzip"' });
    expect([whole.status, whole.body.length]).toEqual([200, CSS.length]);
  });

  it('answers If-None-Match with 304 for the representation the client holds, and 200 for another', async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    const notModified = await get('/css/cond.css', { ...gzip, 'if-none-match': '"css-v1-gzip"' });
    expect([notModified.status, notModified.headers['etag'], notModified.headers['vary'], notModified.body.length]).toEqual([
      304,
      '"css-v1-gzip"',
      'Origin, Accept-Encoding',
      0,
    ]);
    expect((await get('/css/cond.css', { 'if-none-match': '"css-v1"' })).status).toBe(304);
    expect((await get('/css/cond.css', { 'if-none-match': 'W/"css-v1-br"', 'accept-encoding': 'br' })).status).toBe(304);
    const other = await get('/css/cond.css', { ...gzip, 'if-none-match': '"css-v1"' });
    expect([other.status, other.headers['content-encoding']]).toEqual([200, 'gzip']);
  });

  it('answers HEAD with the headers of the GET, the compressed length included', async () => {
    const got = await get('/css/head.css', { 'accept-encoding': 'br' });
    const head = await edge.request('HEAD', zone.host, '/css/head.css', { 'accept-encoding': 'br' });
    expect([head.status, head.body.length, head.headers['content-encoding']]).toEqual([200, 0, 'br']);
    expect(head.headers['content-length']).toBe(String(got.body.length));
  });
});

describe('origins and answers passing through', () => {
  it('passes an answer the origin compressed on as it is, to every client (never compressed twice)', async () => {
    const before = counts();
    for (const accept of ['gzip', 'br', undefined]) {
      const res = await get('/pre.js', accept === undefined ? {} : { 'accept-encoding': accept });
      expect([res.headers['content-encoding'], res.body.equals(SCRIPT_GZIP)], accept).toEqual(['gzip', true]);
    }
    expect(counts()).toEqual(before);
  });

  it('compresses an answer that is not kept as it streams, without Content-Length; a POST too, whose Accept-Encoding reaches the origin', async () => {
    const before = counts().streams;
    const res = await get('/api/list', { 'accept-encoding': 'gzip' });
    expect([res.headers['cdn-cache'], res.headers['content-encoding'], res.headers['content-length'], res.headers['etag']]).toEqual([
      'BYPASS',
      'gzip',
      undefined,
      '"api-1-gzip"',
    ]);
    expect(gunzipSync(res.body).equals(JSON_BODY)).toBe(true);
    const posted = await edge.request('POST', zone.host, '/api/post', { 'accept-encoding': 'br', 'content-type': 'application/json' }, '{}');
    expect([posted.headers['content-encoding'], brotliDecompressSync(posted.body).equals(JSON_BODY)]).toEqual(['br', true]);
    expect(origin.requests.find((r) => r.url === '/api/post')?.headers['accept-encoding']).toBe('br');
    expect(counts().streams).toBe(before + 2);
    const plain = await get('/api/list');
    expect([plain.headers['content-encoding'], plain.headers['vary'], plain.body.equals(JSON_BODY)]).toEqual([undefined, 'Accept-Encoding', true]);
  });

  it('counts the compressed bytes as the bytes sent', async () => {
    const counted = await createPullZone(t, 'compress-usage', origin.url);
    const sent = [];
    for (const accept of ['gzip', 'br', 'gzip']) sent.push((await edge.get(counted.host, '/css/usage.css', { 'accept-encoding': accept })).body.length);
    const total = sent.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(CSS.length);
    expect(await bandwidthOf(counted.Id, 3)).toBe(total);
  });
});

function decoded(body: Buffer, coding: string): Buffer {
  return coding === 'br' ? brotliDecompressSync(body) : gunzipSync(body);
}

/** The zone's bandwidth once `requests` answers were counted (the edge counts an answer when its socket is done with it, on the real clock). */
async function bandwidthOf(zoneId: number, requests: number): Promise<number> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();
  for (let attempt = 0; ; attempt++) {
    await t.app.services.usage.flush();
    const stats = (await t.get(`/statistics?pullZone=${zoneId}&dateFrom=${day(-1)}&dateTo=${day(1)}`)).body as {
      TotalRequestsServed: number;
      TotalBandwidthUsed: number;
    };
    if (stats.TotalRequestsServed >= requests || attempt >= 20) return stats.TotalBandwidthUsed;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
