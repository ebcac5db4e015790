/**
 * What the edge keeps and for how long: the origin's Cache-Control unless the zone overrides it,
 * the cache key settings, conditions and ranges answered from the cache, cookies, error answers,
 * stale copies, and the bound on the cache's size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, updatePullZone } from '../../helpers/edge-plane.js';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let zoneCount = 0;

/** Every test gets its own zone and origin behaviour: `answer(path)` gives status, headers and body. */
type Answer = { status?: number; headers?: Record<string, string | string[]>; body?: string };
const answers = new Map<string, (url: string, headers: Record<string, unknown>) => Answer>();

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin((req, res) => {
    const host = String(req.headers['x-test-zone'] ?? '');
    const answer = answers.get(host)?.(req.url ?? '', req.headers) ?? { body: `origin ${req.url}` };
    res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
    res.end(answer.body ?? `origin ${req.url}`);
  });
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

/** A zone whose origin answers with `answer`; the origin tells zones apart by a request header the zone sets through an edge rule-free setting: the origin URL's path. */
async function zoneWith(answer: (url: string, headers: Record<string, unknown>) => Answer, settings: Record<string, unknown> = {}) {
  const name = `cache-${++zoneCount}`;
  answers.set(name, answer);
  const zone = await createPullZone(t, name, origin.url, settings);
  const requests = () => origin.requests.filter((r) => r.headers['x-test-zone'] === name);
  const get = (path: string, headers: Record<string, string> = {}) => edge.get(zone.host, path, { 'x-test-zone': name, ...headers });
  return { zone, get, requests };
}

describe('freshness', () => {
  it("honours the origin's max-age: HIT until it runs out, then EXPIRED from a new origin request", async () => {
    let version = 1;
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=30' }, body: `v${version}` }));
    expect((await z.get('/a')).headers['cdn-cache']).toBe('MISS');
    version = 2;
    const hit = await z.get('/a');
    expect([hit.headers['cdn-cache'], hit.text]).toEqual(['HIT', 'v1']);
    edge.advance(31);
    const expired = await z.get('/a');
    expect([expired.headers['cdn-cache'], expired.text]).toEqual(['EXPIRED', 'v2']);
    expect(z.requests()).toHaveLength(2);
  });

  it('keeps nothing the origin marks no-store, private or no-cache', async () => {
    for (const cc of ['no-store', 'private, max-age=60', 'no-cache']) {
      const z = await zoneWith(() => ({ headers: { 'cache-control': cc } }));
      await z.get('/p');
      const again = await z.get('/p');
      expect(again.headers['cdn-cache']).toBe('BYPASS');
      expect(z.requests()).toHaveLength(2);
    }
  });

  it('CacheControlMaxAgeOverride caches for its seconds whatever the origin says, 0 never', async () => {
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'no-store' } }), { CacheControlMaxAgeOverride: 60 });
    await z.get('/o');
    expect((await z.get('/o')).headers['cdn-cache']).toBe('HIT');
    edge.advance(61);
    expect((await z.get('/o')).headers['cdn-cache']).toBe('EXPIRED');
    await updatePullZone(t, z.zone.Id, { CacheControlMaxAgeOverride: 0 });
    const zero = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=600' } }), { CacheControlMaxAgeOverride: 0 });
    await zero.get('/o');
    expect((await zero.get('/o')).headers['cdn-cache']).toBe('BYPASS');
    expect(zero.requests()).toHaveLength(2);
  });

  it('CacheControlPublicMaxAgeOverride is what browsers are told; -1 passes the origin header on', async () => {
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=60' } }), { CacheControlPublicMaxAgeOverride: 3600 });
    expect((await z.get('/b')).headers['cache-control']).toBe('public, max-age=3600');
    expect((await z.get('/b')).headers['cache-control']).toBe('public, max-age=3600');
    await updatePullZone(t, z.zone.Id, { CacheControlPublicMaxAgeOverride: -1 });
    expect((await z.get('/b')).headers['cache-control']).toBe('max-age=60');
  });

  it('caches error answers only with CacheErrorResponses', async () => {
    const z = await zoneWith(() => ({ status: 404, body: 'missing' }));
    await z.get('/gone');
    expect((await z.get('/gone')).headers['cdn-cache']).toBe('BYPASS');
    await updatePullZone(t, z.zone.Id, { CacheErrorResponses: true });
    await z.get('/gone2');
    const cached = await z.get('/gone2');
    expect([cached.status, cached.headers['cdn-cache'], cached.text]).toEqual([404, 'HIT', 'missing']);
  });
});

describe('the cache key', () => {
  it('keeps the query in the key unless IgnoreQueryStrings', async () => {
    const z = await zoneWith((url) => ({ headers: { 'cache-control': 'max-age=60' }, body: url }));
    await z.get('/q?a=1');
    expect((await z.get('/q?a=2')).text).toBe('/q?a=2');
    await updatePullZone(t, z.zone.Id, { IgnoreQueryStrings: true });
    await z.get('/i?a=1');
    const other = await z.get('/i?a=2');
    expect([other.headers['cdn-cache'], other.text]).toEqual(['HIT', '/i?a=1']);
  });

  it('orders the query with EnableQueryStringOrdering and keeps only QueryStringVaryParameters', async () => {
    const z = await zoneWith((url) => ({ headers: { 'cache-control': 'max-age=60' }, body: url }), { EnableQueryStringOrdering: true });
    await z.get('/o?b=2&a=1');
    expect((await z.get('/o?a=1&b=2')).headers['cdn-cache']).toBe('HIT');
    await updatePullZone(t, z.zone.Id, { EnableQueryStringOrdering: false });
    expect((await z.get('/o2?b=2&a=1')).headers['cdn-cache']).toBe('MISS');
    expect((await z.get('/o2?a=1&b=2')).headers['cdn-cache']).toBe('MISS');
    await updatePullZone(t, z.zone.Id, { QueryStringVaryParameters: ['v'] });
    await z.get('/v?v=1&utm=a');
    expect((await z.get('/v?v=1&utm=b')).headers['cdn-cache']).toBe('HIT');
    expect((await z.get('/v?v=2&utm=a')).headers['cdn-cache']).toBe('MISS');
  });

  it('varies by CacheKeyHeaders and by device with EnableMobileVary; every Accept-Encoding shares one copy', async () => {
    const z = await zoneWith((_url, h) => ({ headers: { 'cache-control': 'max-age=60' }, body: `${h['x-tenant'] ?? '-'} ${h['cdn-mobiledevice'] ?? '-'}` }), {
      CacheKeyHeaders: 'X-Tenant',
    });
    expect((await z.get('/h', { 'x-tenant': 'a' })).text).toBe('a -');
    expect((await z.get('/h', { 'x-tenant': 'b' })).text).toBe('b -');
    expect((await z.get('/h', { 'x-tenant': 'a' })).headers['cdn-cache']).toBe('HIT');
    // The edge asks the origin for identity and compresses itself (compression.test.ts).
    await z.get('/e', { 'accept-encoding': 'gzip' });
    expect((await z.get('/e', { 'accept-encoding': 'br' })).headers['cdn-cache']).toBe('HIT');
    expect(z.requests().at(-1)?.headers['accept-encoding']).toBe('identity');
    await updatePullZone(t, z.zone.Id, { EnableMobileVary: true, CacheKeyHeaders: '' });
    expect((await z.get('/m', { 'user-agent': 'Mozilla/5.0 (iPhone)' })).text).toBe('- mobile');
    expect((await z.get('/m', { 'user-agent': 'Mozilla/5.0 (X11; Linux)' })).text).toBe('- desktop');
  });
});

describe('the cache key, hostnames and cookies', () => {
  it('shares one copy between the hostnames of a zone unless EnableHostnameVary; varies by the CookieVaryParameters cookies with EnableCookieVary', async () => {
    const z = await zoneWith((_url, h) => ({ headers: { 'cache-control': 'max-age=60' }, body: `${h['host']} ${h['cookie'] ?? '-'}` }), {
      AddHostHeader: true,
    });
    expect((await t.post(`/pullzone/${z.zone.Id}/addHostname`, { Hostname: 'vary.example.com' })).status).toBe(204);
    const viaSystem = await edge.get(z.zone.host, '/v', { 'x-test-zone': z.zone.Name });
    const viaOther = await edge.get('vary.example.com', '/v', { 'x-test-zone': z.zone.Name });
    expect([viaOther.headers['cdn-cache'], viaOther.text]).toEqual(['HIT', viaSystem.text]);
    await updatePullZone(t, z.zone.Id, { EnableHostnameVary: true });
    expect((await edge.get('vary.example.com', '/v2', { 'x-test-zone': z.zone.Name })).text).toMatch(/^vary\.example\.com/);
    expect((await edge.get(z.zone.host, '/v2', { 'x-test-zone': z.zone.Name })).headers['cdn-cache']).toBe('MISS');

    await updatePullZone(t, z.zone.Id, { EnableCookieVary: true, CookieVaryParameters: ['lang'] });
    await z.get('/c', { cookie: 'lang=en; session=1' });
    expect((await z.get('/c', { cookie: 'lang=en; session=2' })).headers['cdn-cache']).toBe('HIT');
    expect((await z.get('/c', { cookie: 'lang=fr; session=1' })).headers['cdn-cache']).toBe('MISS');
  });
});

describe('conditions and ranges from the cache', () => {
  it('answers If-None-Match and If-Modified-Since with 304, and a Range with 206, without the origin', async () => {
    const modified = new Date(Date.now() - 3_600_000).toUTCString();
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=60', etag: '"v1"', 'last-modified': modified }, body: '0123456789' }));
    await z.get('/c');
    const byTag = await z.get('/c', { 'if-none-match': '"v1"' });
    expect([byTag.status, byTag.text, byTag.headers['etag'], byTag.headers['cdn-cache']]).toEqual([304, '', '"v1"', 'HIT']);
    expect((await z.get('/c', { 'if-none-match': '"v0"' })).status).toBe(200);
    expect((await z.get('/c', { 'if-modified-since': modified })).status).toBe(304);
    const range = await z.get('/c', { range: 'bytes=2-5' });
    expect([range.status, range.text, range.headers['content-range']]).toEqual([206, '2345', 'bytes 2-5/10']);
    expect((await z.get('/c', { range: 'bytes=20-' })).status).toBe(416);
    expect(z.requests()).toHaveLength(1);
    // The origin never saw the client's conditions: it filled the cache with the whole answer.
    expect(z.requests()[0]!.headers['if-none-match']).toBeUndefined();
  });

  it('answers HEAD from the cache, with the length and no body', async () => {
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=60' }, body: 'twelve bytes' }));
    await z.get('/h');
    const head = await edge.request('HEAD', z.zone.host, '/h', { 'x-test-zone': z.zone.Name });
    expect([head.status, head.headers['content-length'], head.text, head.headers['cdn-cache']]).toEqual([200, '12', '', 'HIT']);
  });
});

describe('cookies', () => {
  it('DisableCookies strips Set-Cookie and lets the answer be cached; off, the cookie passes and nothing is kept', async () => {
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=60', 'set-cookie': 'session=secret' } }), { DisableCookies: true });
    const first = await z.get('/k');
    expect(first.headers['set-cookie']).toBeUndefined();
    expect((await z.get('/k')).headers['cdn-cache']).toBe('HIT');
    await updatePullZone(t, z.zone.Id, { DisableCookies: false });
    const passed = await z.get('/k2');
    expect(passed.headers['set-cookie']).toBe('session=secret');
    expect((await z.get('/k2')).headers['cdn-cache']).toBe('BYPASS');
  });
});

describe('stale copies', () => {
  it('UseStaleWhileOffline serves the expired copy when the origin fails; off, a 502 page', async () => {
    let fail = false;
    const z = await zoneWith(() => (fail ? { status: 503, body: 'down' } : { headers: { 'cache-control': 'max-age=10' }, body: 'good' }), {
      UseStaleWhileOffline: true,
    });
    await z.get('/s');
    edge.advance(11);
    fail = true;
    const stale = await z.get('/s');
    expect([stale.status, stale.text, stale.headers['cdn-cache']]).toEqual([200, 'good', 'STALE']);
    await updatePullZone(t, z.zone.Id, { UseStaleWhileOffline: false, OriginUrl: 'http://127.0.0.1:1' });
    const failed = await z.get('/s');
    expect(failed.status).toBe(502);
    expect(failed.headers['content-type']).toMatch(/text\/html/);
    expect(failed.headers['cdn-requestpullsuccess']).toBe('False');
  });

  it('UseStaleWhileUpdating serves the old copy while one refresh runs', async () => {
    let version = 1;
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=10' }, body: `v${version}` }), { UseStaleWhileUpdating: true });
    await z.get('/u');
    edge.advance(11);
    version = 2;
    const updating = await z.get('/u');
    expect([updating.text, updating.headers['cdn-cache']]).toEqual(['v1', 'UPDATING']);
    await expect.poll(async () => (await z.get('/u')).text).toBe('v2');
    expect(z.requests()).toHaveLength(2);
  });
});

describe('the bound', () => {
  it('keeps at most EDGEPLANE_EDGE_CACHE_BYTES, the least recently used out first', async () => {
    // Its own app: the listeners of one app share one cache.
    const other = await createTestApp();
    const small = await startEdgePlane(other, { cacheBytes: 64 * 1024 });
    try {
      const zone = await createPullZone(other, 'bounded', origin.url);
      answers.set('bounded', () => ({ headers: { 'cache-control': 'max-age=60' }, body: 'x'.repeat(4000) }));
      const get = (path: string) => small.get(zone.host, path, { 'x-test-zone': 'bounded' });
      await get('/0');
      for (let i = 1; i < 40; i++) {
        await get(`/${i}`);
        // /0 stays in use, so it stays.
        expect((await get('/0')).headers['cdn-cache']).toBe('HIT');
      }
      expect(small.core.cache.bytes).toBeLessThanOrEqual(64 * 1024);
      expect((await get('/1')).headers['cdn-cache']).toBe('MISS');
    } finally {
      await small.close();
      await other.close();
    }
  });
});
