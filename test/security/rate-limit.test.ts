import { afterEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, expectErrorBody, type TestContext, type TestResponse } from '../helpers/app.js';

let t: TestContext;
afterEach(async () => {
  await t?.close();
});

/** A request from a chosen client address (inject's default is 127.0.0.1). */
async function from(address: string, key: string | null, url = '/apikey'): Promise<TestResponse> {
  const options: InjectOptions = { method: 'GET', url, remoteAddress: address, headers: key === null ? {} : { accesskey: key } };
  const res = await t.app.inject(options);
  return { status: res.statusCode, body: JSON.parse(res.body || 'null'), headers: res.headers };
}

describe('per-key rate limit', () => {
  it('answers 429 with Retry-After and the error body once a key has spent its burst, and recovers', async () => {
    t = await createTestApp({ rateLimitPerSecond: 5 });
    for (let i = 0; i < 10; i++) expect((await t.get('/apikey')).status, `request ${i}`).toBe(200);
    const limited = await t.get('/apikey');
    expectErrorBody(limited, 429, '/apikey');
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body.ErrorKey).toBe('rate_limited');

    // Writes count too, and a limited write changes nothing.
    const limitedWrite = await t.post('/storagezone', { Name: 'limited', Region: 'DE' });
    expectErrorBody(limitedWrite, 429, '/storagezone');
    t.clock.advance(1_000);
    expect((await t.get('/storagezone')).body).toEqual([]);
    for (let i = 0; i < 4; i++) expect((await t.get('/apikey')).status).toBe(200);
    expect((await t.get('/apikey')).status).toBe(429);
  });

  it('gives each key its own bucket, including keys of one account', async () => {
    t = await createTestApp({ rateLimitPerSecond: 1 });
    // The burst is twice the rate: two requests, then the third is refused.
    const second = (await t.post('/apikey', {})).body.Key as string;
    expect((await t.get('/apikey')).status).toBe(200);
    expect((await t.get('/apikey')).status).toBe(429);
    const other = await t.newAccount();
    expect((await t.get('/apikey', second)).status).toBe(200);
    expect((await t.get('/apikey', other.key)).status).toBe(200);
    expect((await t.get('/apikey', other.key)).status).toBe(200);
    expect((await t.get('/apikey', other.key)).status).toBe(429);
  });

  it('applies to the container API as well', async () => {
    t = await createTestApp({ rateLimitPerSecond: 1 });
    expect((await t.get('/mc/apps')).status).toBe(200);
    expect((await t.get('/mc/apps')).status).toBe(200);
    const limited = await t.get('/mc/apps');
    expectErrorBody(limited, 429, '/mc/apps');
    expect(limited.headers['retry-after']).toBe('1');
  });

  it('is off at 0', async () => {
    t = await createTestApp({ rateLimitPerSecond: 0 });
    for (let i = 0; i < 500; i++) expect((await t.get('/apikey')).status).toBe(200);
  });
});

describe('failed authentication from one address', () => {
  it('refuses an address after too many distinct wrong keys, whatever it sends, until the minute ends', async () => {
    t = await createTestApp({ authFailureLimit: 3 });
    for (const guess of ['guess-1', 'guess-2', 'guess-3']) expectErrorBody(await from('203.0.113.7', guess), 401);
    const refused = await from('203.0.113.7', 'guess-4');
    expectErrorBody(refused, 429, '/apikey');
    expect(refused.headers['retry-after']).toBe('60');
    // A valid key from that address is refused too: the answer must not tell a right guess apart.
    expectErrorBody(await from('203.0.113.7', t.key), 429);
    // Other addresses are not affected.
    expect((await from('198.51.100.1', t.key)).status).toBe(200);
    expectErrorBody(await from('198.51.100.1', 'guess-1'), 401);

    t.clock.advance(59_000);
    expect((await from('203.0.113.7', t.key)).headers['retry-after']).toBe('1');
    t.clock.advance(1_000);
    expect((await from('203.0.113.7', t.key)).status).toBe(200);
  });

  it('does not let a success reset the count', async () => {
    t = await createTestApp({ authFailureLimit: 3 });
    expectErrorBody(await from('203.0.113.8', 'guess-1'), 401);
    expectErrorBody(await from('203.0.113.8', 'guess-2'), 401);
    expect((await from('203.0.113.8', t.key)).status).toBe(200);
    expectErrorBody(await from('203.0.113.8', 'guess-3'), 401);
    expectErrorBody(await from('203.0.113.8', t.key), 429);
  });

  it('counts a stale key retried over and over once, and ignores requests without a key', async () => {
    t = await createTestApp({ authFailureLimit: 3 });
    for (let i = 0; i < 20; i++) expectErrorBody(await from('203.0.113.9', 'stale-key'), 401);
    for (let i = 0; i < 20; i++) expectErrorBody(await from('203.0.113.9', null), 401);
    expect((await from('203.0.113.9', t.key)).status).toBe(200);
  });

  it('counts wrong operator tokens too', async () => {
    t = await createTestApp({ authFailureLimit: 2, adminToken: 'operator-token-0123456789' });
    const operator = (token: string) =>
      t.app.inject({ method: 'GET', url: '/_edgeplane/accounts', remoteAddress: '203.0.113.10', headers: { authorization: `Bearer ${token}` } });
    expect((await operator('wrong-1')).statusCode).toBe(401);
    expect((await operator('wrong-2')).statusCode).toBe(401);
    const refused = await operator('operator-token-0123456789');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
  });

  it('is off at 0', async () => {
    t = await createTestApp({ authFailureLimit: 0 });
    for (let i = 0; i < 50; i++) expectErrorBody(await from('203.0.113.11', `guess-${i}`), 401);
    expect((await from('203.0.113.11', t.key)).status).toBe(200);
  });
});
