/**
 * The edge's own error pages over real sockets: the default page (status, reason, request id,
 * edgeplane's name, its Content-Security-Policy), ErrorPageWhitelabel, the status widget
 * (ErrorPageEnableStatusWidget with ErrorPageStatusCode), the zone's own page
 * (ErrorPageEnableCustomCode), and which origin errors the edge replaces: its own 502 and 504,
 * never an origin's own 5xx answer.
 */
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, updatePullZone } from '../../helpers/edge-plane.js';

const WIDGET = 'https://{code}.status.example/embed/script.js';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
/**
 * An origin that cannot be reached: it drops every connection unanswered. (A port closed after use
 * was taken again by another process's listener while the suite ran, twice.)
 */
let closedUrl: string;
let dropping: Server;

beforeAll(async () => {
  t = await createTestApp();
  edge = await startEdgePlane(t, { statusWidgetScript: WIDGET });
  origin = await startOrigin((req, res) => {
    if (req.url === '/silent') return;
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"error":"maintenance"}');
  });
  dropping = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => dropping?.close(resolve));
  await edge?.close();
  await origin?.close();
  await t?.close();
});

describe('the default error page', () => {
  it('names the status, the reason and the request id, with edgeplane at its foot and a policy that runs nothing', async () => {
    const zone = await createPullZone(t, 'errors-default', closedUrl);
    const res = await edge.get(zone.host, '/page');
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<h1>502 Bad Gateway</h1>');
    expect(res.text).toContain('The origin could not be reached');
    expect(res.text).toContain(`Request ID: ${res.headers['cdn-requestid']}`);
    expect(res.text).toContain('<footer>edgeplane edge</footer>');
    expect(res.text).not.toContain('<script');
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'/);
  });

  it('ErrorPageWhitelabel leaves the product name off, on the 502 and the 504 pages', async () => {
    const zone = await createPullZone(t, 'errors-whitelabel', closedUrl, { ErrorPageWhitelabel: true });
    const down = await edge.get(zone.host, '/page');
    expect(down.status).toBe(502);
    expect(down.text).toContain('<h1>502 Bad Gateway</h1>');
    expect(down.text).toContain(`Request ID: ${down.headers['cdn-requestid']}`);
    expect(down.text.toLowerCase()).not.toContain('edgeplane');

    await updatePullZone(t, zone.Id, { OriginUrl: origin.url, OriginResponseTimeout: 1 });
    const late = await edge.get(zone.host, '/silent');
    expect(late.status).toBe(504);
    expect(late.text).toContain('<h1>504 Gateway Timeout</h1>');
    expect(late.text.toLowerCase()).not.toContain('edgeplane');
  });

  it('the unknown hostname page is the branded page with its policy, without a request id', async () => {
    const res = await edge.get('nobody.example', '/');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<h1>404 Not Found</h1>');
    expect(res.text).not.toContain('Request ID');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });
});

describe('the status widget', () => {
  it('is embedded for the zone code when on, with a policy that lets its origin in; not when off', async () => {
    const zone = await createPullZone(t, 'errors-widget', closedUrl, { ErrorPageEnableStatusWidget: true, ErrorPageStatusCode: 'Abc123xyz' });
    const on = await edge.get(zone.host, '/page');
    expect(on.status).toBe(502);
    expect(on.text).toContain('<script src="https://abc123xyz.status.example/embed/script.js" async></script>');
    const policy = on.headers['content-security-policy'];
    expect(policy).toContain('script-src https://abc123xyz.status.example');
    expect(policy).toContain('frame-src https://abc123xyz.status.example');
    expect(policy).toContain("default-src 'none'");

    await updatePullZone(t, zone.Id, { ErrorPageEnableStatusWidget: false });
    const off = await edge.get(zone.host, '/page');
    expect(off.text).not.toContain('<script');
    expect(off.headers['content-security-policy']).not.toContain('status.example');
  });

  it('shows no widget for a code outside the allowed characters, and the code never reaches the page', async () => {
    const hostile = ['"><script>alert(1)</script>', 'evil.example/x', 'a b', '-lead', 'x'.repeat(64)];
    const zone = await createPullZone(t, 'errors-widget-bad', closedUrl, { ErrorPageEnableStatusWidget: true });
    for (const code of hostile) {
      await updatePullZone(t, zone.Id, { ErrorPageStatusCode: code });
      const res = await edge.get(zone.host, '/page');
      expect(res.status).toBe(502);
      expect(res.text).not.toContain('<script');
      expect(res.text).not.toContain(code);
    }
  });

  it('is not shown when no status page service is set, whatever the zone says', async () => {
    const bare = await startEdgePlane(t);
    try {
      const zone = await createPullZone(t, 'errors-no-service', closedUrl, { ErrorPageEnableStatusWidget: true, ErrorPageStatusCode: 'abc123' });
      const res = await bare.get(zone.host, '/page');
      expect(res.status).toBe(502);
      expect(res.text).not.toContain('<script');
    } finally {
      await bare.close();
    }
  });
});

describe('the zone own page and the origin own errors', () => {
  it('ErrorPageEnableCustomCode serves the zone HTML as it is, with no policy nor widget added', async () => {
    const custom = '<html><body><h1>We will be right back</h1><script src="/status.js"></script></body></html>';
    const zone = await createPullZone(t, 'errors-custom', closedUrl, {
      ErrorPageEnableCustomCode: true,
      ErrorPageCustomCode: custom,
      ErrorPageEnableStatusWidget: true,
      ErrorPageStatusCode: 'abc123',
    });
    const res = await edge.get(zone.host, '/page');
    expect([res.status, res.text]).toEqual([502, custom]);
    expect(res.headers['content-security-policy']).toBeUndefined();
  });

  it('an origin answering 5xx is passed through as it answered, not replaced by a page', async () => {
    const zone = await createPullZone(t, 'errors-origin-5xx', origin.url, { ErrorPageEnableCustomCode: true, ErrorPageCustomCode: '<p>ours</p>' });
    const res = await edge.get(zone.host, '/api/state');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe('{"error":"maintenance"}');
    expect(res.headers['cdn-requestpullcode']).toBe('503');
  });
});
