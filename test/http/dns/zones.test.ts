import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DnsZone } from '../../../src/schemas/dns.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validZone = ajv.compile(DnsZone);
const expectZoneShape = (body: unknown) => {
  if (!validZone(body)) throw new Error(`not a DnsZone: ${ajv.errorsText(validZone.errors)}`);
};

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('POST /dnszone', () => {
  it('adds a zone and answers 201 with every field of the zone model', async () => {
    const res = await t.post('/dnszone', { Domain: 'example.com' });
    expect(res.status).toBe(201);
    expectZoneShape(res.body);
    const domain = t.config.cdnDomain;
    expect(res.body).toEqual({
      Id: expect.any(Number),
      Domain: 'example.com',
      Records: [],
      DateModified: expect.stringMatching(ISO),
      DateCreated: expect.stringMatching(ISO),
      NameserversDetected: false,
      CustomNameserversEnabled: false,
      Nameserver1: `ns1.${domain}`,
      Nameserver2: `ns2.${domain}`,
      SoaEmail: `hostmaster@${domain}`,
      NameserversNextCheck: expect.stringMatching(ISO),
      LoggingEnabled: false,
      LoggingIPAnonymizationEnabled: true,
      LogAnonymizationType: 0,
      DnsSecEnabled: false,
      CertificateKeyType: 0,
    });
    expect(res.body.DateModified).toBe(res.body.DateCreated);
    expect(Date.parse(res.body.NameserversNextCheck)).toBeGreaterThan(Date.parse(res.body.DateCreated));
  });

  it('takes its name servers from the configured platform domain', async () => {
    const other = await createTestApp({ cdnDomain: 'cdn.example.net' });
    try {
      const res = await other.post('/dnszone', { Domain: 'example.com' });
      expect(res.body).toMatchObject({ Nameserver1: 'ns1.cdn.example.net', Nameserver2: 'ns2.cdn.example.net', SoaEmail: 'hostmaster@cdn.example.net' });
    } finally {
      await other.close();
    }
  });

  it('binds body names case-insensitively', async () => {
    const res = await t.post('/dnszone', { domain: 'x.com', records: [{ type: 0, value: '192.0.2.1', name: 'www' }] });
    expect(res.status).toBe(201);
    expect(res.body.Domain).toBe('x.com');
    expect(res.body.Records).toHaveLength(1);
    expect(res.body.Records[0]).toMatchObject({ Type: 0, Value: '192.0.2.1', Name: 'www' });
  });

  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['sub.deep.example.co.uk', 'sub.deep.example.co.uk'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['a-b.io', 'a-b.io'],
  ])('stores the domain %s as %s', async (sent, stored) => {
    const res = await t.post('/dnszone', { Domain: sent });
    expect(res.status).toBe(201);
    expect(res.body.Domain).toBe(stored);
  });

  it.each([
    'com',
    'localhost',
    'exa mple.com',
    '-a.com',
    'a-.com',
    'a..com',
    '.example.com',
    'example.com..',
    '192.0.2.1',
    'foo_bar.com',
    `${'a'.repeat(64)}.com`,
    'example.123',
    'example.c',
    'http://example.com',
    'example.com/path',
    '*.example.com',
  ])('rejects the domain %j with a 400 naming Domain', async (domain) => {
    const res = await t.post('/dnszone', { Domain: domain });
    expectErrorBody(res, 400, '/dnszone');
    expect(errorFields(res)).toEqual(['Domain']);
  });

  it('requires Domain', async () => {
    for (const body of [{}, { Domain: '' }, { Domain: null }, { Domain: 5 }]) {
      const res = await t.post('/dnszone', body);
      expectErrorBody(res, 400, '/dnszone');
      expect(errorFields(res)).toEqual(['Domain']);
    }
  });

  it('refuses a domain already taken, in any case and by any account', async () => {
    expect((await t.post('/dnszone', { Domain: 'example.com' })).status).toBe(201);
    for (const [domain, key] of [
      ['example.com', t.key],
      ['EXAMPLE.com', t.key],
      ['example.com', (await t.newAccount()).key],
    ] as const) {
      const res = await t.post('/dnszone', { Domain: domain }, key);
      expectErrorBody(res, 400, '/dnszone');
      expect(errorFields(res)).toEqual(['Domain']);
      expect(res.body.detail).toContain('already taken');
      expect(res.body.Field).toBe('Domain');
    }
    // A subdomain is a different zone.
    expect((await t.post('/dnszone', { Domain: 'sub.example.com' })).status).toBe(201);
  });

  it('creates the initial records with ids and defaults', async () => {
    const res = await t.post('/dnszone', {
      Domain: 'example.com',
      Records: [
        { Type: 0, Name: '@', Value: '192.0.2.1' },
        { Type: 4, Name: '', Value: 'mail.example.com', Priority: 10, Ttl: 3600 },
        { Type: 3, Name: '_dmarc', Value: 'v=DMARC1; p=none' },
      ],
    });
    expect(res.status).toBe(201);
    expectZoneShape(res.body);
    const records = res.body.Records as { Id: number; Name: string; Ttl: number; Priority: number }[];
    expect(records.map((r) => r.Name)).toEqual(['', '', '_dmarc']);
    expect(records.map((r) => r.Ttl)).toEqual([300, 3600, 300]);
    expect(records[1]!.Priority).toBe(10);
    expect(new Set(records.map((r) => r.Id)).size).toBe(3);
    expect((await t.get(`/dnszone/${res.body.Id}`)).body).toEqual(res.body);
  });

  it('rejects the zone when an initial record is invalid, naming it, and creates nothing', async () => {
    const res = await t.post('/dnszone', {
      Domain: 'example.com',
      Records: [
        { Type: 0, Value: '192.0.2.1' },
        { Type: 0, Value: 'not-an-ip' },
        { Type: 4, Value: 'mx.example.com' },
      ],
    });
    expectErrorBody(res, 400, '/dnszone');
    expect(errorFields(res)).toEqual(['Records[1].Value', 'Records[2].Priority']);
    expect((await t.post('/dnszone', { Domain: 'example.com' })).status).toBe(201);
  });

  it("checks an initial record's pull zone in the caller's account", async () => {
    const res = await t.post('/dnszone', { Domain: 'example.com', Records: [{ Type: 7, PullZoneId: 999 }] });
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['Records[0].PullZoneId']);
  });

  it('rejects a record type outside 0..15 in the initial records', async () => {
    const res = await t.post('/dnszone', { Domain: 'example.com', Records: [{ Type: 16, Value: 'x' }] });
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['Records[0].Type']);
  });
});

describe('GET /dnszone/{id}', () => {
  it('returns the zone with its records', async () => {
    const zone = (await t.post('/dnszone', { Domain: 'example.com' })).body;
    const record = (await t.put(`/dnszone/${zone.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.10' })).body;
    const res = await t.get(`/dnszone/${zone.Id}`);
    expect(res.status).toBe(200);
    expectZoneShape(res.body);
    expect(res.body).toEqual({ ...zone, Records: [record], DateModified: expect.stringMatching(ISO) });
    expect(Date.parse(res.body.DateModified)).toBeGreaterThanOrEqual(Date.parse(zone.DateModified));
  });

  it("answers 404 for an unknown zone and for another account's zone", async () => {
    expectErrorBody(await t.get('/dnszone/999999'), 404, '/dnszone/999999');
    const other = await t.newAccount();
    const foreign = (await t.post('/dnszone', { Domain: 'foreign.com' }, other.key)).body;
    const res = await t.get(`/dnszone/${foreign.Id}`);
    expectErrorBody(res, 404);
    expect(res.body.detail).not.toContain('foreign.com');
    expect((await t.get(`/dnszone/${foreign.Id}`, other.key)).status).toBe(200);
  });

  it('answers 400 for an id that is not a positive integer', async () => {
    for (const id of ['abc', '0', '1.5']) {
      const res = await t.get(`/dnszone/${id}`);
      expectErrorBody(res, 400);
      expect(errorFields(res)).toEqual(['id']);
    }
  });

  it('keeps zones and records across a restart', async () => {
    const zone = (await t.post('/dnszone', { Domain: 'example.com', Records: [{ Type: 3, Value: 'hello' }] })).body;
    await t.put(`/dnszone/${zone.Id}/records`, { Type: 1, Name: 'v6', Value: '2001:db8::1' });
    const before = (await t.get(`/dnszone/${zone.Id}`)).body;
    expect(before.Records).toHaveLength(2);
    await t.restart();
    const after = await t.get(`/dnszone/${zone.Id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before);
    expectErrorBody(await t.post('/dnszone', { Domain: 'example.com' }), 400);
    // Ids keep counting after a restart.
    const next = (await t.put(`/dnszone/${zone.Id}/records`, { Type: 3, Value: 'again' })).body;
    expect(next.Id).toBeGreaterThan(Math.max(...before.Records.map((r: { Id: number }) => r.Id)));
  });
});
