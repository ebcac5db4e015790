import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS, requestFingerprint } from '../../src/planes/api/plugins/idempotency.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const withKey = (method: 'POST' | 'PUT', url: string, body: unknown, idempotencyKey: string, key?: string) =>
  t.request(method, url, body, key, { 'idempotency-key': idempotencyKey });
const zones = async (key = t.key) => (await t.get('/storagezone', key)).body as { Id: number; Password: string }[];

describe('Idempotency-Key', () => {
  it('replays the first response to a retry, status and body, without creating a second resource', async () => {
    const first = await withKey('POST', '/storagezone', { Name: 'once', Region: 'DE' }, 'create-once');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same request, its properties in another order.
    const retry = await withKey('POST', '/storagezone', { Region: 'DE', Name: 'once' }, 'create-once');
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(String(retry.headers['content-type'])).toMatch(/^application\/json/);
    expect((await zones()).map((z) => z.Id)).toEqual([first.body.Id]);
  });

  it('refuses the same key with a different request: 422, naming the header', async () => {
    expect((await withKey('POST', '/storagezone', { Name: 'first', Region: 'DE' }, 'k-1')).status).toBe(201);
    const changed = await withKey('POST', '/storagezone', { Name: 'second', Region: 'DE' }, 'k-1');
    expectErrorBody(changed, 422, '/storagezone');
    expect(errorFields(changed)).toEqual(['Idempotency-Key']);
    const elsewhere = await withKey('POST', '/apikey', {}, 'k-1');
    expectErrorBody(elsewhere, 422, '/apikey');
    expect(await zones()).toHaveLength(1);
  });

  it('keeps keys per account', async () => {
    const other = await t.newAccount();
    const mine = await withKey('POST', '/storagezone', { Name: 'mine', Region: 'DE' }, 'shared-key');
    const theirs = await withKey('POST', '/storagezone', { Name: 'theirs', Region: 'DE' }, 'shared-key', other.key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.Id).not.toBe(mine.body.Id);
    expect(await zones(other.key)).toHaveLength(1);
  });

  it('replays a 204 without doing the work again', async () => {
    const zone = (await t.post('/storagezone', { Name: 'reset', Region: 'DE' })).body;
    expect((await withKey('POST', `/storagezone/${zone.Id}/resetPassword`, undefined, 'reset-1')).status).toBe(204);
    const afterFirst = (await zones())[0]!.Password;
    expect(afterFirst).not.toBe(zone.Password);
    const retry = await withKey('POST', `/storagezone/${zone.Id}/resetPassword`, undefined, 'reset-1');
    expect(retry.status).toBe(204);
    expect(retry.body).toBe('');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await zones())[0]!.Password).toBe(afterFirst);
  });

  it('works on PUT, and replays a created API key (its value kept sealed)', async () => {
    const dns = (await t.post('/dnszone', { Domain: 'idem.example' })).body;
    const record = { Type: 0, Name: 'www', Value: '192.0.2.1', Ttl: 300 };
    const first = await withKey('PUT', `/dnszone/${dns.Id}/records`, record, 'record-1');
    expect(first.status).toBe(201);
    expect((await withKey('PUT', `/dnszone/${dns.Id}/records`, record, 'record-1')).body).toEqual(first.body);
    expect((await t.get(`/dnszone/${dns.Id}`)).body.Records).toHaveLength(1);

    const key = await withKey('POST', '/apikey', { Roles: ['ReadOnly'] }, 'key-1');
    expect((await withKey('POST', '/apikey', { Roles: ['ReadOnly'] }, 'key-1')).body).toEqual(key.body);
    expect((await t.get('/apikey')).body.TotalItems).toBe(2);
  });

  it('remembers nothing for a failed request: the retry runs, and may change its body', async () => {
    expectErrorBody(await withKey('POST', '/storagezone', { Name: 'bad', Region: 'XX' }, 'fix-me'), 400);
    expectErrorBody(await withKey('POST', '/storagezone/999999/resetPassword', undefined, 'fix-me'), 404);
    const fixed = await withKey('POST', '/storagezone', { Name: 'good', Region: 'DE' }, 'fix-me');
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('answers 409 while the first request is in flight, and runs the request once that claim is abandoned', async () => {
    const body = { Name: 'busy', Region: 'DE' };
    // A claim without a response is what a request still running (or one whose process died) leaves.
    const claimed = await t.store.idempotency.claim({
      accountId: t.accountId,
      key: 'busy',
      fingerprint: requestFingerprint('POST', '/storagezone', body),
      now: t.clock.read().getTime(),
      completedBefore: 0,
      inFlightBefore: 0,
    });
    expect(claimed).toBe(true);
    const conflict = await withKey('POST', '/storagezone', body, 'busy');
    expectErrorBody(conflict, 409, '/storagezone');
    expect(await zones()).toHaveLength(0);
    // Another body is refused as a different request even while the first is in flight.
    expectErrorBody(await withKey('POST', '/storagezone', { ...body, Region: 'NY' }, 'busy'), 422);

    t.clock.advance(IN_FLIGHT_LEASE_MS - 1);
    expectErrorBody(await withKey('POST', '/storagezone', body, 'busy'), 409);
    t.clock.advance(1);
    const ran = await withKey('POST', '/storagezone', body, 'busy');
    expect(ran.status).toBe(201);
    expect(ran.headers['idempotent-replayed']).toBeUndefined();
    expect((await withKey('POST', '/storagezone', body, 'busy')).headers['idempotent-replayed']).toBe('true');
  });

  it('forgets a key after 24 hours', async () => {
    const first = await withKey('POST', '/apikey', {}, 'daily');
    t.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expect((await withKey('POST', '/apikey', {}, 'daily')).body.Id).toBe(first.body.Id);
    t.clock.advance(1);
    const later = await withKey('POST', '/apikey', {}, 'daily');
    expect(later.status).toBe(201);
    expect(later.body.Id).not.toBe(first.body.Id);
  });

  it('survives a restart', async () => {
    const first = await withKey('POST', '/storagezone', { Name: 'durable', Region: 'DE' }, 'durable-1');
    await t.restart();
    const retry = await withKey('POST', '/storagezone', { Name: 'durable', Region: 'DE' }, 'durable-1');
    expect(retry.body).toEqual(first.body);
    expect(await zones()).toHaveLength(1);
  });

  it('refuses a malformed key with 400, and leaves reads and unauthorized requests alone', async () => {
    for (const bad of ['x'.repeat(256), 'has space', 'ünï']) {
      const res = await t.request('POST', '/storagezone', { Name: 'n', Region: 'DE' }, undefined, { 'idempotency-key': bad });
      expectErrorBody(res, 400, '/storagezone');
      expect(errorFields(res)).toEqual(['Idempotency-Key']);
    }
    expect((await t.request('GET', '/storagezone', undefined, undefined, { 'idempotency-key': 'read' })).status).toBe(200);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    expectErrorBody(await withKey('POST', '/storagezone', { Name: 'ro', Region: 'DE' }, 'ro-1', readOnly), 403);
    expect(await t.store.idempotency.find(t.accountId, 'ro-1')).toBeUndefined();
    expect(await zones()).toHaveLength(0);
  });
});
