/**
 * Property: whatever a client sends to any operation of the OpenAPI document, the server answers
 * without a 5xx; every 4xx carries the part 7 body with `status` equal to the HTTP status; and a
 * rejected request leaves the store exactly as it was.
 *
 * "Unchanged" is read from SQLite's `data_version` on a second connection: it moves with every
 * commit made by the server's connection, so any write a rejected request commits is caught,
 * even one a later write undid. (Idempotency keys the fuzzer sends are always malformed, so no
 * claim is ever written; background jobs do not run in tests.)
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { operationsOf, readDocument, type ApiDocument, type Operation } from '../security/support/operations.js';
import { createWorld, type World, WORLD_CONFIG } from '../security/support/world.js';
import { requestFor, type FuzzRequest, type Keys } from './arbitraries.js';

/** Each run draws anew (no fixed seed), so runs add up across CI: 4,000 reach every operation many times over. */
const RUNS = 4_000;
/** Fresh resources every so often, so deletes early in a run do not leave later requests only 404s. */
const REFILL_EVERY = 500;

let t: TestContext;
let doc: ApiDocument;
let operations: Operation[];
let keys: Keys;
let reader: Database.Database;
/** `DELETE /apikey/{id}` paths of the keys the fuzzer sends: revoking one would turn every later request into a 401. */
let keysInUse: Set<string>;
const worlds: World[] = [];

beforeAll(async () => {
  t = await createTestApp({ ...WORLD_CONFIG, rateLimitPerSecond: 0, authFailureLimit: 0, adminToken: 'operator-token-never-sent-0123456789' });
  doc = await readDocument(t);
  // Operator routes are fuzzed without their token: with it, the fuzzer could inject faults or wipe the store.
  operations = operationsOf(doc);
  const other = await t.newAccount('other');
  keys = { full: t.key, readOnly: (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key, otherAccount: other.key };
  keysInUse = new Set();
  for (const key of [keys.full, keys.otherAccount]) {
    const listed = (await t.get('/apikey?perPage=1000', key)).body.Items as { Id: number; Key: string }[];
    keysInUse.add(`/apikey/${listed.find((k) => k.Key === key)!.Id}`);
  }
  const readOnlyId = ((await t.get('/apikey?perPage=1000')).body.Items as { Id: number; Key: string }[]).find((k) => k.Key === keys.readOnly)!.Id;
  keysInUse.add(`/apikey/${readOnlyId}`);
  worlds.push(await createWorld(t, t.key, 'fuzz0'));
  reader = new Database(t.databaseUrl.slice('sqlite:'.length), { readonly: true });
  // The detector sees the server's commits: one write moves it, a rejected request does not.
  const start = dataVersion();
  expect((await t.post('/apikey', {})).status).toBe(201);
  expect(dataVersion()).not.toBe(start);
  const after = dataVersion();
  expect((await t.post('/storagezone', { Name: 'x', Region: 'nowhere' })).status).toBe(400);
  expect(dataVersion()).toBe(after);
}, 60_000);
afterAll(async () => {
  reader?.close();
  await t?.close();
});

const dataVersion = () => reader.pragma('data_version', { simple: true }) as number;

/** What is wrong with a response, or undefined when it keeps the contract. */
function problemWith(status: number, contentType: string, text: string): string | undefined {
  if (status >= 500) return `server error ${status}`;
  if (status < 400) return undefined;
  if (!contentType.includes('json')) return `error without a JSON body (${contentType})`;
  const body = JSON.parse(text) as Record<string, unknown>;
  for (const f of ['title', 'detail', 'instance', 'id']) if (typeof body[f] !== 'string') return `error body lacks string ${f}`;
  if (body['status'] !== status) return `error body status ${String(body['status'])} != ${status}`;
  if (!Array.isArray(body['errors'])) return 'error body lacks errors[]';
  for (const e of body['errors'] as Record<string, unknown>[]) {
    if (typeof e?.['field'] !== 'string' || typeof e?.['message'] !== 'string') return `malformed errors[] entry ${JSON.stringify(e)}`;
  }
  return undefined;
}

describe('fuzzing every operation', () => {
  it(`answers ${RUNS} hostile requests without a 5xx, with part 7 errors, and no write on a rejection`, async () => {
    let runs = 0;
    const seen = new Set<string>();
    let version = dataVersion();
    const arbitrary = fc
      .constantFrom(...operations)
      .chain((op) => requestFor(doc, op, keys, () => worlds))
      .filter((req) => !(req.method === 'DELETE' && keysInUse.has(req.url.split('?')[0]!)));

    await fc.assert(
      fc.asyncProperty(arbitrary, async (req: FuzzRequest) => {
        runs++;
        if (runs % REFILL_EVERY === 0) {
          worlds.push(await createWorld(t, t.key, `fuzz${runs}`));
          version = dataVersion();
        }
        seen.add(req.operation);
        const res = await t.app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload });
        const problem = problemWith(res.statusCode, String(res.headers['content-type'] ?? ''), res.body);
        const now = dataVersion();
        const wrote = now !== version;
        version = now;
        if (problem) throw new Error(`${problem}: ${res.body.slice(0, 300)}`);
        if (res.statusCode >= 400 && wrote) throw new Error(`a rejected request (${res.statusCode}) wrote to the store: ${res.body.slice(0, 300)}`);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );

    console.log(`fuzz: ${runs} requests, ${seen.size} distinct operations`);
    expect(runs).toBeGreaterThanOrEqual(RUNS);
    expect(seen.size).toBe(new Set(operations.map((o) => `${o.method} ${o.path}`)).size);
  }, 120_000);
});
