/**
 * Hostile requests through a real edge (issue 34): a rule's variable that would split or break a
 * header, paths that would send the origin request to another host, and paths that would climb out
 * of a directory token's reach. The plane runs in this process: a request that threw past the
 * edge's handler would leave the request unanswered and fail the run as an unhandled error.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, type TestPullZone, updatePullZone } from '../../helpers/edge-plane.js';
import { rawRequest } from '../../helpers/raw-http.js';

const KEY = 'hostile-token-key';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
/** A server on another port that no edge request may ever reach. */
let attacker: TestOrigin;

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store', 'x-seen-tenant': String(req.headers['x-tenant'] ?? '') });
    res.end(`origin ${req.url}`);
  });
  attacker = await startOrigin();
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await attacker?.close();
  await t?.close();
});

const send = (zone: TestPullZone, target: string, headers?: Record<string, string>) => rawRequest(edge.port, zone.host, target, { headers: headers ?? {} });

async function addRule(zone: TestPullZone, rule: { ActionType: number; ActionParameter1: string; ActionParameter2?: string; pattern: string }) {
  const res = await t.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, {
    ActionType: rule.ActionType,
    ActionParameter1: rule.ActionParameter1,
    ActionParameter2: rule.ActionParameter2 ?? '',
    TriggerMatchingType: 0,
    Enabled: true,
    Description: 'hostile',
    Triggers: [{ Type: 0, PatternMatches: [rule.pattern], PatternMatchingType: 0, Parameter1: '' }],
  });
  expect(res.status).toBe(201);
}

describe('a rule variable made of request data never breaks or splits a header', () => {
  let zone: TestPullZone;
  beforeAll(async () => {
    zone = await createPullZone(t, 'hostile-rules', origin.url);
    await addRule(zone, { ActionType: 5, ActionParameter1: 'X-Echo', ActionParameter2: '%{Query.x}', pattern: '*/echo*' });
    await addRule(zone, { ActionType: 1, ActionParameter1: 'https://example.test/to?q=%{Query.x}', ActionParameter2: '302', pattern: '*/go*' });
    await addRule(zone, { ActionType: 6, ActionParameter1: 'X-Tenant', ActionParameter2: '%{Query.x}', pattern: '*/ask*' });
  });

  it('percent-encodes non-Latin-1 text in a response header (it made node throw ERR_INVALID_CHAR)', async () => {
    const res = await send(zone, '/echo?x=%E2%82%AC');
    expect(res.status).toBe(200);
    expect(res.headers['x-echo']).toBe('%E2%82%AC');
  });

  it('percent-encodes CR, LF and NUL: no header is added to the answer', async () => {
    const res = await send(zone, '/echo?x=a%0d%0aSet-Cookie:%20stolen=1%00');
    expect(res.status).toBe(200);
    expect(res.headers['x-echo']).toBe('a%0D%0ASet-Cookie: stolen=1%00');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('does the same in a redirect’s Location and in a header sent to the origin', async () => {
    const redirect = await send(zone, '/go?x=%E2%82%AC%0d%0aSet-Cookie:%20stolen=1');
    expect(redirect.status).toBe(302);
    expect(redirect.headers['location']).toBe('https://example.test/to?q=%E2%82%AC%0D%0ASet-Cookie: stolen=1');
    expect(redirect.headers['set-cookie']).toBeUndefined();
    const asked = await send(zone, '/ask?x=%E2%82%AC%0a');
    expect(asked.status).toBe(200);
    expect(asked.headers['x-seen-tenant']).toBe('%E2%82%AC%0A');
  });

  it('still answers plain requests afterwards, and logged nothing', async () => {
    const res = await send(zone, '/plain.txt');
    expect(res.status).toBe(200);
    expect(res.text).toBe('origin /plain.txt');
    expect(edge.errors).toEqual([]);
  });
});

describe('the origin request goes to the zone’s origin whatever the path', () => {
  it('joins a scheme-relative or backslashed path to the origin instead of resolving it (open proxy)', async () => {
    const zone = await createPullZone(t, 'hostile-proxy', origin.url);
    const elsewhere = `127.0.0.1:${attacker.port}`;
    for (const target of [`//${elsewhere}/anything`, `/\\${elsewhere}/anything`, `/\\/${elsewhere}/anything`, `///${elsewhere}/anything?a=1`]) {
      const res = await send(zone, target);
      expect(res.status, target).toBe(200);
      expect(res.text, target).toMatch(new RegExp(`^origin /127\\.0\\.0\\.1:${attacker.port}/anything(\\?a=1)?$`));
    }
    // A target that is no path at all is refused.
    expect((await send(zone, `\\\\${elsewhere}/anything`)).status).toBe(400);
    // The absolute form (`GET http://host//elsewhere/…`) too.
    const absolute = await rawRequest(edge.port, zone.host, `http://${zone.host}//${elsewhere}/absolute`);
    expect(absolute.text).toBe(`origin /${elsewhere}/absolute`);
    expect(attacker.requests).toEqual([]);
  });

  it('puts the origin URL’s own path first, and the origin gets exactly that joined path', async () => {
    const zone = await createPullZone(t, 'hostile-base', `${origin.url}/base/`);
    const res = await send(zone, `//127.0.0.1:${attacker.port}/x.txt?q=1`);
    expect(res.text).toBe(`origin /base/127.0.0.1:${attacker.port}/x.txt?q=1`);
    expect(origin.requests.at(-1)?.url).toBe(`/base/127.0.0.1:${attacker.port}/x.txt?q=1`);
    expect(attacker.requests).toEqual([]);
  });
});

describe('a directory token covers its directory only, however the path is spelled', () => {
  let zone: TestPullZone;
  let query: string;
  let prefix: string;
  beforeAll(async () => {
    zone = await createPullZone(t, 'hostile-token', origin.url);
    expect((await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, { SecurityKey: KEY })).status).toBe(204);
    await updatePullZone(t, zone.Id, { ZoneSecurityEnabled: true });
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const token = `HS256-${createHmac('sha256', KEY).update('/public/').update(String(expires)).update('token_path=/public/').digest('base64url')}`;
    query = `token=${token}&token_path=%2Fpublic%2F&expires=${expires}`;
    prefix = `/bcdn_token=${token}&token_path=%2Fpublic%2F&expires=${expires}`;
  });

  it('refuses paths that climb out with `\\`, encoded dots or encoded separators, in both token forms', async () => {
    const before = origin.requests.length;
    const escapes = [
      '/public/..\\secret.txt',
      '/public/x/..\\..\\secret.txt',
      '/public\\..\\secret.txt',
      '/public/%2e%2e/secret.txt',
      '/public/%2E%2E%2Fsecret.txt',
      '/public/..%2fsecret.txt',
      '/public/..%5csecret.txt',
      '/public/x/%2e%2e%5c%2e%2e%5csecret.txt',
      '/public/./../secret.txt',
      '/public%2F..%2Fsecret.txt',
    ];
    for (const path of escapes) {
      for (const target of [`${path}?${query}`, `${prefix}${path}`]) {
        const res = await send(zone, target);
        expect([400, 403], target).toContain(res.status);
      }
    }
    expect(origin.requests.slice(before).map((r) => r.url)).toEqual([]);
  });

  it('serves what stays inside, and the origin is asked for exactly the path that was checked', async () => {
    const inside = await send(zone, `/public/a/..\\b.txt?${query}`);
    expect(inside.status).toBe(200);
    expect(origin.requests.at(-1)?.url).toBe('/public/b.txt');
    const merged = await send(zone, `${prefix}/public//c/%2e/d.txt`);
    expect(merged.status).toBe(200);
    expect(origin.requests.at(-1)?.url).toBe('/public/c/d.txt');
  });
});
