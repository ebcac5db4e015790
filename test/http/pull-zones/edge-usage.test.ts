/**
 * What the edge reports after each answer (a ServedEvent, the edge's contract) becoming what the
 * API shows: the statistics operations, the zone's monthly bandwidth and its Enabled state under
 * its limit and the account's funds, and the access log of zones with logging on. The edge plane's
 * own tests drive the same path through real HTTP requests; here the events are made precisely.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EdgeRequest, OriginReport, ServedEvent } from '../../../src/domain/edge/types.js';
import type { PullZoneT } from '../../../src/schemas/pull-zone.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { cli } from '../../helpers/cli.js';
import { ADMIN, operator, pullZone } from '../billing/support.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: ADMIN });
});
afterEach(async () => {
  await t.close();
});

const admin = (url: string) => t.request('GET', `/_edgeplane${url}`, undefined, null, { authorization: `Bearer ${ADMIN}` });

function request(overrides: Partial<EdgeRequest> = {}): EdgeRequest {
  return {
    method: 'GET',
    scheme: 'https',
    host: 'site.b-cdn.test',
    path: '/a.css',
    query: '',
    headers: { 'user-agent': 'curl/8.0', referer: 'https://example.com/' },
    clientIp: '203.0.113.77',
    ...overrides,
  };
}

async function serve(zone: PullZoneT, event: Partial<ServedEvent> & { origin?: OriginReport } = {}): Promise<void> {
  const stored = await t.app.services.pullZones.zones.get(t.store, t.accountId, zone.Id);
  t.app.services.edgeUsage.served({
    zoneId: zone.Id,
    accountId: t.accountId,
    zone: stored.doc,
    request: request(),
    status: 200,
    bytesSent: 1000,
    cacheStatus: 'HIT',
    requestId: 'f00dfeed',
    durationMs: 2,
    at: t.clock.read(),
    ...event,
  });
}

const statistics = async (query = '') => {
  await t.app.services.usage.flush();
  const res = await t.get(`/statistics${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const zoneOf = async (id: number) => (await t.get(`/pullzone/${id}`)).body as PullZoneT;

describe('GET /statistics', () => {
  it('counts requests, bytes, cache hits and origin traffic as the edge served them', async () => {
    const zone = await pullZone(t, 'site');
    await serve(zone, { bytesSent: 1000, cacheStatus: 'HIT' });
    await serve(zone, { bytesSent: 3000, cacheStatus: 'MISS', origin: { bytes: 3000, responseMs: 40, attempts: 1, answered: true } });
    await serve(zone, { bytesSent: 0, status: 404, cacheStatus: 'MISS', origin: { bytes: 0, responseMs: 20, attempts: 1, answered: true } });
    await serve(zone, { bytesSent: 500, status: 503, cacheStatus: 'BYPASS' });

    const body = await statistics('?loadErrors=true&loadOriginResponseTimes=true&loadOriginTraffic=true');
    expect(body).toMatchObject({
      TotalBandwidthUsed: 4500,
      TotalRequestsServed: 4,
      CacheHitRate: 25,
      TotalOriginTraffic: 3000,
      AverageOriginResponseTime: 30,
    });
    const day = '2026-01-01T00:00:00Z';
    expect(body.BandwidthUsedChart[day]).toBe(4500);
    expect(body.BandwidthCachedChart[day]).toBe(1000);
    expect(body.RequestsServedChart[day]).toBe(4);
    expect(body.PullRequestsPulledChart[day]).toBe(2);
    expect(body.OriginTrafficChart[day]).toBe(3000);
    expect(body.OriginResponseTimeChart[day]).toBe(30);
    expect(body.Error4xxChart[day]).toBe(1);
    expect(body.Error5xxChart[day]).toBe(1);
    expect(body.Error3xxChart[day]).toBe(0);
    // Charts asked for nothing stay null, as the reference has them.
    expect((await statistics()).OriginTrafficChart).toBeNull();
  });

  it("counts an object fetched through the origin shield once: the client where it was served, the origin request and the shield's bytes at the shield", async () => {
    const zone = await pullZone(t, 'site');
    // The instance the client reached: its fill came from the shield, not the origin.
    await serve(zone, { bytesSent: 2000, cacheStatus: 'MISS', origin: { bytes: 2000, responseMs: 9, attempts: 1, answered: true, viaShield: true } });
    // The shield: another instance's request, for which it asked the origin.
    await serve(zone, { bytesSent: 2000, cacheStatus: 'MISS', shielded: true, origin: { bytes: 2000, responseMs: 30, attempts: 1, answered: true } });
    const body = await statistics('?loadOriginTraffic=true&loadOriginShieldBandwidth=true');
    expect(body).toMatchObject({ TotalBandwidthUsed: 2000, TotalRequestsServed: 1, TotalOriginTraffic: 2000, AverageOriginResponseTime: 30 });
    const day = '2026-01-01T00:00:00Z';
    expect(body.PullRequestsPulledChart[day]).toBe(1);
    expect(body.OriginShieldBandwidthUsedChart[day]).toBe(2000);
  });

  it("narrows to one zone with pullZone; another account's zone is not found", async () => {
    const a = await pullZone(t, 'site-a');
    const b = await pullZone(t, 'site-b');
    await serve(a, { bytesSent: 100 });
    await serve(b, { bytesSent: 7 });
    expect((await statistics(`?pullZone=${b.Id}`)).TotalBandwidthUsed).toBe(7);
    expect((await statistics()).TotalBandwidthUsed).toBe(107);

    const other = await t.newAccount();
    const res = await t.get(`/statistics?pullZone=${a.Id}`, other.key);
    expect(res.status).toBe(404);
    const theirs = await t.get('/statistics', other.key);
    expect(theirs.body.TotalBandwidthUsed).toBe(0);
  });

  it('a bad date is a 400 naming the field', async () => {
    const res = await t.get('/statistics?dateFrom=yesterday');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('dateFrom');
  });
});

describe('pull zone statistics', () => {
  it('SafeHop counts the retries the edge made and the requests they saved', async () => {
    const zone = await pullZone(t, 'site');
    await serve(zone, { cacheStatus: 'MISS', origin: { bytes: 10, responseMs: 5, attempts: 3, answered: true } });
    await serve(zone, { status: 502, cacheStatus: 'MISS', origin: { bytes: 0, responseMs: 5, attempts: 2, answered: false } });
    await t.app.services.usage.flush();
    const res = await t.get(`/pullzone/${zone.Id}/safehop/statistics`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ TotalRequestsRetried: 3, TotalRequestsSaved: 1 });
  });

  it('optimizer statistics from the variants made; the origin shield queue zeros for a zone without a concurrency limit; for zones of the account only', async () => {
    const zone = await pullZone(t, 'site');
    for (const ms of [6, 10]) t.app.services.edgeUsage.optimized({ zoneId: zone.Id, originalBytes: 1000, bytes: 250, ms }, t.clock.read());
    await t.app.services.usage.flush();
    const optimizer = await t.get(`/pullzone/${zone.Id}/optimizer/statistics`);
    expect(optimizer.status).toBe(200);
    expect(optimizer.body).toMatchObject({ TotalRequestsOptimized: 2, TotalTrafficSaved: 1500, AverageProcessingTime: 8, AverageCompressionRatio: 75 });
    expect(Object.values(optimizer.body.TrafficSavedChart).reduce((a: number, b) => a + Number(b), 0)).toBe(1500);
    const queue = await t.get(`/pullzone/${zone.Id}/originshield/queuestatistics`);
    expect(queue.status).toBe(200);
    expect(Object.values(queue.body.ConcurrentRequestsChart).every((v) => v === 0)).toBe(true);

    const other = await t.newAccount();
    for (const path of ['optimizer/statistics', 'originshield/queuestatistics', 'safehop/statistics', 'ddos/statistics']) {
      expect((await t.get(`/pullzone/${zone.Id}/${path}`, other.key)).status).toBe(404);
    }
    expect((await t.get('/pullzone/999999/safehop/statistics')).status).toBe(404);
    expect((await t.get('/pullzone/999999/ddos/statistics')).status).toBe(404);
  });
});

describe('monthly bandwidth and funds', () => {
  it('MonthlyBandwidthUsed grows with bytes served; over MonthlyBandwidthLimit the zone stops, with a higher limit it serves again', async () => {
    const zone = await pullZone(t, 'site', { MonthlyBandwidthLimit: 5000 });
    await serve(zone, { bytesSent: 3000 });
    await t.app.services.usage.flush();
    await t.app.services.bandwidthLimits.settle();
    expect(await zoneOf(zone.Id)).toMatchObject({ MonthlyBandwidthUsed: 3000, Enabled: true });

    await serve(zone, { bytesSent: 2500 });
    await t.app.services.usage.flush();
    await t.app.services.bandwidthLimits.settle();
    expect(await zoneOf(zone.Id)).toMatchObject({ MonthlyBandwidthUsed: 5500, Enabled: false });

    expect((await t.post(`/pullzone/${zone.Id}`, { MonthlyBandwidthLimit: 10_000 })).status).toBe(200);
    await serve(zone, { bytesSent: 0, status: 403 });
    await t.app.services.bandwidthLimits.settle();
    expect(await zoneOf(zone.Id)).toMatchObject({ MonthlyBandwidthUsed: 5500, Enabled: true });
  });

  it('a new month starts from zero and brings a stopped zone back', async () => {
    const zone = await pullZone(t, 'site', { MonthlyBandwidthLimit: 1000 });
    t.app.services.bandwidthLimits.start();
    await serve(zone, { bytesSent: 1500 });
    await t.app.services.usage.flush();
    await t.app.services.bandwidthLimits.settle();
    expect((await zoneOf(zone.Id)).Enabled).toBe(false);

    t.clock.advance(31 * 86_400_000);
    await t.app.services.bandwidthLimits.settle();
    expect(await zoneOf(zone.Id)).toMatchObject({ MonthlyBandwidthUsed: 0, Enabled: true });
  });

  it('an account without funds stops serving; funds bring its zones back', async () => {
    const zone = await pullZone(t, 'site');
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 0 })).status).toBe(200);
    expect((await zoneOf(zone.Id)).Enabled).toBe(false);
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 50 })).status).toBe(200);
    await serve(zone, { bytesSent: 10 });
    await t.app.services.usage.flush();
    await t.app.services.bandwidthLimits.settle();
    expect((await zoneOf(zone.Id)).Enabled).toBe(true);
  });
});

/** A line as chunks kept it before they were gzipped: the fields as JSON. */
const lineOfOld = {
  cacheStatus: 'MISS',
  status: 404,
  timestamp: 1000,
  bytesSent: 12,
  remoteIp: '198.51.100.1',
  referer: '',
  url: 'https://old.example/a|b',
  edgeLocation: 'LOCAL',
  userAgent: '',
  requestId: 'old',
  countryCode: '',
};

describe('access log', () => {
  it("keeps a zone's requests in the platform's line format when EnableLogging is on, newest first", async () => {
    const zone = await pullZone(t, 'site', { EnableLogging: true, LoggingIPAnonymizationEnabled: false });
    await serve(zone, { request: request({ path: '/one.css' }), requestId: 'r1' });
    t.clock.advance(1000);
    await serve(zone, { request: request({ path: '/two|x.css', query: 'v=2' }), status: 404, cacheStatus: 'MISS', bytesSent: 12, requestId: 'r2' });

    const res = await admin(`/pullzones/${zone.Id}/accesslog`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/plain');
    const lines = String(res.body).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `MISS|404|${Date.parse('2026-01-01T00:00:01Z')}|12|${zone.Id}|203.0.113.77|https://example.com/|https://site.b-cdn.test/two%7Cx.css?v=2|LOCAL|curl/8.0|r2|-`,
    );
    expect(lines[1]).toMatch(/^HIT\|200\|\d+\|1000\|\d+\|203\.0\.113\.77\|.*\|r1\|-$/);

    const oldestFirst = String((await admin(`/pullzones/${zone.Id}/accesslog?order=asc&start=0&end=1`)).body)
      .trimEnd()
      .split('\n');
    expect(oldestFirst).toEqual([lines[1]]);
  });

  it('logs nothing for zones without logging, anonymizes addresses by default, and needs the operator token', async () => {
    const quiet = await pullZone(t, 'quiet', { EnableLogging: false });
    const masked = await pullZone(t, 'masked');
    await serve(quiet);
    await serve(masked);
    expect((await admin(`/pullzones/${quiet.Id}/accesslog`)).body).toBe('');
    expect(String((await admin(`/pullzones/${masked.Id}/accesslog`)).body)).toContain('|203.0.113.0|');
    expect((await t.request('GET', `/_edgeplane/pullzones/${masked.Id}/accesslog`)).status).toBe(401);
    expect((await admin('/pullzones/999999/accesslog')).status).toBe(404);
  });

  it('keeps exactly the newest 10,000 lines across flushes, each flush one chunk per zone', async () => {
    const zone = await pullZone(t, 'busy', { EnableLogging: true });
    const stored = (await t.app.services.pullZones.zones.get(t.store, t.accountId, zone.Id)).doc;
    let n = 0;
    const flushOf = async (count: number) => {
      for (let i = 0; i < count; i++, n++) {
        t.app.services.edgeUsage.served({
          zoneId: zone.Id,
          accountId: t.accountId,
          zone: stored,
          request: request({ path: `/${n}` }),
          status: 200,
          bytesSent: 1,
          cacheStatus: 'HIT',
          requestId: `r${n}`,
          durationMs: 1,
          at: t.clock.read(),
        });
      }
      await t.app.services.edgeAccessLog.flush();
    };
    await flushOf(6000);
    await flushOf(6000);
    expect(await t.store.accessLog.newest(zone.Id, { limit: 10 })).toHaveLength(2);
    await flushOf(5000);
    // The oldest chunk holds none of the newest 10,000 lines (r7000…r16999) any more.
    expect((await t.store.accessLog.newest(zone.Id, { limit: 10 })).map((c) => c.lines)).toEqual([5000, 6000]);

    const idOf = async (query: string) => {
      const lines = String((await admin(`/pullzones/${zone.Id}/accesslog?${query}`)).body)
        .trimEnd()
        .split('\n');
      return lines.map((line) => line.split('|')[10]);
    };
    expect(await idOf('start=0&end=2')).toEqual(['r16999', 'r16998']);
    expect(await idOf('start=4999&end=5001')).toEqual(['r12000', 'r11999']);
    expect(await idOf('start=9999&end=10000')).toEqual(['r7000']);
    expect(await idOf('order=asc&start=0&end=2')).toEqual(['r7000', 'r7001']);
    expect(await idOf('order=asc&start=9999&end=10000')).toEqual(['r16999']);
    expect((await admin(`/pullzones/${zone.Id}/accesslog?start=10000&end=10000`)).body).toBe('');
  });

  it('keeps a chunk compressed, and reads the chunks kept before: gzipped, and of JSON lines', async () => {
    const zone = await pullZone(t, 'site', { EnableLogging: true, LoggingIPAnonymizationEnabled: false });
    // Within the three days kept.
    const at = t.clock.read().getTime();
    const gzipped = `MISS|200|1001|5|${zone.Id}|198.51.100.2|-|https://old.example/gz|LOCAL|-|gzipped|-`;
    await t.store.transaction((tx) =>
      tx.accessLog.append([
        { accountId: t.accountId, pullZoneId: zone.Id, at, lines: 1, entry: JSON.stringify({ ...lineOfOld, pullZoneId: zone.Id }) },
        { accountId: t.accountId, pullZoneId: zone.Id, at, lines: 1, entry: `gz:${gzipSync(gzipped).toString('base64')}` },
      ]),
    );
    for (let i = 0; i < 200; i++) await serve(zone, { requestId: `new${i}` });
    await t.app.services.edgeAccessLog.flush();
    const [newest] = await t.store.accessLog.newest(zone.Id, { limit: 1 });
    expect(newest!.entry.startsWith('br:')).toBe(true);
    // 200 lines of about 120 bytes each, all alike but their ids: a small fraction once compressed.
    expect(newest!.entry.length).toBeLessThan(200 * 120 * 0.2);
    const lines = String((await admin(`/pullzones/${zone.Id}/accesslog?start=0&end=1000`)).body)
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(202);
    expect(lines[0]).toMatch(/\|new199\|-$/);
    expect(lines[199]).toMatch(/\|new0\|-$/);
    expect(lines[200]).toBe(gzipped);
    expect(lines[201]).toBe(`MISS|404|1000|12|${zone.Id}|198.51.100.1|-|https://old.example/a%7Cb|LOCAL|-|old|-`);
  });

  it('keeps three days of lines', async () => {
    const zone = await pullZone(t, 'site', { EnableLogging: true });
    const day = 86_400_000;
    const chunk = (at: number) => ({ accountId: t.accountId, pullZoneId: zone.Id, at, lines: 1, entry: JSON.stringify({ ...lineOfOld, pullZoneId: zone.Id }) });
    const now = t.clock.read().getTime();
    await t.store.transaction((tx) => tx.accessLog.append([chunk(now - 3 * day - 1), chunk(now - 3 * day + 1000)]));
    await serve(zone);
    await t.app.services.edgeAccessLog.flush();
    expect((await t.store.accessLog.newest(zone.Id, { limit: 10 })).map((c) => c.at)).toEqual([now, now - 3 * day + 1000]);
  });

  it("a deleted zone's log goes with it", async () => {
    const zone = await pullZone(t, 'site', { EnableLogging: true });
    await serve(zone);
    await t.app.services.edgeAccessLog.flush();
    expect(await t.store.accessLog.newest(zone.Id, { limit: 10 })).toHaveLength(1);
    expect((await t.del(`/pullzone/${zone.Id}`)).status).toBe(204);
    expect(await t.store.accessLog.newest(zone.Id, { limit: 10 })).toHaveLength(0);
  });

  it('`edgeplane pullzones logs <id>` prints the lines from another process', { timeout: 90_000 }, async () => {
    const zone = await pullZone(t, 'site');
    await serve(zone, { requestId: 'from-the-edge' });
    await t.app.services.edgeAccessLog.flush();
    const env = { DATABASE_URL: t.databaseUrl, EDGEPLANE_MASTER_KEY: t.masterKey.toString('hex') };
    const res = await cli(['pullzones', 'logs', String(zone.Id), '--limit', '5'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^HIT\|200\|\d+\|1000\|\d+\|203\.0\.113\.0\|.*\|from-the-edge\|-$/m);
    const missing = await cli(['pullzones', 'logs', '999999'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/pull zone was not found/);
    expect((await cli(['pullzones', 'logs', String(zone.Id), '--limit', 'lots'], env)).code).toBe(2);
  });
});
