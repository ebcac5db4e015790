/**
 * The origin shield over real sockets: two instances over one store (a second app on the same
 * data, as a second process has), the first named by EDGEPLANE_ORIGIN_SHIELD_URL. Off, each asks
 * the origin; on, the second sends its fills to the first, signed, and the origin is asked once per
 * object. A proof a client makes up is not trusted; the shield's concurrency limit queues, then
 * answers 503.
 */
import type { FastifyInstance } from 'fastify';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryTokenSegment } from '../../../src/domain/edge/policy/token/sign.js';
import { SHIELD_HEADER } from '../../../src/domain/edge/shield/hop-signature.js';
import type { Store } from '../../../src/store/types.js';
import { buildApiOver, createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';
import { freePort } from '../../helpers/own-postgres.js';
import { within } from '../../helpers/within.js';

let a: TestContext;
let storeB: Store;
let b: FastifyInstance;
/** The shield: its edge listens where EDGEPLANE_ORIGIN_SHIELD_URL says. */
let shield: EdgePlane;
let edge: EdgePlane;
let origin: TestOrigin;
/** Origin requests in flight now, and the most there ever were. */
let inFlight = 0;
let mostInFlight = 0;

beforeAll(async () => {
  const port = await freePort();
  a = await createTestApp({ originShieldUrl: `http://127.0.0.1:${port}` });
  storeB = await a.openStore();
  b = await buildApiOver({ config: a.config, store: storeB, masterKey: a.masterKey, clock: a.clock.read });
  origin = await startOrigin((req, res) => {
    const delay = Number(new URL(req.url ?? '/', 'http://o').searchParams.get('delay') ?? 0);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
      res.end(`origin ${req.url}`);
    }, delay);
  });
  shield = await startEdgePlane(a, { port });
  edge = await startEdgePlane(a, { services: b.services });
});
afterAll(async () => {
  await edge?.close();
  await shield?.close();
  await origin?.close();
  await b?.close();
  await storeB?.close();
  await a?.close();
});

/** A GET to an edge from another loopback address than the hop's (127.0.0.1), so the client's own address can be told apart. */
function getFrom(plane: EdgePlane, host: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: plane.port, path, localAddress: '127.0.0.2', agent: false, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
  });
}

const asked = (path: string) => origin.requests.filter((r) => r.url === path);

describe('which instance is the shield', () => {
  it('is the one whose edge listener the URL names', () => {
    expect(shield.core.shield.isShield).toBe(true);
    expect(edge.core.shield.isShield).toBe(false);
  });
});

describe('a zone without the origin shield', () => {
  it('has each instance ask the origin for an object both miss', async () => {
    const zone = await createPullZone(a, 'shield-off', origin.url);
    expect((await shield.get(zone.host, '/off.txt')).text).toBe('origin /off.txt');
    expect((await edge.get(zone.host, '/off.txt')).text).toBe('origin /off.txt');
    expect(asked('/off.txt')).toHaveLength(2);
  });
});

describe('a zone with the origin shield', () => {
  it('has the origin asked once for an object both instances miss, whichever misses first', async () => {
    const zone = await createPullZone(a, 'shield-on', origin.url, { EnableOriginShield: true });
    const fromEdge = await getFrom(edge, zone.host, '/one.txt');
    expect([fromEdge.status, fromEdge.headers['cdn-cache'], fromEdge.text]).toEqual([200, 'MISS', 'origin /one.txt']);
    const atShield = await shield.get(zone.host, '/one.txt');
    expect([atShield.status, atShield.headers['cdn-cache'], atShield.text]).toEqual([200, 'HIT', 'origin /one.txt']);
    expect(asked('/one.txt')).toHaveLength(1);
    // The other way round: the shield's own client first, then the other instance's.
    await shield.get(zone.host, '/two.txt');
    expect((await edge.get(zone.host, '/two.txt')).headers['cdn-cache']).toBe('MISS');
    expect((await edge.get(zone.host, '/two.txt')).headers['cdn-cache']).toBe('HIT');
    expect(asked('/two.txt')).toHaveLength(1);
  });

  it("gives the origin the client's address and scheme, the shield's own request id, and never the proof", async () => {
    const zone = await createPullZone(a, 'shield-headers', origin.url, { EnableOriginShield: true });
    const res = await getFrom(edge, zone.host, '/who.txt?x=1');
    expect(res.status).toBe(200);
    const [seen] = asked('/who.txt?x=1');
    expect(seen!.headers['x-forwarded-for']).toBe('127.0.0.2');
    expect(seen!.headers['x-real-ip']).toBe('127.0.0.2');
    expect(seen!.headers['x-forwarded-proto']).toBe('http');
    expect(seen!.headers[SHIELD_HEADER]).toBeUndefined();
    expect(seen!.headers['cdn-requestid']).not.toBe(res.headers['cdn-requestid']);
  });

  it('has concurrent misses on both instances coalesced into one origin request at the shield', async () => {
    const zone = await createPullZone(a, 'shield-coalesced', origin.url, { EnableOriginShield: true, EnableRequestCoalescing: true });
    const answers = await Promise.all([
      edge.get(zone.host, '/together.txt?delay=200'),
      edge.get(zone.host, '/together.txt?delay=200'),
      shield.get(zone.host, '/together.txt?delay=200'),
      getFrom(edge, zone.host, '/together.txt?delay=200'),
    ]);
    expect(answers.map((r) => r.text)).toEqual(Array(4).fill('origin /together.txt?delay=200'));
    expect(asked('/together.txt?delay=200')).toHaveLength(1);
  });

  it('sends requests other than GET and HEAD to the origin from the instance they reached', async () => {
    const zone = await createPullZone(a, 'shield-pass', origin.url, { EnableOriginShield: true });
    const res = await edge.request('POST', zone.host, '/form', { 'content-type': 'text/plain' }, 'hello');
    expect(res.status).toBe(200);
    const seen = origin.requests.filter((r) => r.url === '/form');
    expect(seen.map((r) => [r.method, r.body, r.headers['cdn-requestid']])).toEqual([['POST', 'hello', res.headers['cdn-requestid']]]);
  });

  it("lets a token checked at the first edge through the shield, which applies the zone's state", async () => {
    const zone = await createPullZone(a, 'shield-token', origin.url, { EnableOriginShield: true });
    const key = 'shield-token-key-0123';
    expect((await a.post(`/pullzone/${zone.Id}/resetSecurityKey`, { SecurityKey: key })).status).toBe(204);
    expect((await a.post(`/pullzone/${zone.Id}`, { ZoneSecurityEnabled: true })).status).toBe(200);
    const signed = directoryTokenSegment({ key, includeClientIp: false }, { tokenPath: '/private/', expires: Math.floor(Date.now() / 1000) + 600 });
    const res = await edge.get(zone.host, `${signed}/private/a.txt`);
    expect([res.status, res.text]).toEqual([200, 'origin /private/a.txt']);
    // It went through the shield, which asked the origin with its own request id.
    expect(asked('/private/a.txt')[0]!.headers['cdn-requestid']).not.toBe(res.headers['cdn-requestid']);
    expect((await edge.get(zone.host, '/private/b.txt')).status).toBe(403);
    // A suspended zone is refused at the shield too, for a request another edge signed.
    await a.app.services.operator.setSuspended(zone.Id, true);
    const proof = () =>
      a.app.services.originShield.signatures.sign(
        { zoneId: zone.Id, method: 'GET', target: '/private/c.txt', clientIp: '10.0.0.1', scheme: 'http' },
        Date.now(),
      );
    await within(2000, async () => {
      const res = await shield.get(zone.host, '/private/c.txt', { [SHIELD_HEADER]: proof(), 'x-forwarded-for': '10.0.0.1', 'x-forwarded-proto': 'http' });
      return res.status === 403 && res.text.includes('suspended');
    });
    expect(asked('/private/c.txt')).toHaveLength(0);
  });

  it('has the shield sign the origin request when the zone signs, not the instance that sent it there', async () => {
    const zone = await createPullZone(a, 'shield-signed', origin.url, {
      EnableOriginShield: true,
      RequestSigningEnabled: true,
      RequestSigningKey: 'shield-key-id',
      RequestSigningSecret: 'shield-secret',
      RequestSigningRegionName: 'eu-central-1',
    });
    expect((await edge.get(zone.host, '/signed.txt')).status).toBe(200);
    const [seen] = asked('/signed.txt');
    expect(seen!.headers['authorization']).toMatch(
      /^AWS4-HMAC-SHA256 Credential=shield-key-id\/\d{8}\/eu-central-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, /,
    );
    expect(seen!.headers['x-forwarded-for']).toBe('127.0.0.1');
  });
});

describe('a proof a client makes up', () => {
  it('is not trusted: the request meets the token check like any other, and the proof goes no further', async () => {
    const zone = await createPullZone(a, 'shield-forged', origin.url, { EnableOriginShield: true });
    expect((await a.post(`/pullzone/${zone.Id}/resetSecurityKey`, { SecurityKey: 'forged-test-key-0123' })).status).toBe(204);
    expect((await a.post(`/pullzone/${zone.Id}`, { ZoneSecurityEnabled: true })).status).toBe(200);
    const now = Date.now();
    const valid = (target: string) =>
      a.app.services.originShield.signatures.sign({ zoneId: zone.Id, method: 'GET', target, clientIp: '10.0.0.1', scheme: 'https' }, now);
    const forged = [
      `${Math.floor(now / 1000)}.${'A'.repeat(43)}`,
      'anything',
      // A real proof, for another path: the one a client saw on its way could not be reused elsewhere.
      valid('/other.txt'),
    ];
    for (const proof of forged) {
      const res = await shield.get(zone.host, '/secret.txt', { [SHIELD_HEADER]: proof, 'x-forwarded-for': '10.0.0.1', 'x-forwarded-proto': 'https' });
      expect(res.status).toBe(403);
    }
    expect(asked('/secret.txt')).toHaveLength(0);
    // The same proof on the path it was made for is what the other instance sends: trusted.
    const trusted = await shield.get(zone.host, '/other.txt', {
      [SHIELD_HEADER]: valid('/other.txt'),
      'x-forwarded-for': '10.0.0.1',
      'x-forwarded-proto': 'https',
    });
    expect(trusted.status).toBe(200);
    expect(asked('/other.txt')[0]!.headers['x-forwarded-for']).toBe('10.0.0.1');
  });

  it('is dropped by an instance that is not the shield, before it asks anyone', async () => {
    const zone = await createPullZone(a, 'shield-dropped', origin.url);
    const res = await edge.get(zone.host, '/plain.txt', { [SHIELD_HEADER]: 'anything' });
    expect(res.status).toBe(200);
    expect(asked('/plain.txt')[0]!.headers[SHIELD_HEADER]).toBeUndefined();
  });
});

describe("the shield's concurrency limit", () => {
  const limited = (name: string, wait: number) =>
    createPullZone(a, name, origin.url, {
      EnableOriginShield: true,
      OriginShieldEnableConcurrencyLimit: true,
      OriginShieldMaxConcurrentRequests: 1,
      OriginShieldMaxQueuedRequests: 1,
      OriginShieldQueueMaxWaitTime: wait,
    });

  it('lets one request at a time reach the origin, queues one, and answers a third 503 with the error page and Retry-After', async () => {
    const zone = await limited('shield-limit', 30);
    const queue = () => shield.core.shield.queueOf(zone.Id);
    mostInFlight = 0;
    const first = shield.get(zone.host, '/q/1?delay=400');
    await within(2000, async () => queue().running === 1);
    // The second comes through the other instance: the limit is the shield's, for every instance's fills.
    const second = edge.get(zone.host, '/q/2?delay=10');
    await within(2000, async () => queue().waiting === 1);
    const third = await shield.get(zone.host, '/q/3');
    expect(third.status).toBe(503);
    expect(third.headers['retry-after']).toBe('30');
    expect(third.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(third.text).toContain('queue is full');
    const [one, two] = await Promise.all([first, second]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.text).toBe('origin /q/2?delay=10');
    expect(mostInFlight).toBe(1);
    expect(asked('/q/3')).toHaveLength(0);
    expect(queue()).toEqual({ running: 0, waiting: 0 });
    // The queue statistics, per hour: two went to the origin (one of them after waiting); two were
    // above the limit (the second waited, the third found the queue full), all in this hour.
    await a.app.services.usage.flush();
    // The edge counts on the real clock, not the app's.
    const hour = 3_600_000;
    const period = `hourly=true&dateFrom=${new Date(Date.now() - 2 * hour).toISOString()}&dateTo=${new Date(Date.now() + hour).toISOString()}`;
    const stats = await a.get(`/pullzone/${zone.Id}/originshield/queuestatistics?${period}`);
    expect(stats.status).toBe(200);
    const counted = (chart: Record<string, number>) => Object.entries(chart).filter(([, n]) => n > 0);
    const thisHour = Math.floor(Date.now() / hour) * hour;
    const [ran, queued] = [counted(stats.body.ConcurrentRequestsChart), counted(stats.body.QueuedRequestsChart)];
    const sum = (points: [string, number][]) => points.reduce((x, [, n]) => x + n, 0);
    expect([sum(ran), sum(queued)]).toEqual([2, 2]);
    // Counted in the hour they happened (this one, or the one before when the test crossed the hour).
    for (const [point] of [...ran, ...queued]) expect([thisHour - hour, thisHour]).toContain(Date.parse(point));
  });

  it('answers 503 to a request that waited OriginShieldQueueMaxWaitTime seconds, through the other instance too', async () => {
    const zone = await limited('shield-wait', 1);
    const first = shield.get(zone.host, '/w/1?delay=1100');
    await within(2000, async () => shield.core.shield.queueOf(zone.Id).running === 1);
    const started = Date.now();
    const waited = await edge.get(zone.host, '/w/2');
    expect(waited.status).toBe(503);
    expect(waited.headers['retry-after']).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(waited.text).toContain('waited in its queue too long');
    expect((await first).status).toBe(200);
    expect(asked('/w/2')).toHaveLength(0);
  });
});
