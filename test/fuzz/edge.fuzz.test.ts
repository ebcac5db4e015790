/**
 * Property: whatever path, query and headers a client sends through a real edge (`//`, `\`, `..`,
 * `.`, their escaped forms `%2e`, `%2f`, `%5c`, control characters and text beyond Latin-1 in
 * query values, filling the variables of header-setting and redirect rules):
 * - every request gets an HTTP answer, never a 5xx, and no header the rules did not set (a
 *   variable never splits a header);
 * - the origin request goes to the zone's origin only: a second server on another port, whose
 *   `host:port` the paths name, is never reached;
 * - what the origin is asked for stays inside what the zone asks for (its OriginUrl's path), read
 *   as sent and read as an origin that decodes and resolves `..` would;
 * - a zone with token authentication, whose only valid token is a directory token for `/public/`,
 *   never makes an origin request outside `/public/`.
 * And the edge still answers a plain request at the end. The planes run in this process, so a
 * throw escaping the edge would also fail the run as an unhandled error.
 */
import { createHmac } from 'node:crypto';
import { posix } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, type TestPullZone, updatePullZone } from '../helpers/edge-plane.js';
import { rawRequest } from '../helpers/raw-http.js';

const RUNS = 400;
/** Bounds the property's time whatever the machine (runs left when it is reached are skipped). */
const TIME_LIMIT_MS = 10_000;
const KEY = 'edge-fuzz-token-key';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let attacker: TestOrigin;
let open: TestPullZone;
let guarded: TestPullZone;
let tokenQuery: string;
let tokenSegment: string;

/** The variables a rule can fill, every one in one value. */
const VARIABLES =
  '{{path}}|{{query_string}}|{{file_name}}|%{Query.x}|%{Query.y}|%{Path.0}|%{Path.1-}|%{Url.Directory}|%{Url.FileName}|%{Url.Extension}|%{RequestHeaders.X-Fuzz}|%{Request.Path}';

async function addRule(zone: TestPullZone, ActionType: number, ActionParameter1: string, ActionParameter2: string, pattern: string) {
  const res = await t.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, {
    ActionType,
    ActionParameter1,
    ActionParameter2,
    TriggerMatchingType: 0,
    Enabled: true,
    Description: 'fuzz',
    Triggers: [{ Type: 0, PatternMatches: [pattern], PatternMatchingType: 0, Parameter1: '' }],
  });
  expect(res.status).toBe(201);
}

async function withRules(zone: TestPullZone) {
  await addRule(zone, 5, 'X-Vars', VARIABLES, '*');
  await addRule(zone, 6, 'X-Seen-Vars', VARIABLES, '*');
  await addRule(zone, 1, `https://example.test{{path}}?q=%{Query.x}&h=%{RequestHeaders.X-Fuzz}`, '302', '*/go/*');
}

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin();
  attacker = await startOrigin();
  edge = await startEdgePlane(t);
  open = await createPullZone(t, 'fuzz-open', `${origin.url}/site/`);
  await withRules(open);
  guarded = await createPullZone(t, 'fuzz-token', origin.url);
  await withRules(guarded);
  expect((await t.post(`/pullzone/${guarded.Id}/resetSecurityKey`, { SecurityKey: KEY })).status).toBe(204);
  guarded = await updatePullZone(t, guarded.Id, { ZoneSecurityEnabled: true });
  const expires = Math.floor(Date.now() / 1000) + 3600;
  const sign = (params: string) => `HS256-${createHmac('sha256', KEY).update('/public/').update(String(expires)).update(params).digest('base64url')}`;
  // The query form ignores other parameters, so that the fuzzer's own ones leave it valid.
  tokenQuery = `token=${sign('token_ignore_params=true&token_path=/public/')}&token_ignore_params=true&token_path=%2Fpublic%2F&expires=${expires}`;
  tokenSegment = `/bcdn_token=${sign('token_path=/public/')}&token_path=%2Fpublic%2F&expires=${expires}`;
}, 60_000);
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await attacker?.close();
  await t?.close();
});

/** Percent-encodes every UTF-8 byte of a text (a lone surrogate as U+FFFD). */
const escapeAll = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const segment = () =>
  fc.oneof(
    fc.constantFrom(
      '..',
      '.',
      '',
      '%2e%2e',
      '%2E.',
      '.%2e',
      '%2e',
      '..%2f',
      '..%2F',
      '..%5c',
      '%2e%2e%5C',
      '%2f',
      '%5c',
      '\\',
      '..\\',
      'public',
      'secret.txt',
      'site',
      'go',
      '%00',
      '%',
      '%zz',
      '%E2%82%AC',
      '\u00e9',
      'bcdn_token=forged&expires=1',
    ),
    fc.constant('ATTACKER'),
    fc.stringMatching(/^[a-z0-9._~-]{1,6}$/),
  );
const separator = fc.constantFrom('/', '/', '/', '//', '\\', '/\\');
const start = fc.constantFrom('/', '//', '/\\', '/public/', '/public//', '/public/x/', '/go/', 'ABSOLUTE');
const path = fc
  .tuple(start, fc.array(fc.tuple(segment(), separator), { maxLength: 6 }), segment())
  .map(([first, rest, last]) => first + rest.map(([s, sep]) => s + sep).join('') + last);

const queryValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }).map(escapeAll),
  fc.constantFrom('%0d%0aSet-Cookie:%20injected=1', '%0aX-Injected:%201', '%E2%82%AC', '%00', '%', '%zz', '..\\..\\', '%2e%2e%2f', 'plain'),
);
const query = fc
  .array(fc.tuple(fc.constantFrom('x', 'y', 'a', 'token', 'expires', 'token_path'), queryValue), { maxLength: 3 })
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));
/** A request header value a client can send (visible ASCII and Latin-1). */
const headerValue = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 10,
});
const token = fc.constantFrom('none', 'query', 'path', 'forged');

/** The request path is inside `prefix`, as sent and as an origin that decodes (`\` as `/`) and resolves would read it. */
function staysInside(url: string, prefix: string): boolean {
  const path = url.split('?')[0]!;
  if (!path.startsWith(prefix)) return false;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: an origin cannot decode it either.
  }
  return posix.normalize(decoded.replace(/\\/g, '/')).startsWith(prefix);
}

describe('the edge under random paths, queries and rule variables', () => {
  it('answers every request, reaches only the zone’s origin, and keeps token-protected paths protected', async () => {
    const elsewhere = `127.0.0.1:${attacker.port}`;
    const seen = { answered: 0, refused: 0, originRequests: 0, guardedAtOrigin: 0 };
    await fc.assert(
      fc.asyncProperty(fc.boolean(), path, query, headerValue, token, async (toGuarded, rawPath, rawQuery, fuzzHeader, tokenForm) => {
        const zone = toGuarded ? guarded : open;
        let target = rawPath.replaceAll('ATTACKER', elsewhere);
        if (target.startsWith('ABSOLUTE')) target = `http://${zone.host}/${target.slice('ABSOLUTE'.length)}`;
        let search = rawQuery;
        if (toGuarded && tokenForm === 'query') search = search ? `${tokenQuery}&${search}` : tokenQuery;
        if (toGuarded && tokenForm === 'forged') search = `${search}&token=HS256-forged&token_path=%2F&expires=1900000000`;
        if (toGuarded && tokenForm === 'path' && target.startsWith('/')) target = `${tokenSegment}${target}`;
        if (search) target = `${target}?${search}`;
        const before = origin.requests.length;

        const res = await rawRequest(edge.port, zone.host, target, { headers: { 'x-fuzz': fuzzHeader } });
        seen.answered++;
        if (res.status >= 400) seen.refused++;
        expect(res.status, target).toBeGreaterThanOrEqual(200);
        expect(res.status, target).toBeLessThan(500);
        expect(res.headers['set-cookie'], target).toBeUndefined();
        expect(res.headers['x-injected'], target).toBeUndefined();

        expect(attacker.requests, target).toEqual([]);
        for (const asked of origin.requests.slice(before)) {
          seen.originRequests++;
          const fromGuarded = asked.headers['cdn-pullzoneid'] === String(guarded.Id);
          if (fromGuarded) seen.guardedAtOrigin++;
          expect(staysInside(asked.url, fromGuarded ? '/public/' : '/site/'), `${target} → ${asked.url}`).toBe(true);
          expect(asked.headers['set-cookie'], target).toBeUndefined();
        }
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, endOnFailure: true },
    );
    // The run did what it is for: many answers, some refused, many reaching the origin.
    expect(seen.answered).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.originRequests).toBeGreaterThan(10);
    expect(seen.guardedAtOrigin).toBeGreaterThan(0);

    const plain = await rawRequest(edge.port, open.host, '/plain.txt');
    expect(plain.status).toBe(200);
    expect(plain.text).toBe('origin /site/plain.txt');
    expect(edge.errors).toEqual([]);
  }, 60_000);
});
