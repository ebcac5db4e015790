/**
 * Where the edge may fetch from, over real sockets: link-local and metadata addresses, the
 * unspecified address and edgeplane's own listeners are refused, as an OriginUrl written through
 * the API (400 naming OriginUrl) and when the edge connects (a name resolving there, DNS
 * rebinding: 502, nothing sent); loopback and private addresses are allowed unless
 * EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES is deny. Host names resolve through a lookup the test gives
 * the app, so that a name can point anywhere.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIPv6, type LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';

/** Names the test points where it needs; any other name resolves as usual. */
const NAMES: Record<string, string[]> = {
  'origin.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['127.0.0.1', '169.254.169.254'],
  'mapped.test': ['::ffff:169.254.169.254'],
  'private.test': ['10.20.30.40'],
};
const lookups: string[] = [];
const testLookup: LookupFunction = (hostname, options, callback) => {
  const found = NAMES[hostname];
  if (!found) return (dnsLookup as LookupFunction)(hostname, options, callback);
  lookups.push(hostname);
  const all: LookupAddress[] = found.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  if (options.all) callback(null, all);
  else callback(null, all[0]!.address, all[0]!.family);
};

const create = (t: TestContext, name: string, originUrl: string) => t.post('/pullzone', { Name: name, OriginUrl: originUrl });

describe('OriginUrl through the API', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({}, { originLookup: testLookup });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses link-local, metadata and unspecified addresses in every spelling, on add and update, naming OriginUrl', async () => {
    const refused = [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.170.2/v2/credentials',
      'http://2852039166/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/',
      'http://0.0.0.0:3000/',
      'http://[::]:3000/',
      'http://224.0.0.1/',
    ];
    for (const [i, url] of refused.entries()) {
      const res = await create(t, `refused-${i}`, url);
      expectErrorBody(res, 400);
      expect(errorFields(res), url).toEqual(['OriginUrl']);
    }
    const zone = await create(t, 'later-refused', 'http://127.0.0.1:9');
    expect(zone.status).toBe(201);
    const update = await t.post(`/pullzone/${zone.body.Id}`, { OriginUrl: 'http://169.254.169.254/' });
    expectErrorBody(update, 400);
    expect(errorFields(update)).toEqual(['OriginUrl']);
    expect(update.body.Message).toMatch(/link-local/);
    expect((await t.get(`/pullzone/${zone.body.Id}`)).body.OriginUrl).toBe('http://127.0.0.1:9');
  });

  it("refuses edgeplane's own listeners (the configured ports on loopback), and allows other loopback and private origins", async () => {
    for (const [i, url] of [
      `http://127.0.0.1:${t.config.port}`,
      `http://localhost:${t.config.storagePort}/`,
      `https://127.0.0.1:${t.config.edgeTlsPort}`,
    ].entries()) {
      const res = await create(t, `own-${i}`, url);
      expect(errorFields(res), url).toEqual(['OriginUrl']);
      expect(res.body.Message).toMatch(/own listener/);
    }
    for (const [i, url] of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://10.0.0.5', 'http://[::1]:8000', 'https://origin.example.com'].entries()) {
      expect((await create(t, `allowed-${i}`, url)).status, url).toBe(201);
    }
  });
});

describe('the edge connecting to an origin', () => {
  let t: TestContext;
  let edge: EdgePlane;
  let origin: TestOrigin;
  beforeAll(async () => {
    t = await createTestApp({}, { originLookup: testLookup });
    origin = await startOrigin();
    edge = await startEdgePlane(t);
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
    await t?.close();
  });

  it('refuses a name that resolves to a link-local address (DNS rebinding), with no retry and nothing sent', async () => {
    const fine = await createPullZone(t, 'named-origin', `http://origin.test:${origin.port}`);
    expect((await edge.get(fine.host, '/a')).text).toBe('origin /a');
    for (const name of ['metadata.test', 'mixed.test', 'mapped.test']) {
      // Written through the API: a name is judged when the edge connects, on what it resolves to then.
      const zone = await createPullZone(t, `rebound-${name.split('.')[0]}`, `http://${name}:${origin.port}`, {
        OriginRetries: 3,
        OriginRetryDelay: 2,
      });
      const before = origin.requests.length;
      const started = Date.now();
      const res = await edge.get(zone.host, '/latest/meta-data/');
      expect(res.status, name).toBe(502);
      expect(res.text).toContain('169.254.169.254');
      expect(Date.now() - started).toBeLessThan(1500);
      expect(origin.requests.length).toBe(before);
    }
    expect(lookups).toEqual(expect.arrayContaining(['origin.test', 'metadata.test', 'mixed.test', 'mapped.test']));
  });

  it('refuses a redirect to a metadata address (FollowRedirects) and an edge rule sending requests there', async () => {
    const redirecting = await startOrigin((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    try {
      const zone = await createPullZone(t, 'redirected', redirecting.url, { FollowRedirects: true });
      const res = await edge.get(zone.host, '/x');
      expect(res.status).toBe(502);
      expect(res.text).toContain('link-local');
    } finally {
      await redirecting.close();
    }
    const ruled = await createPullZone(t, 'ruled', origin.url);
    const rule = await t.post(`/pullzone/${ruled.Id}/edgerules/addOrUpdate`, {
      ActionType: 2,
      ActionParameter1: 'http://[::ffff:169.254.169.254]',
      Triggers: [{ Type: 0, PatternMatches: ['*'] }],
      Enabled: true,
    });
    expect(rule.status).toBe(201);
    expect((await edge.get(ruled.host, '/y')).status).toBe(502);
  });

  it('refuses the edge itself as an origin, on the port the system picked (no loop)', async () => {
    const api = await create(t, 'edge-literal', `http://127.0.0.1:${edge.port}`);
    expect(errorFields(api)).toEqual(['OriginUrl']);
    const zone = await createPullZone(t, 'looped', `http://origin.test:${edge.port}`, { AddHostHeader: true });
    const res = await edge.get(zone.host, '/loop');
    expect(res.status).toBe(502);
    expect(res.text).toContain('own listener');
  });
});

describe('EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES=deny', () => {
  let t: TestContext;
  let edge: EdgePlane;
  let origin: TestOrigin;
  beforeAll(async () => {
    t = await createTestApp({ originPrivateAddresses: 'deny' }, { originLookup: testLookup });
    origin = await startOrigin();
    edge = await startEdgePlane(t);
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
    await t?.close();
  });

  it('refuses loopback and private addresses through the API and when a name resolves to one', async () => {
    for (const [i, url] of [origin.url, 'http://localhost:3000', 'http://10.0.0.5', 'http://192.168.1.10', 'http://[::1]:8000', 'http://[fd12::1]'].entries()) {
      const res = await create(t, `private-${i}`, url);
      expect(errorFields(res), url).toEqual(['OriginUrl']);
      expect(res.body.Message).toMatch(/EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES/);
    }
    for (const name of ['origin.test', 'private.test']) {
      const zone = await createPullZone(t, `deny-${name.split('.')[0]}`, `http://${name}:${origin.port}`);
      const res = await edge.get(zone.host, '/a');
      expect(res.status, name).toBe(502);
      expect(res.text).toMatch(/loopback or private/);
    }
    expect(origin.requests).toHaveLength(0);
  });
});
