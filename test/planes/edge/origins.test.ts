/**
 * How the edge asks origins: the headers it sends, timeouts, retries, redirects, failures as pages,
 * storage zones as origins, requests passed through, and concurrent misses coalesced.
 */
import { execFile } from 'node:child_process';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zonePath } from '../../../src/domain/files/paths.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, updatePullZone } from '../../helpers/edge-plane.js';
import { createStorageZone } from '../../helpers/storage-plane.js';
import { CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../../http/pull-zones/fixtures.js';

const run = promisify(execFile);
let t: TestContext;
let edge: EdgePlane;
const origins: TestOrigin[] = [];

beforeAll(async () => {
  t = await createTestApp();
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await Promise.all(origins.map((o) => o.close()));
  await t?.close();
});

async function origin(handler?: Parameters<typeof startOrigin>[0]) {
  const o = await startOrigin(handler);
  origins.push(o);
  return o;
}

describe('the request to the origin', () => {
  it("sends the origin's host, the client's address and the request id; OriginHostHeader and AddHostHeader change the Host", async () => {
    const o = await origin();
    const zone = await createPullZone(t, 'origin-headers', o.url, { CacheControlMaxAgeOverride: 0 });
    const res = await edge.get(zone.host, '/h?x=1', { 'x-forwarded-for': '6.6.6.6', 'user-agent': 'test-agent' });
    const seen = o.requests.at(-1)!;
    expect(seen.url).toBe('/h?x=1');
    expect(seen.headers['host']).toBe(`127.0.0.1:${o.port}`);
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-real-ip']).toBe('127.0.0.1');
    expect(seen.headers['user-agent']).toBe('test-agent');
    expect(seen.headers['cdn-requestid']).toBe(res.headers['cdn-requestid']);
    await updatePullZone(t, zone.Id, { OriginHostHeader: 'origin.example.com' });
    await edge.get(zone.host, '/h');
    expect(o.requests.at(-1)!.headers['host']).toBe('origin.example.com');
    await updatePullZone(t, zone.Id, { AddHostHeader: true });
    await edge.get(zone.host, '/h');
    expect(o.requests.at(-1)!.headers['host']).toBe(zone.host);
  });

  it("prefixes the origin URL's own path", async () => {
    const o = await origin();
    const zone = await createPullZone(t, 'origin-path', `${o.url}/base/`);
    expect((await edge.get(zone.host, '/file.txt')).text).toBe('origin /base/file.txt');
  });

  it('passes other methods through with their body, never cached', async () => {
    const o = await origin((req, res, body) => res.end(`${req.method} ${body}`));
    const zone = await createPullZone(t, 'origin-post', o.url);
    const res = await edge.request('POST', zone.host, '/form', { 'content-type': 'text/plain' }, 'hello');
    expect([res.status, res.text, res.headers['cdn-cache']]).toEqual([200, 'POST hello', 'BYPASS']);
  });

  it('follows redirects with FollowRedirects, else passes them on', async () => {
    const o = await origin((req, res) => {
      if (req.url === '/old') {
        res.writeHead(302, { location: '/new' });
        res.end();
      } else res.end(`at ${req.url}`);
    });
    const zone = await createPullZone(t, 'origin-redirects', o.url, { CacheControlMaxAgeOverride: 0 });
    const passed = await edge.get(zone.host, '/old');
    expect([passed.status, passed.headers['location']]).toEqual([302, '/new']);
    await updatePullZone(t, zone.Id, { FollowRedirects: true });
    const followed = await edge.get(zone.host, '/old');
    expect([followed.status, followed.text]).toEqual([200, 'at /new']);
  });
});

describe('an HTTPS origin', () => {
  it('is reached over TLS; with VerifyOriginSSL its certificate must be valid, a self-signed one is refused (502)', async () => {
    const server = createHttpsServer({ cert: CERTIFICATE_PEM, key: CERTIFICATE_KEY_PEM }, (req, res) => res.end(`secure ${req.url}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const zone = await createPullZone(t, 'origin-https', url, { CacheControlMaxAgeOverride: 0, VerifyOriginSSL: false });
      expect((await edge.get(zone.host, '/s')).text).toBe('secure /s');
      await updatePullZone(t, zone.Id, { VerifyOriginSSL: true });
      expect((await edge.get(zone.host, '/s')).status).toBe(502);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('origin failures', () => {
  it('answers 502 when the origin cannot be reached, 504 when it does not answer in OriginResponseTimeout', async () => {
    const refused = await createPullZone(t, 'origin-refused', 'http://127.0.0.1:1');
    const down = await edge.get(refused.host, '/x');
    expect(down.status).toBe(502);
    expect(down.text).toContain('502');
    const silent = await origin(() => undefined);
    const slow = await createPullZone(t, 'origin-slow', silent.url, { OriginResponseTimeout: 1 });
    const timedOut = await edge.get(slow.host, '/x');
    expect(timedOut.status).toBe(504);
  });

  it('answers 504 when no connection is made in OriginConnectTimeout, retried only with OriginRetryConnectionTimeout', async () => {
    // A TCP server that accepts and never speaks: the TLS handshake of an https origin never ends,
    // so the connection (TCP and TLS) is never made.
    const connections: Socket[] = [];
    const mute = createNetServer((socket) => connections.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(mute.address() as AddressInfo).port}`;
      const zone = await createPullZone(t, 'origin-mute', url, { OriginConnectTimeout: 1, OriginRetries: 1, OriginRetryConnectionTimeout: false });
      const started = performance.now();
      const once = await edge.get(zone.host, '/c');
      expect([once.status, connections.length]).toEqual([504, 1]);
      expect(once.text).toContain('no connection to the origin within 1 s');
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);

      await updatePullZone(t, zone.Id, { OriginRetryConnectionTimeout: true });
      expect((await edge.get(zone.host, '/c2')).status).toBe(504);
      expect(connections.length).toBe(3);
    } finally {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
  });

  it('retries as OriginRetries and OriginRetry5XXResponses say', async () => {
    let calls = 0;
    const flaky = await origin((_req, res) => {
      calls++;
      res.writeHead(calls < 3 ? 503 : 200, { 'cache-control': 'no-store' });
      res.end(calls < 3 ? 'busy' : 'finally');
    });
    const zone = await createPullZone(t, 'origin-retries', flaky.url, { OriginRetries: 2 });
    // 5xx answers are not retried unless the zone says so.
    expect((await edge.get(zone.host, '/r')).status).toBe(503);
    calls = 0;
    await updatePullZone(t, zone.Id, { OriginRetry5XXResponses: true });
    const res = await edge.get(zone.host, '/r');
    expect([res.status, res.text, calls]).toEqual([200, 'finally', 3]);
  });
});

describe('a storage zone as origin', () => {
  it('serves the files of the linked storage zone, 404 for a missing one', async () => {
    const storage = await createStorageZone(t, 'edge-origin-files');
    const access = {
      zoneId: String(storage.Id),
      accountId: t.accountId,
      zoneName: storage.Name,
      canWrite: true,
      userId: '',
      s3: false,
      region: 'DE',
      replicationRegions: [],
    };
    await t.app.services.files.upload(access, zonePath(['docs', 'a.txt'], false), Readable.from([Buffer.from('stored bytes')]));
    const zone = await createPullZone(t, 'from-storage', 'https://unused.example', { StorageZoneId: storage.Id, OriginType: 2 });
    const res = await edge.get(zone.host, '/docs/a.txt');
    expect([res.status, res.text, res.headers['content-type']]).toEqual([200, 'stored bytes', 'text/plain']);
    expect(res.headers['etag']).toMatch(/^"/);
    expect((await edge.get(zone.host, '/docs/missing.txt')).status).toBe(404);
  });
});

describe('request coalescing', () => {
  it('EnableRequestCoalescing: 1,000 concurrent misses for one key make exactly one origin request', async () => {
    const slow = await origin((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'cache-control': 'max-age=60' });
        res.end('one answer');
      }, 300);
    });
    const zone = await createPullZone(t, 'coalesced', slow.url, { EnableRequestCoalescing: true });
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () =>
        undiciRequest(`${edge.url}/storm`, { headers: { host: zone.host } }).then(async (r) => [r.statusCode, await r.body.text()] as const),
      ),
    );
    expect(answers.every(([status, text]) => status === 200 && text === 'one answer')).toBe(true);
    expect(slow.requests).toHaveLength(1);
  });

  it('without it, concurrent misses each ask the origin', async () => {
    const slow = await origin((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'cache-control': 'max-age=60' });
        res.end('answer');
      }, 200);
    });
    const zone = await createPullZone(t, 'not-coalesced', slow.url, { EnableRequestCoalescing: false });
    await Promise.all(Array.from({ length: 10 }, () => edge.get(zone.host, '/storm')));
    expect(slow.requests.length).toBeGreaterThan(1);
  });
});

describe('hostnames', () => {
  it('serves an added hostname, redirects it to HTTPS with ForceSSL (curl)', async () => {
    const o = await origin();
    const zone = await createPullZone(t, 'with-hostname', o.url);
    expect((await t.post(`/pullzone/${zone.Id}/addHostname`, { Hostname: 'cdn.example.com' })).status).toBe(204);
    expect((await edge.get('cdn.example.com', '/a')).text).toBe('origin /a');
    expect((await t.post(`/pullzone/${zone.Id}/setForceSSL`, { Hostname: 'cdn.example.com', ForceSSL: true })).status).toBe(204);
    const { stdout } = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{redirect_url}', '-H', 'Host: cdn.example.com', `${edge.url}/a?b=1`]);
    expect(stdout).toBe('301 https://cdn.example.com/a?b=1');
  });

  it("routes the names of a DNS zone's PullZone records, and answers its Redirect records", async () => {
    const o = await origin();
    const zone = await createPullZone(t, 'dns-routed', o.url);
    const dns = await t.post('/dnszone', {
      Domain: 'routed.example',
      Records: [
        { Type: 7, Name: 'cdn', PullZoneId: zone.Id },
        { Type: 5, Name: 'go', Value: 'https://elsewhere.example/' },
      ],
    });
    expect(dns.status).toBe(201);
    expect((await edge.get('cdn.routed.example', '/via-dns')).text).toBe('origin /via-dns');
    const redirect = await edge.get('go.routed.example', '/');
    expect([redirect.status, redirect.headers['location']]).toEqual([301, 'https://elsewhere.example/']);
  });
});

describe('the policy', () => {
  it("applies the zone's access settings and edge rules", async () => {
    const o = await origin();
    const zone = await createPullZone(t, 'with-policy', o.url, { BlockPostRequests: true });
    expect((await edge.request('POST', zone.host, '/p', {}, 'x')).status).toBe(403);
    expect(o.requests).toHaveLength(0);
    await updatePullZone(t, zone.Id, { BlockedIps: ['127.0.0.1'] });
    expect((await edge.get(zone.host, '/p')).status).toBe(403);
  });
});
