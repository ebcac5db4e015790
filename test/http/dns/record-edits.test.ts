import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DnsRecord } from '../../../src/schemas/dns.js';
import { Paged } from '../../../src/schemas/paging.js';
import type { StoreTx } from '../../../src/store/types.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validPage = ajv.compile(Paged(DnsRecord));

let t: TestContext;
let zoneId: number;
beforeEach(async () => {
  t = await createTestApp();
  zoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id;
});
afterEach(async () => {
  await t.close();
});

const records = () => `/dnszone/${zoneId}/records`;
const add = async (body: Record<string, unknown>) => {
  const res = await t.put(records(), body);
  expect(res.status).toBe(201);
  return res.body as { Id: number } & Record<string, unknown>;
};
const storedRecords = async () => (await t.get(`/dnszone/${zoneId}`)).body.Records as ({ Id: number } & Record<string, unknown>)[];

describe('GET /dnszone/{zoneId}/records', () => {
  it("answers the page object of the zone's records, in the order they were added", async () => {
    const a = await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    const b = await add({ Type: 4, Name: '', Value: 'mail.example.com', Priority: 10 });
    const res = await t.get(records());
    expect(res.status).toBe(200);
    if (!validPage(res.body)) throw new Error(ajv.errorsText(validPage.errors));
    expect(res.body).toEqual({ Items: [a, b], CurrentPage: 1, TotalItems: 2, HasMoreItems: false });
    expect(res.body.Items).toEqual(await storedRecords());
  });

  it('pages, filters by type and searches names and values', async () => {
    for (let i = 0; i < 6; i++) await add({ Type: 0, Name: `host${i}`, Value: `192.0.2.${i + 1}` });
    await add({ Type: 3, Name: 'Text', Value: 'v=spf1 -all' });
    const second = await t.get(`${records()}?page=2&perPage=5`);
    expect(second.body).toMatchObject({ CurrentPage: 2, TotalItems: 7, HasMoreItems: false });
    expect(second.body.Items.map((r: { Name: string }) => r.Name)).toEqual(['host5', 'Text']);
    expect((await t.get(`${records()}?perPage=5`)).body.HasMoreItems).toBe(true);
    expect((await t.get(`${records()}?type=3`)).body.Items.map((r: { Name: string }) => r.Name)).toEqual(['Text']);
    expect((await t.get(`${records()}?search=TEXT`)).body.TotalItems).toBe(1);
    expect((await t.get(`${records()}?search=192.0.2.3`)).body.Items.map((r: { Name: string }) => r.Name)).toEqual(['host2']);
    expect((await t.get(`${records()}?type=0&search=spf`)).body).toEqual({ Items: [], CurrentPage: 1, TotalItems: 0, HasMoreItems: false });
  });

  it.each([
    ['page=0', 'page'],
    ['perPage=4', 'perPage'],
    ['perPage=1001', 'perPage'],
    ['type=16', 'type'],
    ['type=A', 'type'],
  ])('rejects %s naming the parameter', async (query, field) => {
    const res = await t.get(`${records()}?${query}`);
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual([field]);
  });

  it("answers 404 for an unknown zone and for another account's", async () => {
    expectErrorBody(await t.get('/dnszone/999999/records'), 404, '/dnszone/999999/records');
    const other = await t.newAccount();
    expectErrorBody(await t.get(records(), other.key), 404);
  });
});

describe('POST /dnszone/{zoneId}/records/{id}', () => {
  it("changes only the fields sent (204) and keeps the record's place and id", async () => {
    const first = await add({ Type: 0, Name: 'www', Value: '192.0.2.1', Comment: 'web', Ttl: 60 });
    const second = await add({ Type: 0, Name: 'api', Value: '192.0.2.2' });
    t.clock.advance(1000);
    const res = await t.post(`${records()}/${first.Id}`, { Value: '192.0.2.10', comment: 'new web', Ttl: null });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const [updated, untouched] = await storedRecords();
    expect(updated).toEqual({ ...first, Value: '192.0.2.10', Comment: 'new web' });
    expect(untouched).toEqual(second);
    expect((await t.get(`/dnszone/${zoneId}`)).body.DateModified).toBe('2026-01-01T00:00:01.000Z');
  });

  it('re-runs the checks of the record type on the merged record', async () => {
    const record = await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    const url = `${records()}/${record.Id}`;
    // An A record's address is not a valid MX target: the type alone cannot change.
    const toMx = await t.post(url, { Type: 4, Priority: 5 });
    expectErrorBody(toMx, 400, url);
    expect(errorFields(toMx)).toEqual(['Value']);
    expect(errorFields(await t.post(url, { Value: '2001:db8::1' }))).toEqual(['Value']);
    expect(errorFields(await t.post(url, { Type: 7 }))).toEqual(['PullZoneId']);
    expect(errorFields(await t.post(url, { Type: 7, PullZoneId: 987654 }))).toEqual(['PullZoneId']);
    expect(errorFields(await t.post(url, { Name: 'bad name' }))).toEqual(['Name']);
    expect(errorFields(await t.post(url, { Priority: 70000, Type: 16 }))).toEqual(['Type', 'Priority']);
    expect(await storedRecords()).toEqual([record]);

    expect((await t.post(url, { Type: 4, Priority: 5, Value: 'mail.example.com' })).status).toBe(204);
    expect((await storedRecords())[0]).toMatchObject({ Id: record.Id, Type: 4, Priority: 5, Value: 'mail.example.com', Name: 'www' });
  });

  it("accepts the record's own Id in the body and refuses another", async () => {
    const record = await add({ Type: 0, Value: '192.0.2.1' });
    expect((await t.post(`${records()}/${record.Id}`, { Id: record.Id, Ttl: 120 })).status).toBe(204);
    const res = await t.post(`${records()}/${record.Id}`, { Id: record.Id + 1, Ttl: 60 });
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['Id']);
    expect((await storedRecords())[0]!.Ttl).toBe(120);
  });

  it("answers 404 for an unknown record, an unknown zone and another account's zone", async () => {
    const record = await add({ Type: 0, Value: '192.0.2.1' });
    expectErrorBody(await t.post(`${records()}/999999`, { Ttl: 60 }), 404, `${records()}/999999`);
    expectErrorBody(await t.post(`/dnszone/999999/records/${record.Id}`, { Ttl: 60 }), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.post(`${records()}/${record.Id}`, { Ttl: 60 }, other.key), 404);
    // A record id of another zone of the same account is not found in this one.
    const otherZone = (await t.post('/dnszone', { Domain: 'example.org' })).body.Id;
    expectErrorBody(await t.post(`/dnszone/${otherZone}/records/${record.Id}`, { Ttl: 60 }), 404);
    expect((await storedRecords())[0]!.Ttl).toBe(300);
  });
});

describe('DELETE /dnszone/{zoneId}/records/{id}', () => {
  it('deletes the record (204) and a second delete is 404', async () => {
    const gone = await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    const kept = await add({ Type: 0, Name: 'api', Value: '192.0.2.2' });
    const res = await t.del(`${records()}/${gone.Id}`);
    expect(res.status).toBe(204);
    expect(await storedRecords()).toEqual([kept]);
    expectErrorBody(await t.del(`${records()}/${gone.Id}`), 404, `${records()}/${gone.Id}`);
  });

  it("answers 404 for an unknown zone and for another account's, whose record survives", async () => {
    const record = await add({ Type: 0, Value: '192.0.2.1' });
    expectErrorBody(await t.del(`/dnszone/999999/records/${record.Id}`), 404);
    expectErrorBody(await t.del(`${records()}/${record.Id}`, undefined, (await t.newAccount()).key), 404);
    expect(await storedRecords()).toEqual([record]);
    expect(errorFields(await t.del(`${records()}/0`))).toEqual(['id']);
  });
});

describe('record writes and other writers', () => {
  /**
   * Makes the next `losses` versioned writes fail as if another request had written first;
   * answers a function that puts the store back.
   */
  function loseRaces(losses: number): () => void {
    const original = t.store.transaction;
    const transaction = original.bind(t.store);
    let left = losses;
    t.store.transaction = <T>(work: (tx: StoreTx) => Promise<T>) =>
      transaction((tx) => {
        const docs = new Proxy(tx.docs, {
          get(target, property) {
            if (property === 'update' && left > 0) return async () => (left--, false);
            const value = Reflect.get(target, property) as unknown;
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
        return work(new Proxy(tx, { get: (target, property) => (property === 'docs' ? docs : Reflect.get(target, property)) }));
      });
    return () => {
      t.store.transaction = original;
    };
  }

  it('retry a write that lost a race on a fresh read, so the client sees no conflict', async () => {
    await add({ Type: 0, Name: 'first', Value: '192.0.2.1' });
    const restore = loseRaces(3);
    const res = await t.put(records(), { Type: 0, Name: 'second', Value: '192.0.2.2' });
    restore();
    expect(res.status).toBe(201);
    expect((await storedRecords()).map((r) => r.Name)).toEqual(['first', 'second']);
    const ids = (await storedRecords()).map((r) => r.Id);
    expect(ids[1]).toBe(res.body.Id);
  });

  it('answer 409 only when the zone keeps changing under them, and write nothing', async () => {
    const record = await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    const restore = loseRaces(100);
    const res = await t.post(`${records()}/${record.Id}`, { Ttl: 60 });
    restore();
    expectErrorBody(res, 409);
    expect(res.body.ErrorKey).toBe('concurrent_update');
    expect(await storedRecords()).toEqual([record]);
  });

  it('add every record when many are added at once', async () => {
    await add({ Type: 0, Name: 'first', Value: '192.0.2.100' });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t.put(records(), { Type: 0, Name: `h${i}`, Value: `192.0.2.${i + 1}` })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect((await storedRecords()).map((r) => r.Name).sort()).toEqual(['first', ...Array.from({ length: 10 }, (_, i) => `h${i}`)].sort());
  });
});

describe('deleting a pull zone', () => {
  it("removes the account's PullZone records pointing at it, in every zone, and nothing else", async () => {
    const pullZone = async (name: string) => {
      const res = await t.post('/pullzone', { Name: name, OriginUrl: 'https://origin.example' });
      expect(res.status).toBe(201);
      return res.body.Id as number;
    };
    const doomed = await pullZone('doomed-zone');
    const kept = await pullZone('kept-zone');
    const cdn = await add({ Type: 7, Name: 'cdn', PullZoneId: doomed });
    const other = await add({ Type: 7, Name: 'static', PullZoneId: kept });
    const plain = await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    const secondZone = (await t.post('/dnszone', { Domain: 'example.org', Records: [{ Type: 7, Name: 'cdn', PullZoneId: doomed }] })).body;
    expect(secondZone.Records).toHaveLength(1);
    t.clock.advance(1000);

    expect((await t.del(`/pullzone/${doomed}`)).status).toBe(204);

    expect(await storedRecords()).toEqual([other, plain]);
    expect(cdn.LinkName).toBe(String(doomed));
    const second = (await t.get(`/dnszone/${secondZone.Id}`)).body;
    expect(second.Records).toEqual([]);
    expect(second.DateModified).toBe('2026-01-01T00:00:01.000Z');
  });
});
