/**
 * HTTP/2 on the edge's TLS listener (ALPN `h2`, and `http/1.1` beside it): curl and a node:http2
 * client get the answers an HTTP/1.1 client gets — the same bytes and headers, the cache, ranges,
 * conditional requests, the zone's pages, bodies passed to the origin, the bytes counted — with
 * several streams at once on one connection, and none of the headers HTTP/2 forbids.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { pullZoneSubject } from '../../../src/domain/usage/pull-zone-metrics.js';
import { useEdgeWorld } from '../../helpers/edge-world.js';
import type { TestPullZone } from '../../helpers/edge-plane.js';
import { h2Connect, h2Request } from '../../helpers/http2-client.js';

const run = promisify(execFile);
const STYLESHEET = Buffer.alloc(10 * 1024, 'a{color:red}\n');

/** Requests to `/held/` wait until ten are in at once: they can only all be answered if they arrived together. */
const held: (() => void)[] = [];

const world = useEdgeWorld(
  (req, res, body) => {
    if (req.url?.startsWith('/held')) {
      held.push(() => res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' }).end(`held ${req.url}`));
      if (held.length === 10) for (const answer of held.splice(0)) answer();
      return;
    }
    if (req.url?.startsWith('/echo')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${req.method} ${body}`);
      return;
    }
    if (req.url?.startsWith('/slow')) {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' }).end(`slow ${req.url}`), 100);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'max-age=60', etag: '"v1"', 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' });
    res.end(STYLESHEET);
  },
  { tls: true },
);

interface CurlAnswer {
  version: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** `curl -k` over HTTP/2 or HTTP/1.1 to the TLS listener, the name resolved to it. */
async function curl(version: '--http2' | '--http1.1', host: string, path: string, ...extra: string[]): Promise<CurlAnswer> {
  const port = world.edge.tlsPort!;
  const { stdout } = await run('curl', [
    '-sS',
    '-k',
    '-i',
    version,
    '--max-time',
    '10',
    '--resolve',
    `${host}:${port}:127.0.0.1`,
    ...extra,
    `https://${host}:${port}${path}`,
  ]);
  const end = stdout.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = stdout.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const [protocol = '', status = '0'] = statusLine.split(' ');
  return { version: protocol, status: Number(status), headers, body: stdout.slice(end + 4) };
}

/** The headers two answers to the same request must share: all but the date, the age (a second may pass between them), the request's id and HTTP/1.1's connection headers. */
function comparable(headers: Record<string, string>): Record<string, string> {
  const { date: _date, age: _age, 'cdn-requestid': _id, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

async function bandwidthOf(zoneId: number): Promise<number> {
  const now = Date.now();
  const entries = await world.t.app.services.usage.series(pullZoneSubject(zoneId), ['bandwidth'], new Date(now - 3_600_000), new Date(now + 3_600_000));
  return entries.reduce((sum, e) => sum + e.value, 0);
}

describe('HTTP/2 on the TLS listener', () => {
  // One zone, whose hostname's certificate is issued once; each test asks its own paths.
  let zone: TestPullZone;
  beforeAll(async () => {
    zone = await world.zone('h2');
    // Under /hop/ a hop-by-hop header on every answer; under /paced/ 40 kB/s (edge rules).
    for (const [pattern, action] of [
      ['*/hop/*', { ActionType: 5, ActionParameter1: 'Keep-Alive', ActionParameter2: 'timeout=5' }],
      ['*/paced/*', { ActionType: 18, ActionParameter1: '40', ActionParameter2: '' }],
    ] as const) {
      const rule = {
        ...action,
        TriggerMatchingType: 0,
        Enabled: true,
        Description: pattern,
        Triggers: [{ Type: 0, PatternMatchingType: 0, Parameter1: '', PatternMatches: [pattern] }],
      };
      expect((await world.t.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, rule)).status).toBe(201);
    }
  });

  it('curl --http2 gets HTTP/2 and the same bytes and headers as over HTTP/1.1', async () => {
    const miss = await curl('--http2', zone.host, '/site.css');
    expect(miss.version).toBe('HTTP/2');
    expect(miss.status).toBe(200);
    expect(miss.headers['cdn-cache']).toBe('MISS');
    expect(miss.body).toBe(STYLESHEET.toString());
    const [two, one] = [await curl('--http2', zone.host, '/site.css'), await curl('--http1.1', zone.host, '/site.css')];
    expect([two.version, one.version]).toEqual(['HTTP/2', 'HTTP/1.1']);
    expect(two.headers['cdn-cache']).toBe('HIT');
    expect(two.body).toBe(one.body);
    expect(comparable(two.headers)).toEqual(comparable(one.headers));
    // The edge's own pages too: a hostname no zone serves.
    const unknown = await curl('--http2', 'nobody.example.org', '/');
    expect([unknown.version, unknown.status, unknown.headers['content-type']]).toEqual(['HTTP/2', 404, 'text/html; charset=utf-8']);
  });

  it('runs several streams at once on one connection, each answered in full', async () => {
    const session = await h2Connect(world.edge.tlsPort!, zone.host);
    try {
      // The origin answers none of the ten before all ten are in: the streams are open at once.
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => h2Request(session, zone.host, `/held/${i}`)));
      expect(answers.map((a) => a.text)).toEqual(Array.from({ length: 10 }, (_, i) => `held /held/${i}`));
      expect(answers.every((a) => a.status === 200 && a.headers['cdn-cache'] === 'MISS')).toBe(true);
      const hits = await Promise.all(Array.from({ length: 10 }, (_, i) => h2Request(session, zone.host, `/held/${i}`)));
      expect(hits.every((a) => a.headers['cdn-cache'] === 'HIT')).toBe(true);
    } finally {
      session.close();
    }
  });

  it('answers a range and a conditional request from the cache, passes a body to the origin, and counts the bytes sent', async () => {
    const session = await h2Connect(world.edge.tlsPort!, zone.host);
    const before = await bandwidthOf(zone.Id);
    try {
      const whole = await h2Request(session, zone.host, '/site.css?ranges');
      expect(whole.body.equals(STYLESHEET)).toBe(true);
      const range = await h2Request(session, zone.host, '/site.css?ranges', { range: 'bytes=2-5' });
      expect([range.status, range.text, range.headers['content-range'], range.headers['cdn-cache']]).toEqual([
        206,
        'colo',
        `bytes 2-5/${STYLESHEET.length}`,
        'HIT',
      ]);
      const unchanged = await h2Request(session, zone.host, '/site.css?ranges', { 'if-none-match': '"v1"' });
      expect([unchanged.status, unchanged.body.length]).toEqual([304, 0]);
      const posted = await h2Request(session, zone.host, '/echo', { 'content-type': 'text/plain' }, { method: 'POST', body: 'sent over h2' });
      expect([posted.status, posted.text, posted.headers['cdn-cache']]).toEqual([200, 'POST sent over h2', 'BYPASS']);
      const seen = world.origin.requests.at(-1)!;
      // The origin gets an HTTP/1.1 request: the client's host, no pseudo-header.
      expect(Object.keys(seen.headers).filter((name) => name.startsWith(':'))).toEqual([]);
      const expected = STYLESHEET.length + 4 + 0 + 'POST sent over h2'.length;
      await expect.poll(() => bandwidthOf(zone.Id)).toBe(before + expected);
    } finally {
      session.close();
    }
  });

  it('paces a throttled answer as over HTTP/1.1', async () => {
    // 10 KiB at 40 kB/s: about a quarter of a second.
    const session = await h2Connect(world.edge.tlsPort!, zone.host);
    try {
      const started = performance.now();
      const answer = await h2Request(session, zone.host, '/paced/site.css');
      expect(answer.body.equals(STYLESHEET)).toBe(true);
      expect(performance.now() - started).toBeGreaterThan(200);
    } finally {
      session.close();
    }
  });

  it('leaves out the connection-specific headers HTTP/2 forbids, which HTTP/1.1 answers may carry', async () => {
    const one = await curl('--http1.1', zone.host, '/hop/site.css');
    expect(one.headers['keep-alive']).toBe('timeout=5');
    const two = await curl('--http2', zone.host, '/hop/site.css');
    expect([two.version, two.status, two.headers['keep-alive']]).toEqual(['HTTP/2', 200, undefined]);
    expect(two.body).toBe(STYLESHEET.toString());
  });

  it('closes gracefully: a session with a request in flight gets its answer, then the listener is gone', async () => {
    const session = await h2Connect(world.edge.tlsPort!, zone.host);
    const pending = h2Request(session, zone.host, '/slow/closing');
    await new Promise((resolve) => setTimeout(resolve, 30));
    const closed = world.edge.close();
    expect((await pending).text).toBe('slow /slow/closing');
    await closed;
    await expect(h2Connect(world.edge.tlsPort!, zone.host)).rejects.toThrow();
  });
});
