/**
 * Edge rule triggers, pattern syntax, PatternMatchingType, TriggerMatchingType, OrderIndex and
 * Enabled. Each rule here blocks (or marks with a response header), so that whether it ran is
 * plain in the verdict or the answer.
 */
import { describe, expect, it } from 'vitest';
import type { EdgeRuleTriggerT } from '../../../src/schemas/pull-zone.js';
import type { EdgeRequest } from '../../../src/domain/edge/types.js';
import { action, always, answerFor, CONTINUE, get, request, rule, trigger, verdictOf, zoneWith } from './helpers.js';

const BLOCK = action(4);
const blocked = { kind: 'refuse', status: 403, reason: 'edge-rule-block' };

/** Whether a rule made of these triggers runs for the request. */
function runs(triggers: EdgeRuleTriggerT[], req: EdgeRequest, matching: 0 | 1 | 2 = 0, random?: () => number): boolean {
  const zone = zoneWith({ EdgeRules: [rule(BLOCK, triggers, { TriggerMatchingType: matching })] });
  const verdict = verdictOf(zone, req, random ? { random } : {});
  return verdict.kind === 'refuse';
}

describe('Url trigger and the wildcard syntax', () => {
  it('a pattern starting with / matches the path: * is any run of characters, letter case aside', () => {
    const t = [trigger(0, ['/img/*'])];
    expect(runs(t, get('/img/cat.jpg'))).toBe(true);
    expect(runs(t, get('/IMG/a/b/c.png'))).toBe(true);
    expect(runs(t, get('/img/'))).toBe(true);
    expect(runs(t, get('/css/site.css'))).toBe(false);
    expect(runs(t, get('/a/img/cat.jpg'))).toBe(false);
  });

  it('without a wildcard the whole path must be equal', () => {
    const t = [trigger(0, ['/robots.txt'])];
    expect(runs(t, get('/robots.txt'))).toBe(true);
    expect(runs(t, get('/robots.txt.bak'))).toBe(false);
    expect(runs(t, get('/x/robots.txt'))).toBe(false);
  });

  it('any other pattern matches scheme://host/path (never the query)', () => {
    const t = [trigger(0, ['https://cdn.example.com/private/*'])];
    expect(runs(t, get('/private/a.pdf', { scheme: 'https' }))).toBe(true);
    expect(runs(t, get('/private/a.pdf', { scheme: 'http' }))).toBe(false);
    expect(runs(t, get('/private/a.pdf', { scheme: 'https', host: 'other.example.com' }))).toBe(false);
    expect(runs([trigger(0, ['*.pdf'])], get('/docs/a.pdf?download=1'))).toBe(true);
    expect(runs([trigger(0, ['*://*/docs/*'])], get('/docs/a.pdf'))).toBe(true);
    expect(runs([trigger(0, ['*download=1*'])], get('/docs/a.pdf?download=1'))).toBe(false);
  });

  it('wildcards in the middle, several of them, and special characters taken literally', () => {
    expect(runs([trigger(0, ['/v/*/hls/*.m3u8'])], get('/v/42/hls/index.m3u8'))).toBe(true);
    expect(runs([trigger(0, ['/v/*/hls/*.m3u8'])], get('/v/42/dash/index.m3u8'))).toBe(false);
    expect(runs([trigger(0, ['/a+b(1).txt'])], get('/a+b(1).txt'))).toBe(true);
    expect(runs([trigger(0, ['/a.c'])], get('/abc'))).toBe(false);
    expect(runs([trigger(0, ['*'])], get('/anything'))).toBe(true);
  });

  it('pattern: values are Lua patterns, case-sensitive and unanchored unless ^/$ say so', () => {
    expect(runs([trigger(0, ['pattern:^/v%d+/'])], get('/v12/a.js'))).toBe(true);
    expect(runs([trigger(0, ['pattern:^/v%d+/'])], get('/vx/a.js'))).toBe(false);
    expect(runs([trigger(0, ['pattern:%.JPG$'])], get('/a.jpg'))).toBe(false);
    expect(runs([trigger(0, ['pattern:[Jj][Pp][Ee]?[Gg]$'])], get('/a.JPEG'))).toBe(true);
    // %b has no regular-expression form: the trigger never matches rather than matching something else.
    expect(runs([trigger(0, ['pattern:%b()'])], get('/(a)'))).toBe(false);
  });
});

describe('RequestHeader trigger', () => {
  const t = [trigger(1, ['*bot*', 'curl/*'], { Parameter1: 'User-Agent' })];
  it('matches the named header, whatever the letter case of its name', () => {
    expect(runs(t, request({ headers: { 'user-agent': 'Googlebot/2.1' } }))).toBe(true);
    expect(runs(t, request({ headers: { 'user-agent': 'curl/8.5.0' } }))).toBe(true);
    expect(runs(t, request({ headers: { 'user-agent': 'Mozilla/5.0' } }))).toBe(false);
  });
  it('an absent header matches no pattern', () => {
    expect(runs(t, request())).toBe(false);
    expect(runs([trigger(1, ['*'], { Parameter1: 'x-token' })], request())).toBe(false);
    expect(runs([trigger(1, ['*'], { Parameter1: 'x-token', PatternMatchingType: 2 })], request())).toBe(true);
  });
  it('without a header name the trigger never matches', () => {
    expect(runs([trigger(1, ['*'])], request({ headers: { a: 'b' } }))).toBe(false);
  });
});

describe('ResponseHeader and StatusCode triggers (decided on the answer)', () => {
  const marker = action(5, 'X-Rule', 'ran');
  it('ResponseHeader matches the origin’s header', () => {
    const zone = zoneWith({ EdgeRules: [rule(marker, [trigger(2, ['image/*'], { Parameter1: 'Content-Type' })])] });
    expect(answerFor(zone, get('/a'), { status: 200, headers: { 'Content-Type': 'image/png' } }).headers['x-rule']).toBe('ran');
    expect(answerFor(zone, get('/a'), { status: 200, headers: { 'content-type': 'text/html' } }).headers['x-rule']).toBeUndefined();
    // Before the answer is known, nothing is decided.
    expect(answerFor(zone, get('/a')).verdict).toEqual(CONTINUE);
  });
  it('StatusCode matches the answer’s status', () => {
    const zone = zoneWith({ EdgeRules: [rule(marker, [trigger(8, ['40*'])])] });
    expect(answerFor(zone, get('/a'), { status: 404, headers: {} }).headers['x-rule']).toBe('ran');
    expect(answerFor(zone, get('/a'), { status: 200, headers: {} }).headers['x-rule']).toBeUndefined();
  });
});

describe('UrlExtension trigger', () => {
  const t = [trigger(3, ['jpg', '.png', '*.gif'])];
  it('matches the file extension written with or without a dot, letter case aside', () => {
    for (const path of ['/a.jpg', '/b/c.JPG', '/d.png', '/e.gif']) expect(runs(t, get(path)), path).toBe(true);
    for (const path of ['/a.jpeg', '/jpg', '/a.jpg/', '/a.css', '/a.jpg.bak']) expect(runs(t, get(path)), path).toBe(false);
  });
});

describe('RemoteIP trigger', () => {
  const t = [trigger(5, ['192.0.2.0/24', '2001:db8::/32', '203.0.113.7', '10.1.*'])];
  it('matches addresses, CIDR blocks (IPv4 and IPv6) and wildcard text', () => {
    for (const ip of ['192.0.2.200', '::ffff:192.0.2.5', '2001:db8:ffff::1', '203.0.113.7', '10.1.2.3'])
      expect(runs(t, request({ clientIp: ip })), ip).toBe(true);
    for (const ip of ['192.0.3.1', '2001:db9::1', '203.0.113.8', '10.2.0.1']) expect(runs(t, request({ clientIp: ip })), ip).toBe(false);
  });
});

describe('UrlQueryString trigger', () => {
  it('with Parameter1, matches that parameter’s decoded value', () => {
    const t = [trigger(6, ['en*'], { Parameter1: 'lang' })];
    expect(runs(t, get('/a?lang=en-GB'))).toBe(true);
    expect(runs(t, get('/a?x=1&lang=en'))).toBe(true);
    expect(runs(t, get('/a?lang=de'))).toBe(false);
    expect(runs(t, get('/a'))).toBe(false);
  });
  it('without Parameter1, matches the whole query string', () => {
    const t = [trigger(6, ['*debug=1*'])];
    expect(runs(t, get('/a?x=2&debug=1'))).toBe(true);
    expect(runs(t, get('/a?x=2'))).toBe(false);
  });
});

describe('RandomChance trigger', () => {
  const t = [trigger(7, ['25'])];
  it('matches with the percentage given', () => {
    expect(runs(t, request(), 0, () => 0.2499)).toBe(true);
    expect(runs(t, request(), 0, () => 0.25)).toBe(false);
    expect(runs(t, request(), 0, () => 0.9)).toBe(false);
  });
  it('0 never matches, 100 always does', () => {
    expect(runs([trigger(7, ['0'])], request(), 0, () => 0)).toBe(false);
    expect(runs([trigger(7, ['100'])], request(), 0, () => 0.9999)).toBe(true);
  });
  it('over many requests, runs for about that share', () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const zone = zoneWith({ EdgeRules: [rule(BLOCK, t)] });
    let hits = 0;
    for (let i = 0; i < 4000; i++) if (verdictOf(zone, request(), { random }).kind === 'refuse') hits++;
    expect(hits / 4000).toBeGreaterThan(0.22);
    expect(hits / 4000).toBeLessThan(0.28);
  });
});

describe('RequestMethod and CookieValue triggers', () => {
  it('RequestMethod matches the method', () => {
    expect(runs([trigger(9, ['POST', 'PUT'])], request({ method: 'PUT' }))).toBe(true);
    expect(runs([trigger(9, ['POST', 'PUT'])], request({ method: 'GET' }))).toBe(false);
  });
  it('CookieValue matches the named cookie', () => {
    const t = [trigger(10, ['beta*'], { Parameter1: 'channel' })];
    expect(runs(t, request({ headers: { cookie: 'a=1; channel=beta-2' } }))).toBe(true);
    expect(runs(t, request({ headers: { cookie: 'channel=stable' } }))).toBe(false);
    expect(runs(t, request())).toBe(false);
  });
});

describe('CountryCode (and the other triggers edgeplane cannot decide)', () => {
  const country = trigger(4, ['US', 'CA']);
  it('never runs a rule on its own, whatever the matching types', () => {
    expect(runs([country], request())).toBe(false);
    expect(runs([{ ...country, PatternMatchingType: 2 }], request())).toBe(false);
    expect(runs([country], request(), 2)).toBe(false);
    expect(runs([trigger(11, ['US-CA'])], request(), 2)).toBe(false);
    expect(runs([trigger(12, ['1'])], request())).toBe(false);
    expect(runs([trigger(13, ['*'])], request(), 2)).toBe(false);
  });
  it('under MatchAny the rule still runs on its other triggers; under MatchAll and MatchNone it does not', () => {
    const path = trigger(0, ['/a']);
    expect(runs([country, path], get('/a'), 0)).toBe(true);
    expect(runs([country, path], get('/b'), 0)).toBe(false);
    expect(runs([country, path], get('/a'), 1)).toBe(false);
    expect(runs([country, path], get('/b'), 2)).toBe(false);
  });
});

describe('PatternMatchingType (patterns of one trigger)', () => {
  it('MatchAny: one pattern is enough', () => {
    expect(runs([trigger(0, ['/a/*', '/b/*'])], get('/b/x'))).toBe(true);
  });
  it('MatchAll: every pattern must match', () => {
    const t = [trigger(0, ['/img/*', '*.jpg'], { PatternMatchingType: 1 })];
    expect(runs(t, get('/img/a.jpg'))).toBe(true);
    expect(runs(t, get('/img/a.png'))).toBe(false);
  });
  it('MatchNone: no pattern may match', () => {
    const t = [trigger(3, ['jpg', 'png'], { PatternMatchingType: 2 })];
    expect(runs(t, get('/a.css'))).toBe(true);
    expect(runs(t, get('/a.png'))).toBe(false);
  });
  it('a trigger without patterns never matches', () => {
    expect(runs([trigger(0, [])], get('/a'))).toBe(false);
    expect(runs([trigger(0, [''])], get('/a'))).toBe(false);
  });
});

describe('TriggerMatchingType (triggers of one rule)', () => {
  const img = trigger(0, ['/img/*']);
  const post = trigger(9, ['POST']);
  it('MatchAny: one trigger is enough', () => {
    expect(runs([img, post], get('/img/a'), 0)).toBe(true);
    expect(runs([img, post], get('/x', { method: 'POST' }), 0)).toBe(true);
    expect(runs([img, post], get('/x'), 0)).toBe(false);
  });
  it('MatchAll: every trigger must match', () => {
    expect(runs([img, post], get('/img/a', { method: 'POST' }), 1)).toBe(true);
    expect(runs([img, post], get('/img/a'), 1)).toBe(false);
  });
  it('MatchNone: no trigger may match', () => {
    expect(runs([img, post], get('/x'), 2)).toBe(true);
    expect(runs([img, post], get('/img/a'), 2)).toBe(false);
  });
  it('a rule without triggers never runs', () => {
    expect(runs([], get('/x'), 0)).toBe(false);
    expect(runs([], get('/x'), 2)).toBe(false);
  });
});

describe('OrderIndex and Enabled', () => {
  it('rules run in OrderIndex order whatever their stored order: the first redirect wins', () => {
    const zone = zoneWith({
      EdgeRules: [
        always(action(1, 'https://second.example/', '301'), { OrderIndex: 2 }),
        always(action(1, 'https://first.example/', '302'), { OrderIndex: 1 }),
      ],
    });
    expect(verdictOf(zone, get('/x'))).toEqual({ kind: 'redirect', status: 302, location: 'https://first.example/' });
  });

  it('a block earlier in the order ends the request before a later rule', () => {
    const zone = zoneWith({ EdgeRules: [always(action(1, 'https://r.example/'), { OrderIndex: 5 }), always(BLOCK, { OrderIndex: 0 })] });
    expect(verdictOf(zone, get('/x'))).toEqual(blocked);
  });

  it('a disabled rule does nothing, and acts again once enabled', () => {
    const off = always(BLOCK, { Enabled: false });
    expect(verdictOf(zoneWith({ EdgeRules: [off] }), get('/x'))).toEqual(CONTINUE);
    expect(verdictOf(zoneWith({ EdgeRules: [{ ...off, Enabled: true }] }), get('/x'))).toEqual(blocked);
  });

  it('the main action runs before the extra actions, all of them', () => {
    const zone = zoneWith({ EdgeRules: [always(action(6, 'X-A', '1'), { ExtraActions: [action(6, 'X-B', '2'), action(6, 'X-A', '3')] })] });
    const { effects } = answerFor(zone, get('/x'));
    expect(effects.requestHeaders).toEqual({ 'x-a': '3', 'x-b': '2' });
  });
});
