/**
 * Property: on every operation of the OpenAPI document, a request written the way lenient clients
 * write it (numbers in strings, `True`, optional parameters sent empty, parameter names in another
 * case, an empty body with a content type) is answered as its canonical spelling is. Two apps with
 * the same history take the two spellings, so every status and every error field must match: a
 * route added later cannot be stricter than its siblings.
 *
 * And the other way: a string that is no number, in a numeric field, stays a 400 naming the field,
 * and nothing is written (read from SQLite's `data_version`, as in api.fuzz.test.ts).
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { operationsOf, readDocument, sample, type ApiDocument, type Operation, type Param } from '../security/support/operations.js';
import { createWorld, resourceOf, type World, WORLD_CONFIG } from '../security/support/world.js';
import { bodyFor, EMPTY_BODY_TYPES, fieldOf, numberLeaves, queryPair, refusedSpellings, respellBody, setAt } from './spellings.js';

/** Each run draws anew (no fixed seed), so runs add up across CI. */
const RUNS = 600;
/** Fresh resources every so often: deletes early in a run would leave later requests only 404s. */
const REFILL_EVERY = 50;
const OPERATOR_TOKEN = 'operator-token-for-spelling-tests-0123';

interface Side {
  t: TestContext;
  /** The last one is used; the others may be half deleted. */
  worlds: World[];
}

let canonical: Side;
let lenient: Side;
let doc: ApiDocument;
let operations: Operation[];
let reader: Database.Database;

async function side(): Promise<Side> {
  const t = await createTestApp({ ...WORLD_CONFIG, adminToken: OPERATOR_TOKEN, rateLimitPerSecond: 0, authFailureLimit: 0 });
  return { t, worlds: [await createWorld(t, t.key, 'w0')] };
}

beforeAll(async () => {
  canonical = await side();
  lenient = await side();
  doc = await readDocument(canonical.t);
  // A reset would take the accounts the two apps are driven with.
  operations = operationsOf(doc).filter((op) => op.path !== '/_edgeplane/reset');
  reader = new Database(lenient.t.databaseUrl.slice('sqlite:'.length), { readonly: true });
}, 60_000);
afterAll(async () => {
  reader?.close();
  await canonical?.t.close();
  await lenient?.t.close();
});

/** The id a path or query parameter takes in `world` (operator routes name accounts and pull zones). */
function idFor(s: Side, world: World, op: Operation, param: Param): string {
  const resource = resourceOf(op, param);
  if (resource !== undefined) return String(world[resource]);
  if (op.path.startsWith('/_edgeplane/accounts/')) return String(s.t.accountId);
  if (op.path.startsWith('/_edgeplane/pullzones/')) return String(world.pullZone);
  return String(sample(doc, param.schema));
}

function pathOf(s: Side, world: World, op: Operation): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(idFor(s, world, op, op.params.find((p) => p.name === name)!)));
  const required = op.params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(idFor(s, world, op, p))}`);
  return required.length > 0 ? `${path}?${required.join('&')}` : path;
}

const withQuery = (path: string, parts: (string | undefined)[]) => {
  const sent = parts.filter((p): p is string => p !== undefined);
  return sent.length === 0 ? path : `${path}${path.includes('?') ? '&' : '?'}${sent.join('&')}`;
};

const credentials = (s: Side, op: Operation): Record<string, string> => (op.operator ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : { accesskey: s.t.key });

async function answer(s: Side, op: Operation, url: string, headers: Record<string, string>, payload?: string) {
  const res = await s.t.app.inject({ method: op.method as 'GET', url, headers: { ...credentials(s, op), ...headers }, payload });
  const parsed: unknown = String(res.headers['content-type'] ?? '').includes('json') && res.body.length > 0 ? JSON.parse(res.body) : null;
  const json = (parsed !== null && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const fields = Array.isArray(json['errors']) ? (json['errors'] as { field: string }[]).map((e) => e.field) : [];
  return { status: res.statusCode, fields, key: json['ErrorKey'], body: res.body.slice(0, 300) };
}

const choices = fc.array(fc.nat(59), { minLength: 16, maxLength: 16 });

interface Case {
  op: Operation;
  body: unknown;
  choices: number[];
  noBody: boolean;
}

describe('lenient spellings', () => {
  it(`answer as their canonical spelling, on every operation (${RUNS} pairs)`, async () => {
    const seen = new Set<string>();
    let runs = 0;
    const cases = fc
      .constantFrom(...operations)
      .chain((op) => fc.record({ op: fc.constant(op), body: op.body ? bodyFor(doc, op) : fc.constant(undefined), choices, noBody: fc.boolean() }));
    // Every operation once first, whatever the draw (1,500 random draws over ~220 operations miss
    // one about a time in five), then the random pairs.
    const examples = operations.map((op, i): [Case] => [
      {
        op,
        body: op.body ? fc.sample(bodyFor(doc, op), { numRuns: 1, seed: i })[0] : undefined,
        choices: Array.from({ length: 16 }, (_, k) => (i * 7 + k * 13) % 60),
        noBody: i % 2 === 0,
      },
    ]);
    await fc.assert(
      fc.asyncProperty(cases, async ({ op, body, choices: c, noBody }) => {
        if (++runs % REFILL_EVERY === 0) {
          for (const s of [canonical, lenient]) s.worlds.push(await createWorld(s.t, s.t.key, `w${runs}`));
        }
        seen.add(`${op.method} ${op.path}`);
        const pairs = op.params.filter((p) => p.in === 'query' && !p.required).map((p, i) => queryPair(p, c[i % c.length]!));
        const sendsBody = body !== undefined && !(noBody && op.body?.contentType === 'application/json');
        const contentType = op.body?.contentType ?? 'application/json';

        const plainWorld = canonical.worlds.at(-1)!;
        const plain = await answer(
          canonical,
          op,
          withQuery(
            pathOf(canonical, plainWorld, op),
            pairs.map(([p]) => p),
          ),
          sendsBody ? { 'content-type': contentType } : {},
          sendsBody ? JSON.stringify(body) : undefined,
        );
        const spelledWorld = lenient.worlds.at(-1)!;
        const spelled = await answer(
          lenient,
          op,
          withQuery(
            pathOf(lenient, spelledWorld, op),
            pairs.map(([, l]) => l),
          ),
          { 'content-type': sendsBody ? contentType : EMPTY_BODY_TYPES[c[0]! % EMPTY_BODY_TYPES.length]! },
          sendsBody ? JSON.stringify(respellBody(doc, op, body, c)) : '',
        );
        const same = (a: typeof plain) => ({ status: a.status, fields: a.fields, key: a.key });
        if (JSON.stringify(same(plain)) !== JSON.stringify(same(spelled))) {
          throw new Error(`${op.method} ${op.path}: canonical ${JSON.stringify(plain)} but lenient ${JSON.stringify(spelled)}`);
        }
      }),
      { numRuns: RUNS, endOnFailure: true, examples },
    );
    expect(seen.size).toBe(new Set(operations.map((o) => `${o.method} ${o.path}`)).size);
  }, 180_000);

  it('leave every other string in a numeric field a 400 naming it, writing nothing', async () => {
    const withNumbers = operations.filter((op) => op.body?.contentType === 'application/json');
    const cases = fc.constantFrom(...withNumbers).chain((op) => fc.record({ op: fc.constant(op), body: bodyFor(doc, op), pick: fc.nat(), spelling: fc.nat() }));
    const dataVersion = () => reader.pragma('data_version', { simple: true }) as number;
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ({ op, body, pick, spelling }) => {
        const leaves = numberLeaves(doc, op.body?.schema, body);
        if (leaves.length === 0) return;
        tried++;
        const leaf = leaves[pick % leaves.length]!;
        const refused = refusedSpellings(leaf);
        const sent = setAt(body, leaf.path, refused[spelling % refused.length]);
        const before = dataVersion();
        const res = await answer(lenient, op, pathOf(lenient, lenient.worlds.at(-1)!, op), { 'content-type': 'application/json' }, JSON.stringify(sent));
        if (res.status !== 400 || !res.fields.includes(fieldOf(leaf.path)) || dataVersion() !== before) {
          throw new Error(`${op.method} ${op.path} with ${JSON.stringify(sent)}: ${JSON.stringify(res)}, wrote: ${dataVersion() !== before}`);
        }
      }),
      { numRuns: 600, endOnFailure: true },
    );
    expect(tried).toBeGreaterThan(100);
  }, 120_000);
});
