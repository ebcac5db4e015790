import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../../src/planes/api/plugins/input-limits.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** `levels` nested arrays: [[[…]]]. */
const nestedArrays = (levels: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
};
const zoneCount = async () => (await t.store.docs.list('storageZone', t.accountId, { offset: 0, limit: 10 })).total;

// Unknown fields are dropped after validation, so `Extra` carries the shape under test to a
// create that would otherwise succeed: whatever refuses it is the limit, not the schema.
describe('input limits on JSON bodies', () => {
  it('accepts a body nested exactly 32 levels deep and refuses 33 with 400 naming the place', async () => {
    const ok = await t.post('/storagezone', { Name: 'deep-ok', Region: 'DE', Extra: nestedArrays(INPUT_LIMITS.maxDepth - 1) });
    expect(ok.status).toBe(201);
    const deep = await t.post('/storagezone', { Name: 'deep-no', Region: 'DE', Extra: nestedArrays(INPUT_LIMITS.maxDepth) });
    expectErrorBody(deep, 400, '/storagezone');
    expect(errorFields(deep)).toEqual([`Extra${'[0]'.repeat(INPUT_LIMITS.maxDepth - 1)}`]);
    expect(deep.body.ErrorKey).toBe('input_limit');
    expect(await zoneCount()).toBe(1);
  });

  it('limits arrays to 10,000 items', async () => {
    expect((await t.post('/storagezone', { Name: 'items-ok', Region: 'DE', Extra: new Array(10_000).fill(0) })).status).toBe(201);
    const long = await t.post('/storagezone', { Name: 'items-no', Region: 'DE', Extra: new Array(10_001).fill(0) });
    expectErrorBody(long, 400, '/storagezone');
    expect(errorFields(long)).toEqual(['Extra']);
  });

  it('limits strings and property names to 65,536 characters', async () => {
    expect((await t.post('/storagezone', { Name: 'string-ok', Region: 'DE', Extra: 'x'.repeat(65_536) })).status).toBe(201);
    const long = await t.post('/storagezone', { Name: 'string-no', Region: 'DE', Extra: ['x'.repeat(65_537)] });
    expectErrorBody(long, 400, '/storagezone');
    expect(errorFields(long)).toEqual(['Extra[0]']);
    const longName = await t.post('/storagezone', { Name: 'key-no', Region: 'DE', ['k'.repeat(65_537)]: 1 });
    expectErrorBody(longName, 400, '/storagezone');
    expect(errorFields(longName)).toEqual(['body']);
  });

  it('answers a hostile body of 500,000 nested arrays with 400, not a crash', async () => {
    const hostile = '['.repeat(500_000) + ']'.repeat(500_000);
    const res = await t.request('PUT', '/mc/apps/x', hostile);
    expectErrorBody(res, 400, '/mc/apps/x');
    const objects = `${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}`;
    expectErrorBody(await t.request('POST', '/pullzone', objects), 400, '/pullzone');
    expect((await t.get('/apikey')).status).toBe(200);
  });

  it('checks the container API bodies too (plain problem details there)', async () => {
    const res = await t.post('/mc/apps', { name: 'app', extra: nestedArrays(40) });
    expectErrorBody(res, 400, '/mc/apps');
    expect(res.body.ErrorKey).toBeUndefined();
    expect(errorFields(res)[0]).toMatch(/^extra(\[0\])+$/);
  });

  it('answers malformed URLs with the part 7 body too', async () => {
    const badEncoding = await t.get('/pullzone/%C0%AE');
    expectErrorBody(badEncoding, 400, '/pullzone/%C0%AE');
    expect(badEncoding.body.ErrorKey).toBe('bad_url');
    const longSegment = `/pullzone/${'9'.repeat(101)}`;
    expectErrorBody(await t.get(longSegment), 414, longSegment);
  });

  it('refuses prototype keys in bodies', async () => {
    expectErrorBody(await t.request('POST', '/storagezone', '{"Name":"proto","Region":"DE","__proto__":{"admin":true}}'), 400, '/storagezone');
    expect(await zoneCount()).toBe(0);
  });
});
