/**
 * The preloading screen over real sockets. A browser's page from a slow origin gets the 529 screen
 * at PreloadingScreenDelay with a cookie; the request the screen's script makes with that cookie
 * gets the origin's answer, the origin asked once. A fast origin, the setting off, a file that is
 * no page, a script's or a bot's request, and a cached page get no screen; the zone's own HTML gets
 * the script at its placeholder; an origin that never answers ends in the 504 page; the first
 * visit shows the screen however fast the origin; an answer no one came for is let go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';
import { within } from '../../helpers/within.js';

const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
};
const HOLD_MS = 300;

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;

beforeAll(async () => {
  t = await createTestApp();
  edge = await startEdgePlane(t, { preloading: { holdMs: HOLD_MS } });
  // `?ms=N` answers the first request of the URL after N ms (later ones at once), `/never` never;
  // pages are dynamic unless `cache` is asked.
  const seen = new Set<string>();
  origin = await startOrigin((req, res) => {
    const url = new URL(req.url ?? '/', 'http://origin');
    const delay = seen.has(req.url ?? '') ? 0 : Number(url.searchParams.get('ms') ?? 0);
    seen.add(req.url ?? '');
    if (url.pathname === '/never') return;
    if (url.pathname === '/breaks') {
      // Headers, a first piece, then the connection cut while the edge holds the answer.
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).write('<h1>part'), 60);
      setTimeout(() => res.socket?.destroy(), 100);
      return;
    }
    const type = url.pathname.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8';
    const cacheControl = url.searchParams.has('cache') ? 'max-age=60' : 'no-store';
    setTimeout(() => {
      res.writeHead(200, { 'content-type': type, 'cache-control': cacheControl, 'set-cookie': 'session=abc; Path=/' });
      res.end(`<h1>page ${url.pathname}</h1>`);
    }, delay);
  });
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

const asked = (path: string) => origin.requests.filter((r) => r.url === path).length;

/** The `name=value` part of a Set-Cookie the answer carries for this cookie. */
function cookieSet(headers: Record<string, string>, name: string): string | undefined {
  return (headers['set-cookie'] ?? '')
    .split(/, (?=[a-z_]+=)/)
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];
}

async function timed(host: string, path: string, headers: Record<string, string> = BROWSER) {
  const started = performance.now();
  const res = await edge.get(host, path, headers);
  return { ...res, ms: performance.now() - started };
}

describe('the preloading screen', () => {
  it('a slow page: the screen at the delay, then the follow-up with its cookie gets the origin page, asked once', async () => {
    const zone = await createPullZone(t, 'preload-slow', origin.url, { PreloadingScreenEnabled: true, PreloadingScreenDelay: 100, DisableCookies: false });
    const screen = await timed(zone.host, '/account?ms=400');
    expect(screen.status).toBe(529);
    expect(screen.ms).toBeGreaterThanOrEqual(90);
    expect(screen.headers['cache-control']).toBe('no-store');
    expect(screen.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(screen.headers['content-security-policy']).toMatch(/script-src 'sha256-[^']+'/);
    expect(screen.text).toContain('location.reload()');
    expect(screen.text).toContain('class="spinner"');
    expect(screen.headers['set-cookie']).toMatch(/^edgeplane_preload=[A-Za-z0-9_-]{24}; Path=\/account; Max-Age=900; HttpOnly; SameSite=Lax$/);
    const cookie = cookieSet(screen.headers, 'edgeplane_preload')!;

    const page = await edge.get(zone.host, '/account?ms=400', { ...BROWSER, cookie });
    expect([page.status, page.text]).toEqual([200, '<h1>page /account</h1>']);
    expect(page.headers['set-cookie']).toContain('session=abc; Path=/');
    expect(page.headers['set-cookie']).toContain('edgeplane_preload=; Path=/account; Max-Age=0');
    expect(asked('/account?ms=400')).toBe(1);

    // The held answer is taken once: the same cookie again asks the origin, and shows no second screen.
    const again = await timed(zone.host, '/account?ms=400', { ...BROWSER, cookie });
    expect(again.status).toBe(200);
    expect(asked('/account?ms=400')).toBe(2);
  });

  it('a fast origin, the setting off, a file, a script, a bot, an API path: no screen', async () => {
    // A delay of 0 shows the screen to every request that may have it before any origin answers.
    const fast = await createPullZone(t, 'preload-fast', origin.url, { PreloadingScreenEnabled: true, PreloadingScreenDelay: 2000 });
    const now = await createPullZone(t, 'preload-now', origin.url, { PreloadingScreenEnabled: true, PreloadingScreenDelay: 0 });
    const off = await createPullZone(t, 'preload-off', origin.url, { PreloadingScreenDelay: 0 });
    expect((await edge.get(now.host, '/is-a-page', BROWSER)).status).toBe(529);
    const cases: [string, string, Record<string, string>][] = [
      [fast.host, '/fast', BROWSER],
      [off.host, '/page', BROWSER],
      [now.host, '/style.css', BROWSER],
      [now.host, '/page', { ...BROWSER, 'x-requested-with': 'XMLHttpRequest' }],
      [now.host, '/page', { ...BROWSER, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
      [now.host, '/page', { accept: 'application/json', 'user-agent': BROWSER['user-agent'] }],
      [now.host, '/page', { ...BROWSER, 'sec-fetch-dest': 'iframe' }],
      [now.host, '/api/orders', BROWSER],
    ];
    for (const [host, path, headers] of cases) {
      const res = await edge.get(host, path, headers);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers['set-cookie'] ?? '').not.toContain('edgeplane_');
    }
  });

  it('the zone HTML gets the script at its placeholder; the logo and the dark theme on the default screen', async () => {
    const custom = await createPullZone(t, 'preload-custom', origin.url, {
      PreloadingScreenEnabled: true,
      PreloadingScreenDelay: 0,
      PreloadingScreenCodeEnabled: true,
      PreloadingScreenCode: '<html><body><p>Warming up</p>{{preloader_script}}</body></html>',
    });
    const themed = await createPullZone(t, 'preload-themed', origin.url, {
      PreloadingScreenEnabled: true,
      PreloadingScreenDelay: 0,
      PreloadingScreenTheme: 1,
      PreloadingScreenLogoUrl: 'https://cdn.example/logo.png?a=1&b="x"',
    });
    const hostile = await createPullZone(t, 'preload-hostile', origin.url, {
      PreloadingScreenEnabled: true,
      PreloadingScreenDelay: 0,
      PreloadingScreenLogoUrl: 'javascript:alert(1)',
    });
    const [a, b, c] = await Promise.all([custom, themed, hostile].map((z) => edge.get(z.host, '/home?ms=50', BROWSER)));
    expect(a!.status).toBe(529);
    expect(a!.text).toMatch(/^<html><body><p>Warming up<\/p><script>\(function \(\) \{\n.*location\.reload\(\).*<\/script><\/body><\/html>$/s);
    expect(a!.headers['content-security-policy']).toBeUndefined();
    expect(b!.status).toBe(529);
    expect(b!.text).toContain('<img src="https://cdn.example/logo.png?a=1&amp;b=%22x%22" alt="">');
    expect(b!.text).toContain('background:#121212');
    expect(c!.status).toBe(529);
    expect(c!.text).not.toContain('<img');
    expect(c!.text).not.toContain('javascript:');
    expect(c!.text).toContain('background:#ffffff');
  });

  it('an origin that never answers: the screen, then the follow-up ends in the 504 page', async () => {
    const zone = await createPullZone(t, 'preload-never', origin.url, { PreloadingScreenEnabled: true, PreloadingScreenDelay: 50, OriginResponseTimeout: 1 });
    const screen = await edge.get(zone.host, '/never', BROWSER);
    expect(screen.status).toBe(529);
    const cookie = cookieSet(screen.headers, 'edgeplane_preload')!;
    const failed = await edge.get(zone.host, '/never', { ...BROWSER, cookie });
    expect(failed.status).toBe(504);
    expect(failed.text).toContain('504 Gateway Timeout');
  });

  it('an origin that breaks off while its answer is held: the follow-up ends broken off, and nothing else fails', async () => {
    const zone = await createPullZone(t, 'preload-breaks', origin.url, { PreloadingScreenEnabled: true, PreloadingScreenDelay: 20 });
    const screen = await edge.get(zone.host, '/breaks', BROWSER);
    expect(screen.status).toBe(529);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cookie = cookieSet(screen.headers, 'edgeplane_preload')!;
    await expect(edge.get(zone.host, '/breaks', { ...BROWSER, cookie })).rejects.toThrow();
    // The listener logs an origin that broke off mid-body, as it does without the screen.
    await within(1000, async () => edge.errors.length > 0);
    expect(edge.errors.map(String).join()).toMatch(/aborted|ECONNRESET/);
    edge.errors.length = 0;
    expect((await edge.get(zone.host, '/fast', BROWSER)).status).toBe(200);
  });

  it('ShowOnFirstVisit: the first visit gets the screen however fast the origin, later ones only when slow', async () => {
    const zone = await createPullZone(t, 'preload-first', origin.url, {
      PreloadingScreenEnabled: true,
      PreloadingScreenShowOnFirstVisit: true,
      PreloadingScreenDelay: 200,
    });
    const first = await edge.get(zone.host, '/welcome', BROWSER);
    expect(first.status).toBe(529);
    const visited = cookieSet(first.headers, 'edgeplane_visited');
    expect(visited).toBe('edgeplane_visited=1');
    expect(first.headers['set-cookie']).toContain('edgeplane_visited=1; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax');
    const cookie = `${cookieSet(first.headers, 'edgeplane_preload')}; ${visited}`;
    expect((await edge.get(zone.host, '/welcome', { ...BROWSER, cookie })).text).toBe('<h1>page /welcome</h1>');
    const later = await edge.get(zone.host, '/welcome', { ...BROWSER, cookie: visited! });
    expect([later.status, later.text]).toEqual([200, '<h1>page /welcome</h1>']);
    expect(asked('/welcome')).toBe(2);
  });

  it('a cached page never shows the screen; an answer no follow-up came for is let go after the hold', async () => {
    const zone = await createPullZone(t, 'preload-cached', origin.url, { PreloadingScreenEnabled: true, PreloadingScreenDelay: 20 });
    const [screen, late] = await Promise.all([edge.get(zone.host, '/catalog?ms=150&cache', BROWSER), edge.get(zone.host, '/late?ms=150', BROWSER)]);
    expect([screen.status, late.status]).toEqual([529, 529]);
    // Nobody comes for either: the cacheable one is cached all the same, and both are let go after the hold.
    await within(150 + HOLD_MS + 1000, async () => edge.core.pipeline.preloading.heldCount === 0);
    const hit = await edge.get(zone.host, '/catalog?ms=150&cache', BROWSER);
    expect([hit.status, hit.headers['cdn-cache']]).toEqual([200, 'HIT']);
    const cookie = cookieSet(late.headers, 'edgeplane_preload')!;
    const page = await edge.get(zone.host, '/late?ms=150', { ...BROWSER, cookie });
    expect([page.status, page.text]).toEqual([200, '<h1>page /late</h1>']);
    expect(asked('/late?ms=150')).toBe(2);
  });
});
