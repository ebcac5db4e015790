/**
 * The wall between accounts, and the authentication matrix, over every route the app has. Routes
 * come from the app's own OpenAPI document (plus the unprefixed container mirror), so a new route
 * is covered the day it is added. Account A owns one of each resource; account B knows A's ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext, type TestResponse } from '../helpers/app.js';
import { startRegistry, type TestRegistry } from '../helpers/oci-registry.js';
import {
  bodyValidator,
  fieldName,
  isWrite,
  linkFields,
  operationsOf,
  readDocument,
  sample,
  urlOf,
  withValueAt,
  WORLD_IMAGE,
  type ApiDocument,
  type Operation,
  type Schema,
} from './support/operations.js';
import { createWorld, linkValue, NOBODY, resourceOf, SHARED, type World, WORLD_CONFIG } from './support/world.js';

const ADMIN_TOKEN = 'operator-token-for-the-wall-0123456789';

let t: TestContext;
let doc: ApiDocument;
let operations: Operation[];
let validate: ReturnType<typeof bodyValidator>;
let a: World;
let b: World;
let bKey: string;
let readOnlyKey: string;
let revokedKey: string;
let accountKindKey: string;
let before: Map<string, unknown>;
/** A real image registry for the worlds' registries: the questions asked of it are reads that must answer. */
let registry: TestRegistry;

beforeAll(async () => {
  registry = await startRegistry();
  await registry.push(`${WORLD_IMAGE.namespace}/${WORLD_IMAGE.name}`, WORLD_IMAGE.tag, { exposedPorts: ['8080/tcp'] });
  t = await createTestApp({ ...WORLD_CONFIG, adminToken: ADMIN_TOKEN, rateLimitPerSecond: 0 });
  doc = await readDocument(t);
  operations = operationsOf(doc);
  validate = bodyValidator(doc);
  a = await createWorld(t, t.key, 'alpha', { registryUrl: registry.url });
  bKey = (await t.newAccount('beta')).key;
  b = await createWorld(t, bKey, 'beta', { registryUrl: registry.url });
  readOnlyKey = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
  const revoked = (await t.post('/apikey', {})).body;
  expect((await t.del(`/apikey/${revoked.Id}`)).status).toBe(204);
  revokedKey = revoked.Key;
  accountKindKey = (await t.app.services.apiKeys.issue(t.store, t.accountId, 'account', ['FullAccess'])).Key;
  before = await snapshotOf(a, t.key);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await registry?.close();
});

/** GETs of the platform that write: `loadFreeCertificate` issues and installs a certificate. */
const GETS_THAT_WRITE = ['/pullzone/loadFreeCertificate'];
const isRead = (op: Operation) => !GETS_THAT_WRITE.includes(op.path);

/** A's view of everything it owns: every GET route without a required query, with A's ids. */
async function snapshotOf(world: World, key: string): Promise<Map<string, unknown>> {
  const views = new Map<string, unknown>();
  for (const op of operations.filter((o) => o.method === 'GET' && !o.operator && !o.mirror && !o.public && isRead(o))) {
    const url = urlOf(op, (p) => idFor(op, p, world));
    const res = await t.get(url, key);
    views.set(url, { status: res.status, body: res.body });
  }
  return views;
}

function idFor(op: Operation, param: { name: string; in: 'path' | 'query'; required: boolean; schema: Schema }, world: World): string | undefined {
  const resource = resourceOf(op, param);
  return resource === undefined ? undefined : String(world[resource]);
}

const namesAResource = (op: Operation) =>
  op.params.some((p) => {
    const resource = resourceOf(op, p);
    return (p.in === 'path' || p.required) && resource !== undefined && !SHARED.includes(resource);
  });

/** Bodies the domain needs beyond what their schema requires: the DNS check's `Name` is optional in its schema, yet must be a domain. */
const DOMAIN_BODIES: Record<string, () => unknown> = {
  checkDnsZoneAvailability: () => ({ Name: 'free.example' }),
};

/** A body that passes the route's validation, so the request reaches the ownership check. */
function validBody(op: Operation): unknown {
  if (!op.body) return undefined;
  const given = DOMAIN_BODIES[op.operationId];
  if (given) return given();
  if (op.body.contentType !== 'application/json') return sample(doc, op.body.schema);
  const body = sample(doc, op.body.schema);
  // The registry questions name a registry in their body: A's, which holds the image asked about.
  if (body !== null && typeof body === 'object' && 'registryId' in body) Object.assign(body, { registryId: String(a.registry) });
  const check = validate(op.body.schema);
  expect(check(structuredClone(body)), `${op.operationId}: the sample body ${JSON.stringify(body)} fails validation: ${JSON.stringify(check.errors)}`).toBe(
    true,
  );
  return body;
}

async function send(op: Operation, url: string, body: unknown, key: string | null, headers: Record<string, string> = {}): Promise<TestResponse> {
  const h = { ...headers };
  if (op.body && op.body.contentType !== 'application/json' && body !== undefined) h['content-type'] = op.body.contentType;
  return t.request(op.method as 'GET', url, body, key, h);
}

/**
 * What a link needs beside it to be read at all: a DNS record names a pull zone only as a
 * PullZone record (type 7), so a record holding a `PullZoneId` gets that type.
 */
function withContext(body: unknown, path: string[]): unknown {
  if (path[path.length - 1] !== 'PullZoneId') return body;
  let parent = body;
  for (const part of path.slice(0, -1)) parent = Array.isArray(parent) ? parent[0] : (parent as Record<string, unknown>)[part];
  if (parent !== null && typeof parent === 'object' && !('Type' in parent)) Object.assign(parent, { Type: 7, Name: 'linked' });
  return body;
}

const label = (op: Operation, url: string) => `${op.method} ${url} (${op.operationId}${op.mirror ? ', unprefixed' : ''})`;

describe('the account wall', () => {
  it('enumerates the routes from the app itself', () => {
    expect(operations.filter((o) => !o.mirror).length).toBeGreaterThanOrEqual(60);
    for (const op of operations.filter((o) => !o.operator)) {
      for (const p of op.params.filter((x) => x.in === 'path')) {
        expect(resourceOf(op, p), `${op.path}: which resource does {${p.name}} name? Extend resourceOf()`).toBeDefined();
      }
    }
  });

  it("answers another account's ids exactly as unknown ids: 404, on every route that names a resource", async () => {
    const checked: string[] = [];
    for (const op of operations.filter((o) => !o.operator && !o.public && namesAResource(o))) {
      const body = validBody(op);
      const foreign = urlOf(op, (p) => idFor(op, p, a));
      const unknown = urlOf(op, (p) => idFor(op, p, NOBODY));
      const res = await send(op, foreign, body, bKey);
      expectErrorBody(res, 404, foreign.split('?')[0]);
      const never = await send(op, unknown, body, bKey);
      expect({ status: never.status, detail: never.body.detail }, label(op, foreign)).toEqual({ status: res.status, detail: res.body.detail });
      if (op.method === 'GET') {
        const head = await t.request('HEAD', foreign, undefined, bKey);
        expect(head.status, `HEAD ${foreign}`).toBe(404);
      }
      checked.push(label(op, foreign));
    }
    expect(checked.length).toBeGreaterThanOrEqual(40);
  });

  it("refuses links to another account's resources in bodies: 404, or 400 naming the field", async () => {
    const checked: string[] = [];
    const violations: string[] = [];
    for (const op of operations.filter((o) => !o.operator && !o.public && o.body?.contentType === 'application/json' && !o.mirror)) {
      for (const link of linkFields(doc, op.body!.schema)) {
        const url = urlOf(op, (p) => idFor(op, p, b));
        const body = withContext(withValueAt(doc, op.body!.schema, validBody(op), link.path, linkValue(a, link.kind)), link.path);
        const what = `${label(op, url)} with ${fieldName(link.path)} = A's ${link.kind}`;
        const res = await send(op, url, body, bKey);
        checked.push(what);
        const fields = ((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field.toLowerCase());
        const refused = res.status === 404 || (res.status === 400 && fields.includes(fieldName(link.path).toLowerCase()));
        if (!refused) violations.push(`${what}: ${res.status} ${JSON.stringify(res.body?.errors ?? res.body).slice(0, 200)}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(5);
    expect(violations).toEqual([]);
  });
});

describe('authentication on every route', () => {
  const apiRoutes = () => operations.filter((o) => !o.operator && !o.public);

  it('answers 401 without a key, with a wrong key and with a revoked key', async () => {
    for (const op of apiRoutes()) {
      const url = urlOf(op, (p) => idFor(op, p, a));
      for (const key of [null, '', 'not-a-key', revokedKey]) {
        expectErrorBody(await send(op, url, validBody(op), key), 401, url.split('?')[0]);
      }
    }
  });

  it('declares on every operation whether it reads or writes; a GET always reads', () => {
    for (const op of apiRoutes()) {
      expect(op.access, `${op.method} ${op.path} (${op.operationId}): x-edgeplane-access`).toMatch(/^(read|write)$/);
      if (op.method === 'GET' && !GETS_THAT_WRITE.includes(op.path)) expect(op.access, `${op.method} ${op.path}`).toBe('read');
    }
    for (const path of GETS_THAT_WRITE) expect(apiRoutes().find((o) => o.method === 'GET' && o.path === path)?.access, path).toBe('write');
    // What a read-only key may call is decided by what an operation does, not by its method.
    const reads = apiRoutes().filter((o) => !isWrite(o) && o.method !== 'GET');
    expect(reads.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        'POST /dnszone/checkavailability',
        'POST /pullzone/checkavailability',
        'POST /storagezone/checkavailability',
        // Questions asked of an image registry: a POST each on the platform, and nothing changes.
        ...['images', 'tags', 'digest', 'image-config', 'config-suggestions', 'public-images/search'].flatMap((q) => [
          `POST /mc/registries/${q}`,
          `POST /registries/${q}`,
        ]),
      ].sort(),
    );
  });

  it('lets a read-only key call every read operation, whatever its method, and answers 403 to every write', async () => {
    const checked = { read: 0, write: 0 };
    for (const op of apiRoutes()) {
      const url = urlOf(op, (p) => idFor(op, p, a));
      const res = await send(op, url, validBody(op), readOnlyKey);
      if (isWrite(op)) {
        expectErrorBody(res, 403, url.split('?')[0]);
        expect(res.body.detail, label(op, url)).toMatch(/read-only/);
        checked.write++;
      } else {
        expect(res.status, `${label(op, url)}: ${JSON.stringify(res.body)}`).toBe(200);
        checked.read++;
      }
    }
    expect(checked.read).toBeGreaterThanOrEqual(30);
    expect(checked.write).toBeGreaterThanOrEqual(40);
  });

  it('changes nothing on an operation declared a read, even called with a full-access key', async () => {
    const start = await snapshotOf(a, t.key);
    for (const op of apiRoutes().filter((o) => !isWrite(o) && !o.mirror)) {
      const url = urlOf(op, (p) => idFor(op, p, a));
      expect((await send(op, url, validBody(op), t.key)).status, label(op, url)).toBe(200);
    }
    expect(await snapshotOf(a, t.key)).toEqual(start);
  });

  it('answers 403 to an account key on every container route, prefixed or not', async () => {
    const containerRoutes = apiRoutes().filter((o) => o.container || o.mirror);
    expect(containerRoutes.length).toBeGreaterThanOrEqual(20);
    for (const op of containerRoutes) {
      const url = urlOf(op, (p) => idFor(op, p, a));
      expectErrorBody(await send(op, url, validBody(op), accountKindKey), 403, url.split('?')[0]);
    }
    for (const op of apiRoutes().filter((o) => !o.container && !o.mirror && o.method === 'GET' && isRead(o))) {
      const url = urlOf(op, (p) => idFor(op, p, a));
      expect((await send(op, url, undefined, accountKindKey)).status, label(op, url)).toBe(200);
    }
  });

  it('guards operator routes with the operator token: 401 without it, with a wrong one, or with an API key', async () => {
    const operatorRoutes = operations.filter((o) => o.operator && !o.public);
    expect(operatorRoutes.length).toBeGreaterThanOrEqual(5);
    for (const op of operatorRoutes) {
      const url = urlOf(op, () => '1');
      const body = validBody(op);
      expectErrorBody(await send(op, url, body, null), 401, url.split('?')[0]);
      expectErrorBody(await send(op, url, body, null, { authorization: 'Bearer wrong-token-wrong-token' }), 401);
      expectErrorBody(await send(op, url, body, null, { authorization: ADMIN_TOKEN }), 401);
      expectErrorBody(await send(op, url, body, t.key), 401);
    }
  });
});

describe('afterwards', () => {
  it("leaves every one of the first account's resources as it was", async () => {
    const after = await snapshotOf(a, t.key);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [url, view] of before) expect(after.get(url), url).toEqual(view);
    for (const [, view] of before) expect((view as { status: number }).status).toBe(200);
  });
});
