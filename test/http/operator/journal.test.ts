import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalPage } from '../../../src/schemas/journal.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormatsModule.default(ajv);
ajv.addFormat('int64', true);
const validPage = ajv.compile(JournalPage);

const TOKEN = 'operator-token-0123456789';
let t: TestContext;
const start = async (journalSize: number) => {
  t = await createTestApp({ adminToken: TOKEN, journalSize });
};
afterEach(async () => {
  await t.close();
});

const op = (method: 'GET' | 'DELETE', url = '/_edgeplane/journal', token: string | null = TOKEN) =>
  t.request(method, url, undefined, null, token === null ? {} : { authorization: `Bearer ${token}` });
const journal = async (query = '') => {
  const res = await op('GET', `/_edgeplane/journal${query}`);
  expect(res.status).toBe(200);
  expect(validPage(res.body), JSON.stringify(validPage.errors)).toBe(true);
  return res.body as { capacity: number; entries: Record<string, any>[] };
};

describe('GET /_edgeplane/journal', () => {
  it('is off unless EDGEPLANE_JOURNAL_SIZE is set', async () => {
    await start(0);
    await t.get('/apikey');
    expect(await journal()).toEqual({ capacity: 0, entries: [] });
  });

  it('records each request with its outcome, account and request id', async () => {
    await start(10);
    const created = await t.post('/pullzone', { Name: 'journaled', OriginUrl: 'https://origin.example' });
    const denied = await t.get('/apikey', null);
    const { capacity, entries } = await journal();
    expect(capacity).toBe(10);
    expect(entries).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        requestId: denied.headers['x-request-id'],
        method: 'GET',
        path: '/apikey',
        route: '/apikey',
        status: 401,
        accountId: null,
        durationMs: expect.any(Number),
        headers: expect.any(Object),
        body: null,
      },
      {
        time: expect.any(String),
        requestId: created.headers['x-request-id'],
        method: 'POST',
        path: '/pullzone',
        route: '/pullzone',
        status: 201,
        accountId: t.accountId,
        durationMs: expect.any(Number),
        headers: expect.objectContaining({ accesskey: '[redacted]', 'content-type': 'application/json' }),
        body: { Name: 'journaled', OriginUrl: 'https://origin.example' },
      },
    ]);
    expect(entries[1]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('redacts every credential field at any depth, whatever its case, and the auth headers', async () => {
    await start(10);
    const secrets = [
      'zone-secret-1',
      'signing-key-2',
      'signing-secret-3',
      'forwarding-token-4',
      'nested-secret-5',
      'cert-key-6',
      'pw-7',
      'ro-pw-8',
      'lib-key-9',
      'access-10',
      'bearer-11',
    ];
    await t.request(
      'POST',
      '/pullzone',
      {
        Name: 'secretive',
        OriginUrl: 'https://origin.example',
        ZoneSecurityKey: secrets[0],
        requestsigningkey: secrets[1],
        REQUESTSIGNINGSECRET: secrets[2],
        LogForwardingToken: secrets[3],
        Extra: { deeper: [{ Key: secrets[4], Hostnames: [{ Value: 'a.example', CertificateKey: secrets[5] }] }] },
        Password: secrets[6],
        ReadOnlyPassword: secrets[7],
        ApiKey: secrets[8],
        AccessKey: secrets[9],
        authorization: secrets[10],
        ReadOnlyApiKey: 'x',
        ApiAccessKey: 'y',
        Enabled: true,
      },
      undefined,
      { authorization: `Bearer ${secrets[10]}` },
    );
    const [entry] = (await journal()).entries;
    expect(entry!.body).toEqual({
      Name: 'secretive',
      OriginUrl: 'https://origin.example',
      ZoneSecurityKey: '[redacted]',
      requestsigningkey: '[redacted]',
      REQUESTSIGNINGSECRET: '[redacted]',
      LogForwardingToken: '[redacted]',
      Extra: { deeper: [{ Key: '[redacted]', Hostnames: [{ Value: 'a.example', CertificateKey: '[redacted]' }] }] },
      Password: '[redacted]',
      ReadOnlyPassword: '[redacted]',
      ApiKey: '[redacted]',
      AccessKey: '[redacted]',
      authorization: '[redacted]',
      ReadOnlyApiKey: '[redacted]',
      ApiAccessKey: '[redacted]',
      Enabled: true,
    });
    expect(entry!.headers).toMatchObject({ accesskey: '[redacted]', authorization: '[redacted]' });
    const raw = JSON.stringify(entry);
    for (const secret of [...secrets, t.key]) expect(raw).not.toContain(secret);
  });

  it('keeps the newest entries, newest first, and filters by method, path and limit', async () => {
    await start(3);
    const zone = (await t.post('/pullzone', { Name: 'ring', OriginUrl: 'https://origin.example' })).body;
    await t.get(`/pullzone/${zone.Id}`);
    await t.get('/apikey');
    await t.post(`/pullzone/${zone.Id}`, { OriginUrl: 'https://other.example' });
    await t.get(`/pullzone/${zone.Id}?includeCertificate=true`);
    const all = (await journal()).entries;
    expect(all.map((e) => `${e.method} ${e.path}`)).toEqual([`GET /pullzone/${zone.Id}`, `POST /pullzone/${zone.Id}`, 'GET /apikey']);
    expect((await journal('?method=post')).entries.map((e) => e.path)).toEqual([`/pullzone/${zone.Id}`]);
    expect((await journal('?path=/pullzone/:id')).entries).toHaveLength(2);
    expect((await journal('?path=/pullzone/:id&method=GET')).entries.map((e) => e.route)).toEqual(['/pullzone/:id']);
    expect((await journal('?path=/api*')).entries.map((e) => e.path)).toEqual(['/apikey']);
    expect((await journal('?limit=1')).entries).toEqual([all[0]]);
  });

  it("keeps a client's sane X-Request-Id and replaces any other", async () => {
    await start(5);
    const kept = await t.request('GET', '/apikey', undefined, undefined, { 'x-request-id': 'client-trace_42.a-b' });
    expect(kept.headers['x-request-id']).toBe('client-trace_42.a-b');
    for (const odd of ['has space', 'x'.repeat(65), 'semi;colon']) {
      const res = await t.request('GET', '/apikey', undefined, undefined, { 'x-request-id': odd });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await journal()).entries.map((e) => e.requestId)).toContain('client-trace_42.a-b');
  });

  it('leaves out operator requests', async () => {
    await start(5);
    await op('GET');
    await t.request('GET', '/_edgeplane/accounts', undefined, null, { authorization: `Bearer ${TOKEN}` });
    await t.get('/_edgeplane/health', null);
    expect((await journal()).entries).toEqual([]);
  });

  it('validates its query', async () => {
    await start(5);
    for (const query of ['?limit=0', '?limit=100001', '?limit=many']) {
      const res = await op('GET', `/_edgeplane/journal${query}`);
      expectErrorBody(res, 400, '/_edgeplane/journal');
      expect(errorFields(res)).toEqual(['limit']);
    }
  });

  it('needs the operator credential', async () => {
    await start(5);
    for (const method of ['GET', 'DELETE'] as const) {
      expectErrorBody(await op(method, undefined, null), 401);
      expectErrorBody(await op(method, undefined, 'wrong-token-0123456789'), 401);
      expectErrorBody(await t.request(method, '/_edgeplane/journal', undefined, t.key), 401);
    }
  });
});

describe('DELETE /_edgeplane/journal', () => {
  it('empties the journal, which then fills again', async () => {
    await start(5);
    await t.get('/apikey');
    const res = await op('DELETE');
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await journal()).entries).toEqual([]);
    await t.get('/apikey');
    expect((await journal()).entries.map((e) => e.path)).toEqual(['/apikey']);
  });
});
