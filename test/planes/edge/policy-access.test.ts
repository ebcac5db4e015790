/**
 * The zone's access settings over real HTTP: each changes what the edge answers a real client
 * (undici, from 127.0.0.1) in front of a real node:http origin, and stops once turned off through
 * the API. The domain tests (test/domain/edge-policy/) go through every case; these show the
 * settings reach the wire.
 */
import { describe, expect, it } from 'vitest';
import { createPullZone, startOrigin, updatePullZone } from '../../helpers/edge-plane.js';
import { useEdgeWorld } from '../../helpers/edge-world.js';

const world = useEdgeWorld();

describe('BlockedIps', () => {
  it('refuses a listed address or a block holding it with 403, and serves again once removed', async () => {
    const zone = await world.zone('acc-ips', { BlockedIps: ['127.0.0.1'] });
    const refused = await world.edge.get(zone.host, '/a.txt');
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/text\/html/);
    await updatePullZone(world.t, zone.Id, { BlockedIps: ['10.0.0.0/8', '127.0.0.0/8'] });
    expect((await world.edge.get(zone.host, '/a.txt')).status).toBe(403);
    await updatePullZone(world.t, zone.Id, { BlockedIps: ['10.0.0.0/8', '2001:db8::/32'] });
    const served = await world.edge.get(zone.host, '/a.txt');
    expect(served.status).toBe(200);
    expect(served.text).toBe('origin /a.txt');
  });
});

describe('referrers', () => {
  it('AllowedReferrers serves listed Referers only; a request without one passes', async () => {
    const zone = await world.zone('acc-allowed', { AllowedReferrers: ['*.example.com'] });
    expect((await world.edge.get(zone.host, '/r.txt', { referer: 'https://www.example.com/page' })).status).toBe(200);
    expect((await world.edge.get(zone.host, '/r.txt', { referer: 'https://hotlinker.test/' })).status).toBe(403);
    expect((await world.edge.get(zone.host, '/r.txt')).status).toBe(200);
    await updatePullZone(world.t, zone.Id, { AllowedReferrers: [] });
    expect((await world.edge.get(zone.host, '/r.txt', { referer: 'https://hotlinker.test/' })).status).toBe(200);
  });

  it('BlockedReferrers refuses listed Referers', async () => {
    const zone = await world.zone('acc-blocked-ref', { BlockedReferrers: ['hotlinker.test'] });
    expect((await world.edge.get(zone.host, '/r.txt', { referer: 'https://hotlinker.test/x' })).status).toBe(403);
    expect((await world.edge.get(zone.host, '/r.txt', { referer: 'https://fine.test/' })).status).toBe(200);
    await updatePullZone(world.t, zone.Id, { BlockedReferrers: [] });
    expect((await world.edge.get(zone.host, '/r.txt', { referer: 'https://hotlinker.test/x' })).status).toBe(200);
  });

  it('reads the Referer host as a browser does: a backslash ends the host, credentials are not it (both lists)', async () => {
    const allowed = await world.zone('acc-ref-parse', { AllowedReferrers: ['good.example'] });
    const get = (referer: string) => world.edge.get(allowed.host, '/r.txt', { referer });
    // A browser sending this Referer was on evil.test (its path is `/@good.example/`).
    expect((await get('http://evil.test\\@good.example/')).status).toBe(403);
    expect((await get('https://evil.test\\x@good.example/page')).status).toBe(403);
    expect((await get('not a url good.example')).status).toBe(403);
    expect((await get('https://user:pw@good.example/')).status).toBe(200);
    expect((await get('https://GOOD.example./x')).status).toBe(200);
    const blocked = await world.zone('acc-ref-parse-blocked', { BlockedReferrers: ['evil.test'] });
    expect((await world.edge.get(blocked.host, '/r.txt', { referer: 'http://evil.test\\@good.example/' })).status).toBe(403);
    expect((await world.edge.get(blocked.host, '/r.txt', { referer: 'http://evil.test./' })).status).toBe(403);
    expect((await world.edge.get(blocked.host, '/r.txt', { referer: 'http://good.example\\@evil.test/' })).status).toBe(200);
  });

  it('BlockNoneReferrer refuses requests without a Referer', async () => {
    const zone = await world.zone('acc-none-ref', { BlockNoneReferrer: true });
    expect((await world.edge.get(zone.host, '/r.txt')).status).toBe(403);
    expect((await world.edge.get(zone.host, '/r.txt', { referer: 'https://any.test/' })).status).toBe(200);
    await updatePullZone(world.t, zone.Id, { BlockNoneReferrer: false });
    expect((await world.edge.get(zone.host, '/r.txt')).status).toBe(200);
  });
});

describe('BlockRootPathAccess and BlockPostRequests', () => {
  it('BlockRootPathAccess refuses / only', async () => {
    const zone = await world.zone('acc-root', { BlockRootPathAccess: true });
    expect((await world.edge.get(zone.host, '/')).status).toBe(403);
    expect((await world.edge.get(zone.host, '/index.html')).status).toBe(200);
    await updatePullZone(world.t, zone.Id, { BlockRootPathAccess: false });
    expect((await world.edge.get(zone.host, '/')).status).toBe(200);
  });

  it('BlockPostRequests refuses POST before it reaches the origin', async () => {
    const zone = await world.zone('acc-post', { BlockPostRequests: true });
    const before = world.origin.requests.length;
    expect((await world.edge.request('POST', zone.host, '/form', { 'content-type': 'text/plain' }, 'x=1')).status).toBe(403);
    expect(world.origin.requests.length).toBe(before);
    expect((await world.edge.get(zone.host, '/form')).status).toBe(200);
    await updatePullZone(world.t, zone.Id, { BlockPostRequests: false });
    const posted = await world.edge.request('POST', zone.host, '/form2', { 'content-type': 'text/plain' }, 'x=1');
    expect(posted.status).toBe(200);
    expect(world.origin.requests.at(-1)).toMatchObject({ method: 'POST', url: '/form2', body: 'x=1' });
  });
});

describe('CORS and the canonical header', () => {
  it('Access-Control-Allow-Origin on the listed extensions, none once turned off', async () => {
    const zone = await world.zone('acc-cors', {
      EnableAccessControlOriginHeader: true,
      AccessControlOriginHeaderExtensions: ['woff2', 'json'],
    });
    expect((await world.edge.get(zone.host, '/f/font.woff2')).headers['access-control-allow-origin']).toBe('*');
    expect((await world.edge.get(zone.host, '/data.json')).headers['access-control-allow-origin']).toBe('*');
    expect((await world.edge.get(zone.host, '/img.png')).headers['access-control-allow-origin']).toBeUndefined();
    await updatePullZone(world.t, zone.Id, { EnableAccessControlOriginHeader: false });
    // From the cache now: the header is the zone's, not the stored copy's.
    const cached = await world.edge.get(zone.host, '/f/font.woff2');
    expect(cached.headers['cdn-cache']).toBe('HIT');
    expect(cached.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('AddCanonicalHeader sends the canonical Link', async () => {
    const zone = await world.zone('acc-canonical', { AddCanonicalHeader: true });
    expect((await world.edge.get(zone.host, '/docs/page.html?utm=1')).headers['link']).toBe(`<https://${zone.host}/docs/page.html>; rel="canonical"`);
    await updatePullZone(world.t, zone.Id, { AddCanonicalHeader: false });
    expect((await world.edge.get(zone.host, '/docs/page.html?utm=1')).headers['link']).toBeUndefined();
  });
});

describe('RequestLimit and BurstSize', () => {
  it('serves RequestLimit + BurstSize requests at once, then answers 429; unlimited again at 0', async () => {
    const zone = await world.zone('acc-rate', { RequestLimit: 1, BurstSize: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await world.edge.get(zone.host, '/rate.txt')).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toContain(429);
    await updatePullZone(world.t, zone.Id, { RequestLimit: 0, BurstSize: 0 });
    for (let i = 0; i < 6; i++) expect((await world.edge.get(zone.host, '/rate.txt')).status).toBe(200);
  });
});

describe('ConnectionLimitPerIPCount', () => {
  it('refuses a request beyond the client’s limit in flight with 429, and admits again once one ends', async () => {
    const slow = await startOrigin();
    const waiting: (() => void)[] = [];
    slow.handle((req, res) => {
      waiting.push(() => {
        res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        res.end(`slow ${req.url}`);
      });
    });
    try {
      const zone = await createPullZone(world.t, 'acc-conns', slow.url, { ConnectionLimitPerIPCount: 2 });
      const first = world.edge.get(zone.host, '/c1');
      const second = world.edge.get(zone.host, '/c2');
      while (waiting.length < 2) await new Promise((r) => setTimeout(r, 5));
      const third = await world.edge.get(zone.host, '/c3');
      expect(third.status).toBe(429);
      for (const release of waiting.splice(0)) release();
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
      slow.handle((req, res) => res.end(`now ${req.url}`));
      expect((await world.edge.get(zone.host, '/c3')).text).toBe('now /c3');
    } finally {
      await slow.close();
    }
  });

  it('answers 502 and gives the slot back when the origin breaks off an answer the edge was keeping', async () => {
    // A cacheable answer is buffered before it is sent: the origin cuts it short, the buffering fails.
    const broken = await startOrigin((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=600', 'content-length': '1000' });
      res.write('only part of it');
      setTimeout(() => res.destroy(), 20);
    });
    try {
      const zone = await createPullZone(world.t, 'acc-conns-broken', broken.url, { ConnectionLimitPerIPCount: 1 });
      for (let i = 0; i < 3; i++) {
        expect((await world.edge.get(zone.host, `/broken-${i}`)).status).toBe(502);
      }
      broken.handle((req, res) => res.end(`now ${req.url}`));
      const after = await world.edge.get(zone.host, '/whole');
      expect(after.status).toBe(200);
      expect(after.text).toBe('now /whole');
    } finally {
      await broken.close();
    }
  });
});

describe('LimitRatePerSecond and LimitRateAfter', () => {
  it('paces the body after the free part, and sends it at full speed once turned off', async () => {
    const big = await startOrigin((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'max-age=600' });
      res.end(Buffer.alloc(50_000, 0x62));
    });
    try {
      // 10 kB free, then 40 kB at 40 kB/s: about a second.
      const zone = await createPullZone(world.t, 'acc-throttle', big.url, { LimitRatePerSecond: 40, LimitRateAfter: 10 });
      let started = performance.now();
      const paced = await world.edge.get(zone.host, '/big.bin');
      const pacedMs = performance.now() - started;
      expect(paced.body.length).toBe(50_000);
      expect(pacedMs).toBeGreaterThan(800);
      await updatePullZone(world.t, zone.Id, { LimitRatePerSecond: 0 });
      started = performance.now();
      const free = await world.edge.get(zone.host, '/big.bin');
      expect(free.body.length).toBe(50_000);
      expect(performance.now() - started).toBeLessThan(pacedMs / 2);
    } finally {
      await big.close();
    }
  });
});
