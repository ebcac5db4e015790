/** Every edge rule action of the reference: what it does to the verdict, the effects or the answer. */
import { describe, expect, it } from 'vitest';
import type { EdgeRuleExtraActionT } from '../../../src/schemas/pull-zone.js';
import { action, always, answerFor, CONTINUE, decide, get, NOW, policy, rule, trigger, verdictOf, zoneWith } from './helpers.js';

const only = (a: EdgeRuleExtraActionT, pattern = '/only/*') => zoneWith({ EdgeRules: [rule(a, [trigger(0, [pattern])])] });
const effectsOf = (a: EdgeRuleExtraActionT, path = '/only/x.jpg') => decide(only(a), get(path)).effects;

describe('ForceSSL (0)', () => {
  it('redirects plain HTTP to the same URL over HTTPS with 301, and leaves HTTPS alone', () => {
    const zone = only(action(0));
    expect(verdictOf(zone, get('/only/a.jpg?x=1'))).toEqual({ kind: 'redirect', status: 301, location: 'https://cdn.example.com/only/a.jpg?x=1' });
    expect(verdictOf(zone, get('/only/a.jpg', { scheme: 'https' }))).toEqual(CONTINUE);
    expect(verdictOf(zone, get('/other/a.jpg'))).toEqual(CONTINUE);
  });
  it('names the HTTPS listener’s port when it is not 443', () => {
    expect(verdictOf(only(action(0)), get('/only/a'), { httpsPort: 8443 })).toMatchObject({ location: 'https://cdn.example.com:8443/only/a' });
  });
});

describe('Redirect (1)', () => {
  it('sends ActionParameter1 as the target with the status in ActionParameter2', () => {
    for (const status of [301, 302, 307, 308] as const) {
      expect(verdictOf(only(action(1, 'https://new.example/', String(status))), get('/only/a'))).toEqual({
        kind: 'redirect',
        status,
        location: 'https://new.example/',
      });
    }
  });
  it('uses 302 when ActionParameter2 is empty or not a redirect status', () => {
    expect(verdictOf(only(action(1, 'https://new.example/')), get('/only/a'))).toMatchObject({ status: 302 });
    expect(verdictOf(only(action(1, 'https://new.example/', '200')), get('/only/a'))).toMatchObject({ status: 302 });
  });
  it('expands variables in the target', () => {
    expect(verdictOf(only(action(1, 'https://new.example/{{path}}', '301')), get('/only/a.jpg?v=2'))).toMatchObject({
      location: 'https://new.example/only/a.jpg?v=2',
    });
    expect(verdictOf(only(action(1, 'https://%{Url.Hostname}/archive/%{Path.1-}')), get('/only/x/y.txt'))).toMatchObject({
      location: 'https://cdn.example.com/archive/x/y.txt',
    });
    expect(verdictOf(only(action(1, 'https://new.example/?q=%{Query.q}&m={{request_method}}')), get('/only/a?q=cats'))).toMatchObject({
      location: 'https://new.example/?q=cats&m=GET',
    });
  });
  it('on a response trigger, turns the answer into the redirect (e.g. every 404 to the home page)', () => {
    const zone = zoneWith({ EdgeRules: [rule(action(1, 'https://cdn.example.com/', '302'), [trigger(8, ['404'])])] });
    const notFound = answerFor(zone, get('/missing'), { status: 404, headers: { 'content-type': 'text/html' } });
    expect(notFound.status).toBe(302);
    expect(notFound.headers['location']).toBe('https://cdn.example.com/');
    expect(answerFor(zone, get('/there'), { status: 200, headers: {} }).status).toBe(200);
  });
  it('with an empty target does nothing', () => {
    expect(verdictOf(only(action(1, '  ', '301')), get('/only/a'))).toEqual(CONTINUE);
  });
});

describe('OriginUrl (2) and OriginStorage (17)', () => {
  it('OriginUrl fetches the matching requests from another origin', () => {
    expect(effectsOf(action(2, 'http://other-origin.test:8080')).originUrl).toBe('http://other-origin.test:8080');
    expect(decide(only(action(2, 'http://other-origin.test')), get('/else/a')).effects.originUrl).toBeUndefined();
  });
  it('OriginStorage fetches them from a storage zone', () => {
    expect(effectsOf(action(17, '42')).originStorageZoneId).toBe(42);
    expect(effectsOf(action(17, 'x')).originStorageZoneId).toBeUndefined();
  });
});

describe('cache times: OverrideCacheTime (3), OverrideCacheTimePublic (10), OverrideBrowserCacheTime (16)', () => {
  it('OverrideCacheTime sets how long the edge keeps the answer, and does not touch the browser’s', () => {
    const e = effectsOf(action(3, '3600'));
    expect(e.cacheSeconds).toBe(3600);
    expect(e.browserCacheSeconds).toBeUndefined();
    expect(effectsOf(action(3, '0')).cacheSeconds).toBe(0);
    expect(effectsOf(action(3, 'soon')).cacheSeconds).toBeUndefined();
  });
  it('OverrideCacheTimePublic sets both, and the answer carries Cache-Control: public, max-age', () => {
    const { effects, headers } = answerFor(only(action(10, '600')), get('/only/a.jpg'), { status: 200, headers: { 'cache-control': 'private, no-store' } });
    expect(effects.cacheSeconds).toBe(600);
    expect(effects.browserCacheSeconds).toBe(600);
    expect(headers['cache-control']).toBe('public, max-age=600');
  });
  it('OverrideBrowserCacheTime sets only what browsers are told', () => {
    const { effects, headers } = answerFor(only(action(16, '60')), get('/only/a.jpg'), { status: 200, headers: { 'Cache-Control': 'max-age=31536000' } });
    expect(effects.cacheSeconds).toBeUndefined();
    expect(headers['cache-control']).toBe('public, max-age=60');
    expect(headers['Cache-Control']).toBeUndefined();
  });
  it('the first matching rule’s value wins', () => {
    const zone = zoneWith({ EdgeRules: [always(action(3, '10'), { OrderIndex: 2 }), always(action(3, '20'), { OrderIndex: 1 })] });
    expect(decide(zone, get('/a')).effects.cacheSeconds).toBe(20);
  });
  it('in a rule with a response trigger, the cache time is decided on the origin’s answer (cacheTimeFor)', () => {
    const byType = rule(action(3, '0'), [trigger(2, ['text/html*'], { Parameter1: 'Content-Type' })]);
    const publicByStatus = rule(action(10, '120'), [trigger(8, ['404'])]);
    const zone = zoneWith({ EdgeRules: [byType, publicByStatus] });
    const p = policy();
    const { effects } = p.onRequest(zone, get('/page'), NOW);
    expect(effects.cacheSeconds).toBeUndefined();
    expect(p.cacheTimeFor(zone, get('/page'), { status: 200, headers: () => ({ 'content-type': 'text/html; charset=utf-8' }) }, effects)).toBe(0);
    expect(p.cacheTimeFor(zone, get('/style.css'), { status: 200, headers: () => ({ 'content-type': 'text/css' }) }, effects)).toBeUndefined();
    expect(p.cacheTimeFor(zone, get('/gone'), { status: 404, headers: () => ({ 'content-type': 'text/plain' }) }, effects)).toBe(120);
    // A request-phase cache time comes first, and the request's own effects are left as they were.
    const both = zoneWith({ EdgeRules: [always(action(3, '30')), byType] });
    const requested = p.onRequest(both, get('/page'), NOW).effects;
    expect(p.cacheTimeFor(both, get('/page'), { status: 200, headers: () => ({ 'content-type': 'text/html' }) }, requested)).toBe(30);
    expect(effects.cacheSeconds).toBeUndefined();
  });
});

describe('BlockRequest (4)', () => {
  it('refuses the matching requests with 403', () => {
    expect(verdictOf(only(action(4)), get('/only/a'))).toEqual({ kind: 'refuse', status: 403, reason: 'edge-rule-block' });
    expect(verdictOf(only(action(4)), get('/open/a'))).toEqual(CONTINUE);
  });
});

describe('SetResponseHeader (5) and SetRequestHeader (6)', () => {
  it('SetResponseHeader sets a header on the answer, replacing the origin’s, with variables expanded', () => {
    const zone = zoneWith({ EdgeRules: [always(action(5, 'X-Frame-Options', 'DENY'), { ExtraActions: [action(5, 'X-Served-Path', '%{Url.Path}')] })] });
    const { headers } = answerFor(zone, get('/p/a.html?x=1'), { status: 200, headers: { 'X-Frame-Options': 'SAMEORIGIN' } });
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['X-Frame-Options']).toBeUndefined();
    expect(headers['x-served-path']).toBe('/p/a.html?x=1');
  });
  it('SetRequestHeader sets a header on the request to the origin', () => {
    const e = decide(zoneWith({ EdgeRules: [always(action(6, 'X-Client-Host', '{{hostname}}'))] }), get('/a')).effects;
    expect(e.requestHeaders).toEqual({ 'x-client-host': 'cdn.example.com' });
  });
  it('a header from a later rule replaces the same header of an earlier one', () => {
    const zone = zoneWith({ EdgeRules: [always(action(5, 'X-V', 'late'), { OrderIndex: 9 }), always(action(5, 'X-V', 'early'), { OrderIndex: 1 })] });
    expect(answerFor(zone, get('/a')).headers['x-v']).toBe('late');
  });
  it('without a header name nothing is set', () => {
    expect(answerFor(zoneWith({ EdgeRules: [always(action(5, '', 'v'))] }), get('/a')).headers).toEqual({ 'content-type': 'image/jpeg' });
  });
});

describe('ForceDownload (7)', () => {
  it('answers with Content-Disposition: attachment', () => {
    expect(answerFor(only(action(7)), get('/only/a.pdf')).headers['content-disposition']).toBe('attachment');
    expect(answerFor(only(action(7)), get('/else/a.pdf')).headers['content-disposition']).toBeUndefined();
  });
});

describe('IgnoreQueryString (11), DisableOptimizer (12), BypassPermaCache (15), ForceCompression (13), request coalescing (33, 34), BypassRequestSigning (30), StripCookiesClientToOrigin (37)', () => {
  it('each sets its effect for the matching requests only', () => {
    expect(effectsOf(action(11)).ignoreQueryString).toBe(true);
    expect(effectsOf(action(12)).disableOptimizer).toBe(true);
    expect(effectsOf(action(15)).bypassPermaCache).toBe(true);
    expect(effectsOf(action(13)).forceCompression).toBe(true);
    expect(effectsOf(action(33)).requestCoalescing).toBe(true);
    expect(effectsOf(action(34)).requestCoalescing).toBe(false);
    expect(effectsOf(action(30)).bypassRequestSigning).toBe(true);
    expect(effectsOf(action(37)).removeRequestHeaders).toEqual(['cookie']);
    const untouched = effectsOf(action(11), '/else/x');
    expect(untouched).toEqual({ requestHeaders: {}, responseHeaders: {} });
  });
});

describe('SetStatusCode (14)', () => {
  it('replaces the answer’s status', () => {
    expect(answerFor(only(action(14, '410')), get('/only/gone')).status).toBe(410);
    expect(answerFor(only(action(14, '410')), get('/else/here')).status).toBe(200);
  });
  it('ignores a value that is not an HTTP status', () => {
    expect(answerFor(only(action(14, '99')), get('/only/a')).status).toBe(200);
    expect(answerFor(only(action(14, 'teapot')), get('/only/a')).status).toBe(200);
  });
  it('on a response trigger, changes that answer only', () => {
    const zone = zoneWith({ EdgeRules: [rule(action(14, '200'), [trigger(8, ['404'])])] });
    expect(answerFor(zone, get('/a'), { status: 404, headers: {} }).status).toBe(200);
    expect(answerFor(zone, get('/a'), { status: 500, headers: {} }).status).toBe(500);
  });
});

describe('SetNetworkRateLimit (18), SetConnectionLimit (19), SetRequestsPerSecondLimit (20)', () => {
  it('SetNetworkRateLimit caps the download speed of the matching requests; the lowest of several wins', () => {
    expect(effectsOf(action(18, '500')).rateLimitKBps).toBe(500);
    const zone = zoneWith({ EdgeRules: [always(action(18, '500')), always(action(18, '100'))] });
    expect(decide(zone, get('/a')).effects.rateLimitKBps).toBe(100);
  });
  // The two admission limits are exercised through admit() in limits.test.ts.
});

describe('OverrideBrowserCacheResponseHeader (25) and RemoveBrowserCacheResponseHeader (26)', () => {
  it('25 sends ActionParameter1 as the Cache-Control', () => {
    const { headers } = answerFor(only(action(25, 'no-cache, must-revalidate')), get('/only/a'), { status: 200, headers: { 'cache-control': 'max-age=60' } });
    expect(headers['cache-control']).toBe('no-cache, must-revalidate');
  });
  it('26 removes the Cache-Control the origin sent', () => {
    const { headers } = answerFor(only(action(26)), get('/only/a'), { status: 200, headers: { 'Cache-Control': 'max-age=60', etag: '"1"' } });
    expect(headers).toEqual({ etag: '"1"' });
  });
});

describe('RunEdgeScript (21)', () => {
  it("names the middleware script (ActionParameter1) that runs around the request's origin request, the first rule's winning", () => {
    expect(effectsOf(action(21, '7'))).toEqual({ requestHeaders: {}, responseHeaders: {}, edgeScriptId: 7 });
    expect(effectsOf(action(21, '0'))).toEqual({ requestHeaders: {}, responseHeaders: {} });
  });
});

describe('actions for features edgeplane does not have', () => {
  it('are recorded, and change nothing else', () => {
    const names: [EdgeRuleExtraActionT['ActionType'], string][] = [
      [22, 'OriginMagicContainers'],
      [23, 'DisableWAF'],
      [24, 'RetryOrigin'],
      [27, 'DisableShieldChallenge'],
      [28, 'DisableShield'],
      [29, 'DisableShieldBotDetection'],
      [31, 'DisableShieldAccessLists'],
      [32, 'DisableShieldRateLimiting'],
    ];
    for (const [type, name] of names) {
      const { verdict, effects } = decide(only(action(type)), get('/only/a'));
      expect(verdict).toEqual(CONTINUE);
      expect(effects).toEqual({ requestHeaders: {}, responseHeaders: {}, unappliedActions: [name] });
    }
  });
});
