import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultRules } from '../../../src/schemas/faults.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

const validRules = new Ajv({ strict: false, allErrors: true }).compile(FaultRules);

const TOKEN = 'operator-token-0123456789';
let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: TOKEN });
});
afterEach(async () => {
  await t.close();
});

const op = (method: 'GET' | 'PUT' | 'DELETE', body?: unknown, token: string | null = TOKEN) =>
  t.request(method, '/_edgeplane/faults', body, null, token === null ? {} : { authorization: `Bearer ${token}` });
const setRules = async (rules: unknown[]) => {
  const res = await op('PUT', { rules });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
};
const newZone = async (name = 'zone-1') => (await t.post('/pullzone', { Name: name, OriginUrl: 'https://origin.example' })).body;

describe('PUT, GET and DELETE /_edgeplane/faults', () => {
  it('replaces the rules, reads them back with defaults applied, and clears them', async () => {
    expect((await op('GET')).body).toEqual({ rules: [] });
    const rules = [
      { method: 'GET', path: '/pullzone/:id', status: 503, probability: 0.5 },
      { path: '/storagezone', status: 429, retryAfterSeconds: 30 },
      { path: '/mc/*', latencyMs: 10 },
    ];
    const put = await setRules(rules);
    const expected = { rules: [rules[0], { ...rules[1], probability: 1 }, { ...rules[2], probability: 1 }] };
    expect(put.body).toEqual(expected);
    expect(validRules(put.body), JSON.stringify(validRules.errors)).toBe(true);
    expect((await op('GET')).body).toEqual(expected);

    const del = await op('DELETE');
    expect(del.status).toBe(204);
    expect(del.body).toBe('');
    expect((await op('GET')).body).toEqual({ rules: [] });
  });

  it('starts with the rules of EDGEPLANE_FAULTS', async () => {
    const configured = await createTestApp({ adminToken: TOKEN, faults: { rules: [{ path: '/apikey', status: 500 }] } });
    try {
      const res = await configured.request('GET', '/_edgeplane/faults', undefined, null, { authorization: `Bearer ${TOKEN}` });
      expect(res.body).toEqual({ rules: [{ path: '/apikey', status: 500, probability: 1 }] });
      expectErrorBody(await configured.get('/apikey'), 500, '/apikey');
    } finally {
      await configured.close();
    }
  });

  it('rejects a bad rule naming the field, and keeps the rules in force', async () => {
    await setRules([{ path: '/apikey', latencyMs: 0 }]);
    const cases: [unknown, string][] = [
      [{ path: '/x', status: 404 }, 'rules[0].status'],
      [{ path: '/x', status: 503, retryAfterSeconds: -1 }, 'rules[0].retryAfterSeconds'],
      [{ path: '/x', latencyMs: 60001 }, 'rules[0].latencyMs'],
      [{ path: '/x', latencyMs: -1 }, 'rules[0].latencyMs'],
      [{ path: '/x', status: 500, probability: 1.01 }, 'rules[0].probability'],
      [{ path: '/x', status: 500, probability: -0.1 }, 'rules[0].probability'],
      [{ status: 500 }, 'rules[0].path'],
      [{ path: 'pullzone', status: 500 }, 'rules[0].path'],
      [{ path: '/x', method: 'GET /', status: 500 }, 'rules[0].method'],
      [{ path: '/x' }, 'rules[0]'],
      [{ path: '/x', latencyMs: 5, retryAfterSeconds: 3 }, 'rules[0].retryAfterSeconds'],
    ];
    for (const [rule, field] of cases) {
      const res = await op('PUT', { rules: [rule] });
      expectErrorBody(res, 400, '/_edgeplane/faults');
      expect(errorFields(res), JSON.stringify(rule)).toEqual([field]);
    }
    expect((await op('GET')).body.rules).toEqual([{ path: '/apikey', latencyMs: 0, probability: 1 }]);
  });

  it('accepts the bounds', async () => {
    const rules = [
      { path: '*', status: 429, retryAfterSeconds: 0, latencyMs: 0, probability: 0 },
      { path: '/', status: 500, retryAfterSeconds: 86400, latencyMs: 60000, probability: 1 },
    ];
    expect((await setRules(rules)).body.rules).toEqual(rules);
    expect(errorFields(await op('PUT', {}))).toEqual(['rules']);
    expect(errorFields(await op('PUT', { rules: 'all' }))).toEqual(['rules']);
  });

  it('needs the operator credential', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expectErrorBody(await op(method, method === 'PUT' ? { rules: [] } : undefined, null), 401);
      expectErrorBody(await op(method, method === 'PUT' ? { rules: [] } : undefined, 'wrong-token-0123456789'), 401);
      expectErrorBody(await t.request(method, '/_edgeplane/faults', method === 'PUT' ? { rules: [] } : undefined, t.key), 401);
    }
    const bare = await createTestApp();
    try {
      expectErrorBody(await bare.request('GET', '/_edgeplane/faults', undefined, null, { authorization: `Bearer ${TOKEN}` }), 404);
    } finally {
      await bare.close();
    }
  });
});

describe('injected faults', () => {
  it("answers a matching request with the status in the platform's error body", async () => {
    const zone = await newZone();
    await setRules([{ path: '/pullzone/:id', status: 503 }]);
    const res = await t.get(`/pullzone/${zone.Id}`);
    expectErrorBody(res, 503, `/pullzone/${zone.Id}`);
    expect(res.body).toMatchObject({ title: 'Service Unavailable', ErrorKey: 'unavailable', Field: '', errors: [] });
    expect(res.body.id).toBe(res.headers['x-request-id']);
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('sends Retry-After with a 429, 1 second unless the rule says otherwise', async () => {
    await setRules([
      { path: '/apikey', status: 429 },
      { path: '/storagezone', status: 429, retryAfterSeconds: 42 },
    ]);
    let res = await t.get('/apikey');
    expectErrorBody(res, 429, '/apikey');
    expect(res.body).toMatchObject({ title: 'Too Many Requests', ErrorKey: 'rate_limited' });
    expect(res.headers['retry-after']).toBe('1');
    res = await t.get('/storagezone');
    expectErrorBody(res, 429);
    expect(res.headers['retry-after']).toBe('42');
  });

  it("uses the container API's plain problem body on /mc routes", async () => {
    await setRules([{ path: '/mc/*', status: 500 }]);
    const res = await t.get('/mc/apps');
    expectErrorBody(res, 500, '/mc/apps');
    expect(res.body.ErrorKey).toBeUndefined();
  });

  it('fires before authentication', async () => {
    await setRules([{ path: '/apikey', status: 503 }]);
    expectErrorBody(await t.get('/apikey', null), 503);
    expectErrorBody(await t.get('/apikey', 'not-a-key'), 503);
  });

  it('adds latency and then serves the request', async () => {
    await setRules([{ path: '/apikey', latencyMs: 150 }]);
    const started = performance.now();
    const res = await t.get('/apikey');
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    expect(res.status).toBe(200);
  });

  it('never fires at probability 0 and always at probability 1', async () => {
    await setRules([{ path: '/apikey', status: 500, probability: 0 }]);
    for (let i = 0; i < 20; i++) expect((await t.get('/apikey')).status).toBe(200);
    await setRules([{ path: '/apikey', status: 500, probability: 1 }]);
    for (let i = 0; i < 20; i++) expect((await t.get('/apikey')).status).toBe(500);
  });

  it('leaves other routes, methods and ids alone', async () => {
    const a = await newZone('zone-a');
    const b = await newZone('zone-b');
    await setRules([{ path: '/pullzone/:zoneId', method: 'get', status: 503 }]);
    expect((await t.get('/pullzone')).status).toBe(200);
    expect((await t.get('/storagezone')).status).toBe(200);
    expect((await t.post(`/pullzone/${a.Id}`, { OriginUrl: 'https://other.example' })).status).toBe(200);
    expectErrorBody(await t.get(`/pullzone/${a.Id}`), 503);

    await setRules([{ path: `/pullzone/${a.Id}`, status: 503 }]);
    expectErrorBody(await t.get(`/pullzone/${a.Id}`), 503);
    expect((await t.get(`/pullzone/${b.Id}`)).status).toBe(200);

    await setRules([{ path: '/PullZone/*', status: 503 }]);
    expectErrorBody(await t.get(`/pullzone/${b.Id}`), 503);
    expect((await t.get('/pullzone')).status).toBe(200);
  });

  it('tries rules in order and applies the first that fires', async () => {
    await setRules([
      { path: '/apikey', status: 500, probability: 0 },
      { path: '*', status: 429 },
      { path: '/apikey', status: 503 },
    ]);
    expectErrorBody(await t.get('/apikey'), 429);
  });

  it('never touches the operator routes, so a catch-all rule can be removed', async () => {
    await setRules([{ path: '*', status: 503 }]);
    expectErrorBody(await t.get('/apikey'), 503);
    expect((await op('GET')).status).toBe(200);
    expect((await t.get('/_edgeplane/health', null)).status).toBe(200);
    expect((await op('DELETE')).status).toBe(204);
    expect((await t.get('/apikey')).status).toBe(200);
  });

  it('writes nothing for a faulted request', async () => {
    await setRules([{ method: 'POST', path: '/pullzone', status: 500 }]);
    expectErrorBody(await t.post('/pullzone', { Name: 'never-made', OriginUrl: 'https://origin.example' }), 500);
    await op('DELETE');
    expect((await t.get('/pullzone')).body).toEqual([]);
    const created = await t.post('/pullzone', { Name: 'never-made', OriginUrl: 'https://origin.example' });
    expect(created.status).toBe(201);
    expect(created.body.Id).toBe(1);
  });
});
