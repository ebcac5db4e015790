/**
 * The cache's RFC 9111 choices, case by case (the edge tests in test/planes/edge/cache-sharing.test.ts
 * show them over real sockets): what an authorised request's answer needs to be kept, what the
 * origin's Vary asks of the key, and the variant index's bookkeeping.
 */
import { describe, expect, it } from 'vitest';
import { type CachedAnswer, EdgeCache } from '../../../src/domain/edge/cache/edge-cache.js';
import { edgeLifetime, type LifetimeRules } from '../../../src/domain/edge/cache/freshness.js';
import { type KeyRules, variantKeyOf, varyRuleOf } from '../../../src/domain/edge/cache/key.js';
import type { EdgeRequest } from '../../../src/domain/edge/types.js';

const rules: LifetimeRules = { maxAgeOverride: -1, cacheErrors: false, disableCookies: true, credentialed: false };
const keep = (cacheControl: string, over: Partial<LifetimeRules> = {}) =>
  edgeLifetime({ status: 200, headers: { 'cache-control': cacheControl } }, { ...rules, ...over }, Date.now());

describe('answers to credentialed requests', () => {
  it('are kept only with public, s-maxage or must-revalidate, whatever the zone or a rule overrides', () => {
    expect(keep('max-age=300', { credentialed: true })).toMatchObject({ store: false, personal: true });
    expect(keep('max-age=300', { credentialed: true, maxAgeOverride: 600 })).toMatchObject({ store: false });
    expect(keep('max-age=300', { credentialed: true, ruleSeconds: 600 })).toMatchObject({ store: false });
    expect(keep('public, max-age=300', { credentialed: true })).toEqual({ store: true, seconds: 300 });
    expect(keep('s-maxage=60', { credentialed: true })).toEqual({ store: true, seconds: 60 });
    expect(keep('max-age=30, must-revalidate', { credentialed: true })).toEqual({ store: true, seconds: 30 });
    expect(keep('max-age=300')).toEqual({ store: true, seconds: 300 });
  });

  it("marks the answers that are one client's own, and no others", () => {
    expect(keep('private, max-age=60')).toMatchObject({ store: false, personal: true });
    expect(keep('no-store')).toMatchObject({ store: false, personal: true });
    expect(keep('no-cache')).toEqual({ store: false, reason: expect.any(String) });
    expect(keep('private', { maxAgeOverride: 0 })).toMatchObject({ store: false, personal: true });
    expect(keep('max-age=60', { maxAgeOverride: 0 })).toEqual({ store: false, reason: 'the zone caches nothing' });
  });
});

const keyRules = (over: Partial<KeyRules> = {}): KeyRules => ({
  ignoreQuery: false,
  ordered: false,
  varyParams: undefined,
  hostname: false,
  webp: false,
  avif: false,
  mobile: false,
  cookies: [],
  headers: [],
  ...over,
});

describe("the origin's Vary", () => {
  it('leaves out what the key covers, sorts and dedupes the rest', () => {
    expect(varyRuleOf(undefined, keyRules(), '/a')).toEqual({ kind: 'none' });
    expect(varyRuleOf('Accept-Encoding', keyRules(), '/a')).toEqual({ kind: 'none' });
    expect(varyRuleOf('Origin, Accept-Encoding, cookie, COOKIE', keyRules(), '/a')).toEqual({ kind: 'headers', names: ['cookie', 'origin'] });
    expect(varyRuleOf('X-Tenant', keyRules({ headers: ['x-tenant'] }), '/a')).toEqual({ kind: 'none' });
    expect(varyRuleOf('Cookie', keyRules({ cookies: ['lang'] }), '/a')).toEqual({ kind: 'none' });
    expect(varyRuleOf('User-Agent', keyRules({ mobile: true }), '/a')).toEqual({ kind: 'none' });
    expect(varyRuleOf('Accept', keyRules({ webp: true }), '/a.png')).toEqual({ kind: 'none' });
    expect(varyRuleOf('Accept', keyRules({ webp: true }), '/a.json')).toEqual({ kind: 'headers', names: ['accept'] });
    expect(varyRuleOf('Host', keyRules({ hostname: true }), '/a')).toEqual({ kind: 'none' });
  });

  it('refuses Vary: * and more than 4 headers', () => {
    expect(varyRuleOf('Origin, *', keyRules(), '/a').kind).toBe('refuse');
    expect(varyRuleOf('A, B, C, D', keyRules(), '/a').kind).toBe('headers');
    expect(varyRuleOf(['A, B', 'C, D, E'], keyRules(), '/a').kind).toBe('refuse');
  });

  it('gives each combination of values its own key, none passing for another', () => {
    const request = (headers: Record<string, string>): EdgeRequest => ({
      method: 'GET',
      scheme: 'http',
      host: 'h',
      path: '/',
      query: '',
      headers,
      clientIp: '127.0.0.1',
    });
    const names = ['a', 'b'];
    const one = variantKeyOf('k', names, request({ a: 'x', b: 'y|v:b="z"' }));
    const two = variantKeyOf('k', names, request({ a: 'x|v:b="y"', b: 'z' }));
    expect(one).not.toBe(two);
    expect(variantKeyOf('k', names, request({}))).toBe(variantKeyOf('k', names, request({ a: '', b: '' })));
    expect(variantKeyOf('k', names, request({ a: 'x'.repeat(5000) }))).toBeUndefined();
  });
});

describe('the variant index', () => {
  const answer = (variantOf?: CachedAnswer['variantOf']): CachedAnswer => ({
    zoneId: 1,
    status: 200,
    headers: {},
    body: Buffer.from('x'),
    storedAt: 0,
    expiresAt: 1,
    etag: undefined,
    lastModified: undefined,
    purgeSeq: 0,
    path: '/',
    query: '',
    variantOf,
  });

  it('remembers the headers while a variant is kept, drops the plain copy it replaces, and forgets with the last variant', () => {
    const cache = new EdgeCache(1 << 20);
    cache.set('k', answer());
    const of = { key: 'k', names: ['cookie'] };
    cache.set('k|a', answer(of));
    expect(cache.get('k')).toBeUndefined();
    cache.set('k|b', answer(of));
    expect(cache.variesBy('k')).toEqual(['cookie']);
    cache.delete('k|a');
    expect(cache.variesBy('k')).toEqual(['cookie']);
    cache.dropZone(1);
    expect(cache.variesBy('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
