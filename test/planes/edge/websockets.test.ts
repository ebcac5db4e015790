/**
 * WebSockets through the edge (EnableWebSockets, MaxWebSocketConnections): undici's WebSocket
 * client, over plain HTTP and over TLS (an HTTP/1.1 upgrade on the listener that also speaks
 * HTTP/2), through the edge to a WebSocket echo origin (test/helpers/websocket-origin.ts). Refused
 * when the zone does not allow them, when its access rules refuse the client, when its origin is a
 * storage zone, and over the zone's limit on this instance; each connection released and counted
 * when either side closes it.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Agent, WebSocket } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectiveWebSocketLimit } from '../../../src/domain/edge/websockets/limits.js';
import { BANDWIDTH, pullZoneSubject, WEBSOCKET_CONNECTIONS } from '../../../src/domain/usage/pull-zone-metrics.js';
import { createPullZone, type TestPullZone, updatePullZone } from '../../helpers/edge-plane.js';
import { useEdgeWorld } from '../../helpers/edge-world.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { createStorageZone } from '../../helpers/storage-plane.js';
import { startWebSocketOrigin, type WebSocketOrigin } from '../../helpers/websocket-origin.js';

const run = promisify(execFile);
const world = useEdgeWorld(undefined, { tls: true });
let echo: WebSocketOrigin;
// Every name resolves to the edge; the TLS listener's certificate is the local authority's.
const dispatcher = new Agent({ connect: { rejectUnauthorized: false, lookup: (_name, _options, done) => done(null, [{ address: '127.0.0.1', family: 4 }]) } });

beforeAll(async () => {
  echo = await startWebSocketOrigin();
});
afterAll(async () => {
  await echo?.close();
  await dispatcher.close();
});

const wsZone = (name: string, settings: Record<string, unknown> = {}) => createPullZone(world.t, name, echo.url, { EnableWebSockets: true, ...settings });

function urlOf(zone: TestPullZone, scheme: 'ws' | 'wss', path = '/chat'): string {
  return `${scheme}://${zone.host}:${scheme === 'ws' ? world.edge.port : world.edge.tlsPort}${path}`;
}

/** An open WebSocket, or the error it failed with before opening. */
function connect(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { dispatcher });
    socket.binaryType = 'arraybuffer';
    socket.addEventListener('open', () => resolve(socket), { once: true });
    socket.addEventListener('error', () => reject(new Error(`the WebSocket to ${url} did not open`)), { once: true });
  });
}

function nextMessage(socket: WebSocket): Promise<string | Buffer> {
  return new Promise((resolve) => {
    socket.addEventListener('message', (event) => resolve(typeof event.data === 'string' ? event.data : Buffer.from(event.data as ArrayBuffer)), {
      once: true,
    });
  });
}

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) resolve(1006);
    socket.addEventListener('close', (event) => resolve(event.code), { once: true });
  });
}

/** The handshake sent by hand, for the status of a refusal (a WebSocket client only learns that it failed). */
function handshake(zone: TestPullZone, path = '/chat') {
  const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') };
  return rawRequest(world.edge.port, zone.host, path, { headers });
}

async function usageOf(zoneId: number, metric: string): Promise<number> {
  const now = Date.now();
  const entries = await world.t.app.services.usage.series(pullZoneSubject(zoneId), [metric], new Date(now - 3_600_000), new Date(now + 3_600_000));
  return entries.reduce((sum, e) => sum + e.value, 0);
}

describe('WebSockets through the edge', () => {
  it("is refused while the zone does not allow them (403 with the zone's page), and carried once it does", async () => {
    const zone = await wsZone('ws-off', { EnableWebSockets: false });
    const refused = await handshake(zone);
    expect([refused.status, refused.headers['content-type']]).toEqual([403, 'text/html; charset=utf-8']);
    expect(refused.text).toContain('does not allow WebSocket connections');
    await expect(connect(urlOf(zone, 'ws'))).rejects.toThrow('did not open');
    expect(echo.handshakes.some((h) => h.headers['cdn-pullzoneid'] === String(zone.Id))).toBe(false);

    await updatePullZone(world.t, zone.Id, { EnableWebSockets: true });
    const socket = await connect(urlOf(zone, 'ws'));
    const answer = nextMessage(socket);
    socket.send('hello');
    expect(await answer).toBe('hello');
    socket.close();
  });

  it('echoes text and binary messages both ways over http and over https (an HTTP/1.1 upgrade beside HTTP/2)', async () => {
    const zone = await wsZone('ws-echo');
    for (const scheme of ['ws', 'wss'] as const) {
      const socket = await connect(urlOf(zone, scheme, `/chat?via=${scheme}`));
      const text = nextMessage(socket);
      socket.send(`hello over ${scheme}`);
      expect(await text).toBe(`hello over ${scheme}`);
      const bytes = randomBytes(70_000);
      const binary = nextMessage(socket);
      socket.send(bytes);
      expect(Buffer.compare(bytes, (await binary) as Buffer)).toBe(0);
      socket.close();
      await closed(socket);
    }
    // The origin saw the client's handshake, with the edge's headers, for the path asked.
    const seen = echo.handshakes.filter((h) => h.headers['cdn-pullzoneid'] === String(zone.Id));
    expect(seen.map((h) => [h.url, h.headers['x-forwarded-proto'], h.headers['upgrade'], h.headers['x-real-ip']])).toEqual([
      ['/chat?via=ws', 'http', 'websocket', '127.0.0.1'],
      ['/chat?via=wss', 'https', 'websocket', '127.0.0.1'],
    ]);
  });

  it("runs the zone's access checks, refuses a storage zone origin (502), and passes on an origin's refusal", async () => {
    const blocked = await wsZone('ws-blocked', { BlockedIps: ['127.0.0.1'] });
    expect((await handshake(blocked)).status).toBe(403);
    const storage = await createStorageZone(world.t, 'ws-files');
    const files = await wsZone('ws-files', { OriginType: 2, StorageZoneId: storage.Id });
    const refused = await handshake(files);
    expect(refused.status).toBe(502);
    expect(refused.text).toContain('storage zone, which takes no WebSocket connections');
    const zone = await wsZone('ws-refusing');
    const passed = await handshake(zone, '/refuse');
    expect([passed.status, passed.text, passed.headers['cdn-pullzone']]).toEqual([401, 'no entrance', String(zone.Id)]);
  });

  it('holds a zone to its limit, at least 100 and rounded up to the next 100: the 101st is refused (429) until one closes', async () => {
    expect([0, -5, 1, 100, 101, 150, 2500].map(effectiveWebSocketLimit)).toEqual([100, 100, 100, 100, 200, 200, 2500]);
    const zone = await wsZone('ws-limit', { MaxWebSocketConnections: 40 });
    const sockets = await Promise.all(Array.from({ length: 100 }, () => connect(urlOf(zone, 'ws'))));
    expect(world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(100);
    const over = await handshake(zone);
    expect([over.status, over.text.includes('holds its 100 WebSocket connections')]).toEqual([429, true]);
    await expect(connect(urlOf(zone, 'wss'))).rejects.toThrow('did not open');
    // The ones open still carry messages.
    const answer = nextMessage(sockets[99]!);
    sockets[99]!.send('still here');
    expect(await answer).toBe('still here');
    sockets[0]!.close();
    await closed(sockets[0]!);
    await expect.poll(() => world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(99);
    const next = await connect(urlOf(zone, 'wss'));
    expect(world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(100);
    for (const socket of [...sockets.slice(1), next]) socket.close();
    await expect.poll(() => world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(0);
  });

  it('releases a connection closed from either side, and counts it with its bytes both ways', async () => {
    const zone = await wsZone('ws-close');
    const byClient = await connect(urlOf(zone, 'ws'));
    const byOrigin = await connect(urlOf(zone, 'wss'));
    expect(world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(2);
    const echoed = nextMessage(byClient);
    byClient.send('12345');
    await echoed;
    byClient.close(1000);
    expect(await closed(byClient)).toBe(1000);
    await expect.poll(() => world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(1);
    // The origin ends the other (its close code reaches the client).
    const ending = closed(byOrigin);
    byOrigin.send('close-me');
    expect(await ending).toBe(4000);
    await expect.poll(() => world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(0);
    expect(echo.open).toBe(0);
    expect(await usageOf(zone.Id, WEBSOCKET_CONNECTIONS)).toBe(2);
    // Both ways: at least the messages' frames (the client's masked, the origin's not), and their close frames.
    expect(await usageOf(zone.Id, BANDWIDTH)).toBeGreaterThan(2 * 5 + 8);
    expect(world.edge.errors).toEqual([]);
  });

  it('answers other upgrades as plain requests (curl --http2 over plain HTTP offers h2c)', async () => {
    const zone = await createPullZone(world.t, 'ws-h2c', world.origin.url);
    const { stdout } = await run('curl', ['-sS', '-i', '--http2', '--max-time', '10', '-H', `host: ${zone.host}`, `${world.edge.url}/plain.txt`]);
    expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(stdout.endsWith('origin /plain.txt')).toBe(true);
  });

  it('ends its WebSockets when the edge closes', async () => {
    const zone = await wsZone('ws-shutdown');
    const socket = await connect(urlOf(zone, 'ws'));
    const secure = await connect(urlOf(zone, 'wss'));
    const ends = [closed(socket), closed(secure)];
    await world.edge.close();
    expect((await Promise.all(ends)).length).toBe(2);
    await expect.poll(() => world.edge.core.webSockets.counts.openFor(zone.Id)).toBe(0);
  });
});
