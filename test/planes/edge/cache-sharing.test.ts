/**
 * Whose answer a cached copy is, over real sockets (RFC 9111 where the zone's settings are silent):
 * an answer to a request with Authorization is kept only when the origin marks it shareable; the
 * origin's Vary splits the cache by the headers it names; headers a client could use to change the
 * origin's answer without changing the key never reach the origin. Each case also runs with
 * EnableRequestCoalescing, where one client's answer could otherwise be handed to the others waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let zoneCount = 0;

type Answer = { status?: number; headers?: Record<string, string>; body?: string; delayMs?: number };
type Responder = (url: string, headers: Record<string, string | string[] | undefined>) => Answer;
const responders = new Map<string, Responder>();

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin((req, res) => {
    const name = String(req.headers['x-test-zone'] ?? '');
    const answer = responders.get(name)?.(req.url ?? '', req.headers) ?? {};
    const send = () => {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? `origin ${req.url}`);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

/** A zone of its own whose origin answers with `respond`; requests() are the origin requests it caused. */
async function zoneWith(respond: Responder, settings: Record<string, unknown> = {}) {
  const name = `share-${++zoneCount}`;
  responders.set(name, respond);
  const zone = await createPullZone(t, name, origin.url, settings);
  const requests = () => origin.requests.filter((r) => r.headers['x-test-zone'] === name);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await edge.get(zone.host, path, { 'x-test-zone': name, ...headers });
    return { status: res.status, cache: res.headers['cdn-cache'], text: res.text };
  };
  return { zone, get, requests };
}

const whoAsked = (headers: Record<string, string | string[] | undefined>) => String(headers['authorization'] ?? 'anonymous');

describe('answers to requests with Authorization (RFC 9111 §3.5)', () => {
  it('are not kept when the origin does not mark them shareable, so an anonymous client never gets them', async () => {
    const z = await zoneWith((_url, h) => ({ headers: { 'cache-control': 'max-age=300' }, body: `for ${whoAsked(h)}` }));
    const alice = await z.get('/account', { authorization: 'Bearer alice' });
    expect([alice.cache, alice.text]).toEqual(['BYPASS', 'for Bearer alice']);
    const anonymous = await z.get('/account');
    expect([anonymous.cache, anonymous.text]).toEqual(['MISS', 'for anonymous']);
    // What an anonymous request stored is shared, with an authorised one too (§3.5 is about what the authorised request brings).
    expect((await z.get('/account')).cache).toBe('HIT');
    expect(z.requests()).toHaveLength(2);
  });

  it('are not kept under CacheControlMaxAgeOverride either: a cache time says how long, not whose', async () => {
    const z = await zoneWith((_url, h) => ({ body: `for ${whoAsked(h)}` }), { CacheControlMaxAgeOverride: 600 });
    expect((await z.get('/me', { authorization: 'Bearer alice' })).cache).toBe('BYPASS');
    expect((await z.get('/me')).text).toBe('for anonymous');
  });

  it('are kept when the origin says public, s-maxage or must-revalidate', async () => {
    for (const cc of ['public, max-age=300', 's-maxage=300', 'max-age=300, must-revalidate']) {
      const z = await zoneWith(() => ({ headers: { 'cache-control': cc }, body: 'shared page' }));
      expect((await z.get('/p', { authorization: 'Bearer alice' })).cache).toBe('MISS');
      expect(await z.get('/p')).toMatchObject({ cache: 'HIT', text: 'shared page' });
    }
  });

  it('are kept per credential when CacheKeyHeaders names Authorization', async () => {
    const z = await zoneWith((_url, h) => ({ headers: { 'cache-control': 'max-age=300' }, body: `for ${whoAsked(h)}` }), {
      CacheKeyHeaders: 'Authorization',
    });
    expect((await z.get('/me', { authorization: 'Bearer alice' })).cache).toBe('MISS');
    expect(await z.get('/me', { authorization: 'Bearer alice' })).toMatchObject({ cache: 'HIT', text: 'for Bearer alice' });
    expect(await z.get('/me', { authorization: 'Bearer bob' })).toMatchObject({ cache: 'MISS', text: 'for Bearer bob' });
    expect(await z.get('/me')).toMatchObject({ cache: 'MISS', text: 'for anonymous' });
  });

  it('are not handed to anonymous requests waiting for the same key (EnableRequestCoalescing)', async () => {
    const z = await zoneWith((_url, h) => ({ headers: { 'cache-control': 'max-age=300' }, body: `for ${whoAsked(h)}`, delayMs: 200 }), {
      EnableRequestCoalescing: true,
    });
    const alice = z.get('/slow', { authorization: 'Bearer alice' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const others = await Promise.all([z.get('/slow'), z.get('/slow')]);
    expect((await alice).text).toBe('for Bearer alice');
    expect(others.map((o) => o.text)).toEqual(['for anonymous', 'for anonymous']);
  });

  it('private answers are not handed to other requests waiting for the same key either', async () => {
    let n = 0;
    const z = await zoneWith(() => ({ headers: { 'cache-control': 'private, max-age=60' }, body: `visitor ${++n}`, delayMs: 200 }), {
      EnableRequestCoalescing: true,
    });
    const answers = await Promise.all([z.get('/cart'), z.get('/cart'), z.get('/cart')]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(3);
    expect(z.requests()).toHaveLength(3);
  });
});

describe("the origin's Vary (RFC 9111 §4.1)", () => {
  const cookieEcho: Responder = (_url, h) => ({
    headers: { 'cache-control': 'max-age=60', vary: 'Cookie' },
    body: `page for ${String(h['cookie'] ?? 'nobody')}`,
  });

  it("keeps one copy per value of the headers it names: one visitor never gets another's", async () => {
    const z = await zoneWith(cookieEcho);
    expect(await z.get('/home', { cookie: 'session=alice' })).toMatchObject({ cache: 'MISS', text: 'page for session=alice' });
    expect(await z.get('/home', { cookie: 'session=bob' })).toMatchObject({ cache: 'MISS', text: 'page for session=bob' });
    expect(await z.get('/home')).toMatchObject({ cache: 'MISS', text: 'page for nobody' });
    expect(await z.get('/home', { cookie: 'session=alice' })).toMatchObject({ cache: 'HIT', text: 'page for session=alice' });
    expect(await z.get('/home', { cookie: 'session=bob' })).toMatchObject({ cache: 'HIT', text: 'page for session=bob' });
    expect(z.requests()).toHaveLength(3);
  });

  it('hands a coalesced answer only to the requests of its own variant', async () => {
    const z = await zoneWith((url, h) => ({ ...cookieEcho(url, h), delayMs: 200 }), { EnableRequestCoalescing: true });
    const answers = await Promise.all(['a', 'b', 'a', 'b'].map((who) => z.get('/together', { cookie: `session=${who}` })));
    expect(answers.map((a) => a.text)).toEqual(['page for session=a', 'page for session=b', 'page for session=a', 'page for session=b']);
  });

  it('splits a copy kept before the origin began to vary', async () => {
    let vary = false;
    const z = await zoneWith((url, h) => (vary ? cookieEcho(url, h) : { headers: { 'cache-control': 'max-age=10' }, body: 'same for all' }));
    expect((await z.get('/turn', { cookie: 'session=alice' })).text).toBe('same for all');
    vary = true;
    edge.advance(11);
    expect(await z.get('/turn', { cookie: 'session=alice' })).toMatchObject({ cache: 'EXPIRED', text: 'page for session=alice' });
    expect(await z.get('/turn', { cookie: 'session=bob' })).toMatchObject({ cache: 'MISS', text: 'page for session=bob' });
    expect(await z.get('/turn', { cookie: 'session=alice' })).toMatchObject({ cache: 'HIT', text: 'page for session=alice' });
  });

  it('a URL purge removes every variant of the URL', async () => {
    const z = await zoneWith(cookieEcho);
    for (const who of ['alice', 'bob']) await z.get('/purged', { cookie: `session=${who}` });
    expect((await z.get('/purged', { cookie: 'session=bob' })).cache).toBe('HIT');
    expect((await t.post(`/purge?url=${encodeURIComponent(`https://${z.zone.host}/purged`)}`)).status).toBe(200);
    for (const who of ['alice', 'bob']) expect((await z.get('/purged', { cookie: `session=${who}` })).cache).toBe('MISS');
  });

  it('keeps nothing for Vary: *, for more than 4 headers, or for varied values over 4 KiB', async () => {
    for (const vary of ['*', 'Accept-Language, *', 'A, B, C, D, E']) {
      const z = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=60', vary } }));
      await z.get('/v');
      expect((await z.get('/v')).cache).toBe('BYPASS');
    }
    const z = await zoneWith(cookieEcho);
    const huge = `session=${'x'.repeat(5000)}`;
    await z.get('/big', { cookie: huge });
    expect((await z.get('/big', { cookie: huge })).cache).toBe('BYPASS');
  });

  it('changes nothing for headers the key already covers: the codings, CacheKeyHeaders, the zone vary settings', async () => {
    const coding = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=60', vary: 'Accept-Encoding' } }));
    await coding.get('/c', { 'accept-encoding': 'gzip' });
    expect((await coding.get('/c', { 'accept-encoding': 'gzip' })).cache).toBe('HIT');
    const keyed = await zoneWith(() => ({ headers: { 'cache-control': 'max-age=60', vary: 'X-Tenant, Accept-Encoding' } }), { CacheKeyHeaders: 'X-Tenant' });
    await keyed.get('/k', { 'x-tenant': 'a' });
    expect((await keyed.get('/k', { 'x-tenant': 'a' })).cache).toBe('HIT');
    const cookies = await zoneWith(cookieEcho, { EnableCookieVary: true, CookieVaryParameters: ['lang'] });
    await cookies.get('/l', { cookie: 'lang=en; other=1' });
    // The zone says the `lang` cookie is what splits its cache: another cookie beside it does not.
    expect(await cookies.get('/l', { cookie: 'lang=en; other=2' })).toMatchObject({ cache: 'HIT', text: 'page for lang=en; other=1' });
  });
});

describe('client headers the key does not hold', () => {
  const hostEcho: Responder = (url, h) => ({
    headers: { 'cache-control': 'max-age=60' },
    body: `${url} for ${String(h['x-forwarded-host'] ?? 'the zone')} ${String(h['x-original-url'] ?? '')}${String(h['x-http-method-override'] ?? '')}`,
  });

  it('X-Forwarded-Host, X-Original-URL, Forwarded and a GET method override do not reach the origin: no poisoned copy', async () => {
    const z = await zoneWith(hostEcho);
    const attack = await z.get('/index.html', {
      'x-forwarded-host': 'evil.test',
      'x-original-url': '/admin',
      'x-rewrite-url': '/admin',
      'x-forwarded-server': 'evil.test',
      'x-forwarded-port': '4443',
      forwarded: 'host=evil.test;proto=http',
      'x-http-method-override': 'DELETE',
    });
    expect(attack.text).toBe('/index.html for the zone ');
    const seen = z.requests()[0]!.headers;
    for (const name of [
      'x-forwarded-host',
      'x-original-url',
      'x-rewrite-url',
      'x-forwarded-server',
      'x-forwarded-port',
      'forwarded',
      'x-http-method-override',
    ]) {
      expect(seen[name], name).toBeUndefined();
    }
    // The edge's own proxy headers still go.
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(await z.get('/index.html')).toMatchObject({ cache: 'HIT', text: '/index.html for the zone ' });
  });

  it('are passed on, each value with its own copy, when CacheKeyHeaders names them', async () => {
    const z = await zoneWith(hostEcho, { CacheKeyHeaders: 'X-Forwarded-Host' });
    expect((await z.get('/p', { 'x-forwarded-host': 'a.test' })).text).toBe('/p for a.test ');
    expect(await z.get('/p')).toMatchObject({ cache: 'MISS', text: '/p for the zone ' });
    expect(await z.get('/p', { 'x-forwarded-host': 'a.test' })).toMatchObject({ cache: 'HIT', text: '/p for a.test ' });
  });

  it('a method override still reaches the origin on a request that has a body', async () => {
    const z = await zoneWith(hostEcho);
    const res = await edge.request('POST', z.zone.host, '/form', { 'x-test-zone': z.zone.Name, 'x-http-method-override': 'PATCH' }, 'a=1');
    expect(res.text).toBe('/form for the zone PATCH');
  });
});
