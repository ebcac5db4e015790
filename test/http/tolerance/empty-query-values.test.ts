/**
 * Generated clients send every optional query parameter, empty when unset (`?page=&perPage=`).
 * On every operation of the OpenAPI document, each optional parameter sent empty (or blank, or as
 * a bare name) is answered exactly as if it had not been sent: a route added later is covered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { operationsOf, readDocument, urlOf, type Operation, type Param } from '../../security/support/operations.js';
import { createWorld, resourceOf, type World, WORLD_CONFIG } from '../../security/support/world.js';

const OPERATOR_TOKEN = 'operator-token-for-query-tests-0123456789';
/** `name=`, `name=%20` and a bare `name`: three spellings of no value. */
const NO_VALUE = [(name: string) => `${name}=`, (name: string) => `${name}=%20`, (name: string) => name];

let t: TestContext;
let operations: Operation[];
let worlds = 0;

beforeAll(async () => {
  t = await createTestApp({ ...WORLD_CONFIG, adminToken: OPERATOR_TOKEN, rateLimitPerSecond: 0 });
  operations = operationsOf(await readDocument(t)).filter((op) => op.params.some((p) => p.in === 'query' && !p.required));
});
afterAll(async () => {
  await t?.close();
});

const optionalQuery = (op: Operation): Param[] => op.params.filter((p) => p.in === 'query' && !p.required);

function urlIn(world: World, op: Operation, query: string[]): string {
  const url = urlOf(op, (param) => {
    const resource = resourceOf(op, param);
    return resource === undefined ? undefined : String(world[resource]);
  });
  if (query.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query.join('&')}`;
}

async function send(op: Operation, url: string) {
  const headers: Record<string, string> = op.operator ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : { accesskey: t.key };
  const res = await t.app.inject({ method: op.method as 'GET', url, headers });
  return { status: res.statusCode, body: res.body };
}

/** How many resources of each kind the account has: what a write changed. */
async function counts(): Promise<Record<string, unknown>> {
  const total = async (url: string) => {
    const body = (await t.get(url)).body as unknown;
    if (Array.isArray(body)) return body.length;
    const page = body as { TotalItems?: number; meta?: { totalItems: number } };
    return page.TotalItems ?? page.meta?.totalItems;
  };
  return {
    apiKeys: await total('/apikey'),
    pullZones: await total('/pullzone'),
    storageZones: await total('/storagezone'),
    dnsZones: await total('/dnszone'),
    videoLibraries: await total('/videolibrary'),
    apps: await total('/mc/apps'),
  };
}

describe('an empty optional query parameter is an absent one', () => {
  it('finds the operations to check in the OpenAPI document', () => {
    const names = operations.map((op) => `${op.method} ${op.path}`);
    expect(names).toEqual(expect.arrayContaining(['GET /apikey', 'GET /pullzone/{id}', 'DELETE /storagezone/{id}', 'GET /mc/apps', 'GET /apps']));
  });

  it('answers a read exactly as without the parameter, for every optional parameter and all of them at once', async () => {
    const world = await createWorld(t, t.key, `read${worlds++}`);
    // GETs that write (loadFreeCertificate issues a certificate) are writes here too.
    for (const op of operations.filter((o) => o.method === 'GET' && (o.access === 'read' || o.operator))) {
      const params = optionalQuery(op);
      const without = await send(op, urlIn(world, op, []));
      expect(without.status, `${op.method} ${op.path}: ${without.body}`).toBe(200);
      for (const spell of NO_VALUE) {
        for (const sent of [...params.map((p) => [p]), params]) {
          const url = urlIn(
            world,
            op,
            sent.map((p) => spell(p.name)),
          );
          const res = await send(op, url);
          expect({ url, status: res.status, body: res.body }).toEqual({ url, status: without.status, body: without.body });
        }
      }
    }
  });

  it('makes a write do exactly what it does without the parameter', async () => {
    for (const op of operations.filter((o) => o.method !== 'GET' || (o.access !== 'read' && !o.operator))) {
      for (const p of optionalQuery(op)) {
        const plain = await createWorld(t, t.key, `write${worlds++}`);
        const before = await counts();
        const without = await send(op, urlIn(plain, op, []));
        const changedWithout = await counts();

        const empty = await createWorld(t, t.key, `write${worlds++}`);
        const beforeEmpty = await counts();
        const withEmpty = await send(op, urlIn(empty, op, [`${p.name}=`]));
        const changedWithEmpty = await counts();

        expect(without.status, `${op.method} ${op.path}: ${without.body}`).toBeLessThan(300);
        expect({ status: withEmpty.status, body: withEmpty.body }).toEqual({ status: without.status, body: without.body });
        const delta = (a: Record<string, unknown>, b: Record<string, unknown>) =>
          Object.fromEntries(Object.keys(a).map((k) => [k, Number(b[k]) - Number(a[k])]));
        expect(delta(beforeEmpty, changedWithEmpty)).toEqual(delta(before, changedWithout));
      }
    }
  });
});
