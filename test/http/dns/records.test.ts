import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DnsRecord } from '../../../src/schemas/dns.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validRecord = ajv.compile(DnsRecord);
const expectRecordShape = (body: unknown) => {
  if (!validRecord(body)) throw new Error(`not a DnsRecord: ${ajv.errorsText(validRecord.errors)}`);
};

// One app for the file (building one is most of a short test's time), a zone of its own per test.
let t: TestContext;
let zoneId: number;
let url: string;
let zones = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  zoneId = (await t.post('/dnszone', { Domain: `ex${String(++zones).padStart(5, '0')}.com` })).body.Id;
  url = `/dnszone/${zoneId}/records`;
});

/** A pull zone of the account: through the API once it exists, else written straight to the store. */
async function pullZoneOf(ctx: TestContext, key = ctx.key, accountId = ctx.accountId): Promise<number> {
  const res = await ctx.post('/pullzone', { Name: `pz-test-${accountId}-${Date.now()}`, OriginUrl: 'https://origin.example' }, key);
  if (res.status === 201 || res.status === 200) return res.body.Id as number;
  expect(res.body.ErrorKey).toBe('route.not_found');
  const id = 1000 + accountId;
  await ctx.store.docs.insert('pullZone', { id: String(id), accountId, name: `pz-test-${accountId}`, doc: { Id: id } });
  return id;
}

/** A script of the account (`ScriptType` 0: a DNS script). */
async function scriptOf(ctx: TestContext, scriptType: 0 | 1, key = ctx.key): Promise<number> {
  const res = await ctx.post('/compute/script', { Name: `script-${Date.now()}`, ScriptType: scriptType }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.Id as number;
}

/** Adds a record and checks the answer is a complete record. */
async function add(body: Record<string, unknown>) {
  const res = await t.put(url, body);
  if (res.status === 201) expectRecordShape(res.body);
  return res;
}

async function expectRejected(body: Record<string, unknown>, fields: string[]) {
  const res = await t.put(url, body);
  expectErrorBody(res, 400, url);
  expect(errorFields(res)).toEqual(fields);
  expect(res.body.Field).toBe(fields[0]);
  return res;
}

describe('PUT /dnszone/{zoneId}/records', () => {
  it('adds a record and answers 201 with every field, defaults filled in', async () => {
    const res = await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      Id: expect.any(Number),
      Type: 0,
      Ttl: 300,
      Value: '192.0.2.1',
      Name: 'www',
      Weight: 0,
      Priority: 0,
      Port: 0,
      Flags: 0,
      Tag: null,
      Accelerated: false,
      AcceleratedPullZoneId: 0,
      LinkName: null,
      IPGeoLocationInfo: null,
      GeolocationInfo: null,
      MonitorStatus: 0,
      MonitorType: 0,
      GeolocationLatitude: 0,
      GeolocationLongitude: 0,
      EnviromentalVariables: [],
      LatencyZone: null,
      SmartRoutingType: 0,
      Disabled: false,
      Comment: null,
      AutoSslIssuance: false,
      AccelerationStatus: 0,
    });
  });

  it('echoes every optional field that was sent', async () => {
    const res = await add({
      Type: 0,
      Name: 'geo',
      Value: '192.0.2.7',
      Ttl: 60,
      Weight: 5,
      Accelerated: true,
      MonitorType: 2,
      GeolocationLatitude: 52.52,
      GeolocationLongitude: 13.405,
      LatencyZone: 'DE',
      SmartRoutingType: 2,
      Disabled: true,
      EnviromentalVariables: [{ Name: 'A', Value: 'b' }],
      Comment: 'edge',
      AutoSslIssuance: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      Ttl: 60,
      Weight: 5,
      Accelerated: true,
      AccelerationStatus: 1,
      AcceleratedPullZoneId: 0,
      MonitorType: 2,
      MonitorStatus: 0,
      GeolocationLatitude: 52.52,
      GeolocationLongitude: 13.405,
      GeolocationInfo: { Country: null, City: null, Latitude: 52.52, Longitude: 13.405 },
      LatencyZone: 'DE',
      SmartRoutingType: 2,
      Disabled: true,
      EnviromentalVariables: [{ Name: 'A', Value: 'b' }],
      Comment: 'edge',
      AutoSslIssuance: true,
    });
  });

  it('treats null like a field not sent', async () => {
    const res = await add({ Type: 3, Value: 'x', Ttl: null, Name: null, Weight: null, Flags: null, Comment: null, Disabled: null });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Ttl: 300, Name: '', Weight: 0, Flags: 0, Comment: null, Disabled: false });
  });

  it('binds body names case-insensitively', async () => {
    const res = await add({ type: 0, VALUE: '192.0.2.1', name: 'www', ttl: 120 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Type: 0, Value: '192.0.2.1', Name: 'www', Ttl: 120 });
  });

  it('gives every record its own increasing id and keeps them in the zone in order', async () => {
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) ids.push((await add({ Type: 3, Name: name, Value: name })).body.Id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    const zone = (await t.get(`/dnszone/${zoneId}`)).body;
    expect(zone.Records.map((r: { Id: number }) => r.Id)).toEqual(ids);
  });

  it('requires Type and bounds it to 0..15', async () => {
    await expectRejected({ Value: '192.0.2.1' }, ['Type']);
    await expectRejected({ Type: null, Value: '192.0.2.1' }, ['Type']);
    await expectRejected({ Type: 16, Value: 'x' }, ['Type']);
    await expectRejected({ Type: -1, Value: 'x' }, ['Type']);
    await expectRejected({ Type: 'A', Value: 'x' }, ['Type']);
    expect((await add({ Type: 15, Name: '_443._tcp', Value: '3 1 1 0123456789abcdef' })).status).toBe(201);
  });

  it.each([0, 1, 3600, 2147483647])('accepts Ttl %d', async (ttl) => {
    const res = await add({ Type: 3, Value: 'x', Ttl: ttl });
    expect(res.status).toBe(201);
    expect(res.body.Ttl).toBe(ttl);
  });

  it.each([-1, 2147483648, 1.5, ' 300', '300.0'])('rejects Ttl %j', async (ttl) => {
    await expectRejected({ Type: 3, Value: 'x', Ttl: ttl }, ['Ttl']);
  });

  it.each([
    ['', ''],
    ['@', ''],
    ['www', 'www'],
    ['WWW', 'WWW'],
    ['*', '*'],
    ['*.dev', '*.dev'],
    ['_dmarc', '_dmarc'],
    ['_sip._tcp', '_sip._tcp'],
    ['a-b.c-d', 'a-b.c-d'],
    ['x'.repeat(63), 'x'.repeat(63)],
  ])('accepts the name %j and stores it as %j', async (name, stored) => {
    const res = await add({ Type: 3, Name: name, Value: 'x' });
    expect(res.status).toBe(201);
    expect(res.body.Name).toBe(stored);
  });

  it.each(['a b', '*a', 'a.*', 'a..b', '.a', 'a.', 'é', 'a/b', '@.www', 'x'.repeat(64)])('rejects the name %j', async (name) => {
    await expectRejected({ Type: 3, Name: name, Value: 'x' }, ['Name']);
  });

  it('rejects a name that makes the full name longer than 253 characters', async () => {
    const name = Array.from({ length: 4 }, () => 'n'.repeat(61)).join('.'); // 247 + ".example.com" = 259
    await expectRejected({ Type: 3, Name: name, Value: 'x' }, ['Name']);
    expect((await add({ Type: 3, Name: name.slice(0, 241), Value: 'x' })).status).toBe(201);
  });

  it('reports every problem of a record at once', async () => {
    const res = await expectRejected({ Type: 8, Name: '_sip._tcp' }, ['Priority', 'Weight', 'Port', 'Value']);
    expect(res.body.detail).toBe('One or more validation errors occurred.');
  });
});

type Case = [label: string, body: Record<string, unknown>];

const VALID: Case[] = [
  ['A', { Type: 0, Value: '192.0.2.1' }],
  ['AAAA', { Type: 1, Value: '2001:db8::1' }],
  ['AAAA (IPv4-mapped)', { Type: 1, Value: '::ffff:192.0.2.1' }],
  ['CNAME', { Type: 2, Name: 'www', Value: 'target.example.net' }],
  ['CNAME (fully qualified)', { Type: 2, Name: 'www', Value: 'target.example.net.' }],
  ['CNAME (underscore label)', { Type: 2, Name: '_acme-challenge', Value: '_acme-challenge.validation.example.net' }],
  ['TXT', { Type: 3, Value: 'v=spf1 -all' }],
  ['TXT (longer than 255)', { Type: 3, Value: 'k'.repeat(600) }],
  ['MX', { Type: 4, Value: 'mail.example.com', Priority: 10 }],
  ['MX (priority 0)', { Type: 4, Value: 'mail.example.com', Priority: 0 }],
  ['MX (null MX)', { Type: 4, Value: '.', Priority: 0 }],
  ['Redirect (https)', { Type: 5, Value: 'https://www.example.com/path?q=1' }],
  ['Redirect (http)', { Type: 5, Value: 'http://example.org' }],
  ['Flatten', { Type: 6, Value: 'origin.example.net' }],
  ['SRV', { Type: 8, Name: '_sip._tcp', Value: 'sip.example.com', Priority: 10, Weight: 5, Port: 5060 }],
  ['SRV (zeros)', { Type: 8, Name: '_sip._udp', Value: '.', Priority: 0, Weight: 0, Port: 0 }],
  ['CAA issue', { Type: 9, Flags: 0, Tag: 'issue', Value: 'ca.example.net' }],
  ['CAA issue with parameters', { Type: 9, Tag: 'issue', Value: 'ca.example.net; validationmethods=dns-01' }],
  ['CAA issue deny', { Type: 9, Tag: 'issue', Value: ';' }],
  ['CAA issuewild, critical', { Type: 9, Flags: 128, Tag: 'issuewild', Value: 'ca.example.net' }],
  ['CAA flags 255', { Type: 9, Flags: 255, Tag: 'issue', Value: 'ca.example.net' }],
  ['CAA iodef mailto', { Type: 9, Tag: 'iodef', Value: 'mailto:security@example.com' }],
  ['CAA iodef https', { Type: 9, Tag: 'iodef', Value: 'https://report.example.com/caa' }],
  ['PTR', { Type: 10, Name: '1', Value: 'host.example.com' }],
  ['NS', { Type: 12, Name: 'sub', Value: 'ns1.other.example' }],
  ['SVCB', { Type: 13, Name: '_dns', Value: '1 dns.example.net alpn=dot' }],
  ['HTTPS', { Type: 14, Value: '1 . alpn=h2,h3' }],
  ['TLSA', { Type: 15, Name: '_443._tcp', Value: '3 1 1 0123456789abcdef' }],
];

const INVALID: [label: string, body: Record<string, unknown>, fields: string[]][] = [
  ['A without Value', { Type: 0 }, ['Value']],
  ['A with an IPv6 address', { Type: 0, Value: '2001:db8::1' }, ['Value']],
  ['A with a host name', { Type: 0, Value: 'example.com' }, ['Value']],
  ['A with an out-of-range octet', { Type: 0, Value: '192.0.2.256' }, ['Value']],
  ['A with a leading space', { Type: 0, Value: ' 192.0.2.1' }, ['Value']],
  ['AAAA with an IPv4 address', { Type: 1, Value: '192.0.2.1' }, ['Value']],
  ['AAAA malformed', { Type: 1, Value: '2001:db8:::1' }, ['Value']],
  ['CNAME without Value', { Type: 2, Name: 'www' }, ['Value']],
  ['CNAME to an address', { Type: 2, Name: 'www', Value: '192.0.2.1' }, ['Value']],
  ['CNAME to a URL', { Type: 2, Name: 'www', Value: 'https://example.net' }, ['Value']],
  ['CNAME with a space', { Type: 2, Name: 'www', Value: 'exa mple.net' }, ['Value']],
  ['CNAME with an empty label', { Type: 2, Name: 'www', Value: 'a..example.net' }, ['Value']],
  ['CNAME with an edge hyphen', { Type: 2, Name: 'www', Value: '-a.example.net' }, ['Value']],
  ['CNAME with a 64-character label', { Type: 2, Name: 'www', Value: `${'a'.repeat(64)}.example.net` }, ['Value']],
  ['TXT empty', { Type: 3, Value: '' }, ['Value']],
  ['TXT without Value', { Type: 3 }, ['Value']],
  ['MX without Priority', { Type: 4, Value: 'mail.example.com' }, ['Priority']],
  ['MX to an address', { Type: 4, Value: '192.0.2.1', Priority: 10 }, ['Value']],
  ['MX with Priority over 65535', { Type: 4, Value: 'mail.example.com', Priority: 65536 }, ['Priority']],
  ['Redirect without scheme', { Type: 5, Value: 'www.example.com' }, ['Value']],
  ['Redirect to ftp', { Type: 5, Value: 'ftp://example.com/file' }, ['Value']],
  ['Redirect empty', { Type: 5, Value: '' }, ['Value']],
  ['Flatten to an address', { Type: 6, Value: '192.0.2.1' }, ['Value']],
  ['PullZone without PullZoneId', { Type: 7 }, ['PullZoneId']],
  ['PullZone with PullZoneId 0', { Type: 7, PullZoneId: 0 }, ['PullZoneId']],
  ['SRV without Priority', { Type: 8, Value: 'sip.example.com', Weight: 5, Port: 5060 }, ['Priority']],
  ['SRV without Weight', { Type: 8, Value: 'sip.example.com', Priority: 1, Port: 5060 }, ['Weight']],
  ['SRV without Port', { Type: 8, Value: 'sip.example.com', Priority: 1, Weight: 5 }, ['Port']],
  ['SRV with Port over 65535', { Type: 8, Value: 'sip.example.com', Priority: 1, Weight: 5, Port: 70000 }, ['Port']],
  ['SRV to an address', { Type: 8, Value: '192.0.2.1', Priority: 1, Weight: 5, Port: 5060 }, ['Value']],
  ['CAA without Tag', { Type: 9, Value: 'ca.example.net' }, ['Tag']],
  ['CAA with an unknown Tag', { Type: 9, Tag: 'issuer', Value: 'ca.example.net' }, ['Tag']],
  ['CAA without Value', { Type: 9, Tag: 'issue' }, ['Value']],
  ['CAA with Flags 256', { Type: 9, Flags: 256, Tag: 'issue', Value: 'ca.example.net' }, ['Flags']],
  ['CAA with Flags -1', { Type: 9, Flags: -1, Tag: 'issue', Value: 'ca.example.net' }, ['Flags']],
  ['CAA issue with a bad issuer', { Type: 9, Tag: 'issue', Value: 'not a domain' }, ['Value']],
  ['CAA iodef that is not a URL', { Type: 9, Tag: 'iodef', Value: 'security@example.com' }, ['Value']],
  ['PTR to an address', { Type: 10, Name: '1', Value: '192.0.2.1' }, ['Value']],
  ['NS without Value', { Type: 12, Name: 'sub' }, ['Value']],
  ['NS to a URL', { Type: 12, Name: 'sub', Value: 'http://ns1.example' }, ['Value']],
  ['Script without ScriptId', { Type: 11 }, ['ScriptId']],
  ['Script with ScriptId 0', { Type: 11, ScriptId: 0 }, ['ScriptId']],
  ['Script with a negative ScriptId', { Type: 11, ScriptId: -5 }, ['ScriptId']],
  ['SVCB empty', { Type: 13, Value: '' }, ['Value']],
  ['HTTPS without Value', { Type: 14 }, ['Value']],
  ['TLSA without Value', { Type: 15 }, ['Value']],
  ['Latitude over 90', { Type: 3, Value: 'x', GeolocationLatitude: 90.5 }, ['GeolocationLatitude']],
  ['MonitorType 4', { Type: 3, Value: 'x', MonitorType: 4 }, ['MonitorType']],
];

describe('per-type checks', () => {
  it.each(VALID)('accepts %s', async (_label, body) => {
    const res = await add(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ ...body, Name: body['Name'] ?? '' });
  });

  it.each(INVALID)('rejects %s', async (_label, body, fields) => {
    await expectRejected(body, fields);
  });

  it('stores a CAA tag in lower case', async () => {
    const res = await add({ Type: 9, Tag: 'ISSUE', Value: 'ca.example.net' });
    expect(res.status).toBe(201);
    expect(res.body.Tag).toBe('issue');
  });

  it('links a PullZone record to a pull zone of the account, its id in LinkName', async () => {
    const pullZoneId = await pullZoneOf(t);
    const res = await add({ Type: 7, Name: 'cdn', PullZoneId: pullZoneId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Type: 7, Name: 'cdn', LinkName: String(pullZoneId) });
  });

  it("refuses a PullZone record for an unknown pull zone or another account's", async () => {
    await expectRejected({ Type: 7, PullZoneId: 987654 }, ['PullZoneId']);
    const other = await t.newAccount();
    const foreign = await pullZoneOf(t, other.key, other.accountId);
    const res = await expectRejected({ Type: 7, PullZoneId: foreign }, ['PullZoneId']);
    expect(res.body.detail).toContain('does not exist');
  });

  it('links a Script record to a DNS script of the account, its id in LinkName', async () => {
    const scriptId = await scriptOf(t, 0);
    const res = await add({ Type: 11, Name: 'api', ScriptId: scriptId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Type: 11, LinkName: String(scriptId) });
  });

  it("refuses a Script record for an unknown script, another account's, or one that is not a DNS script, on add and update", async () => {
    const unknown = await expectRejected({ Type: 11, ScriptId: 987654 }, ['ScriptId']);
    expect(unknown.body.detail).toBe('The DNS script 987654 does not exist.');
    const other = await t.newAccount();
    await expectRejected({ Type: 11, ScriptId: await scriptOf(t, 0, other.key) }, ['ScriptId']);
    const standalone = await scriptOf(t, 1);
    const notDns = await expectRejected({ Type: 11, ScriptId: standalone }, ['ScriptId']);
    expect(notDns.body.detail).toBe(`The script ${standalone} is not a DNS script (ScriptType 0).`);
    // An update to a missing script is refused and leaves the record as it was.
    const scriptId = await scriptOf(t, 0);
    const record = (await add({ Type: 11, Name: 'fn', ScriptId: scriptId })).body;
    const update = await t.post(`${url}/${record.Id}`, { ScriptId: 987654 });
    expectErrorBody(update, 400, `${url}/${record.Id}`);
    expect(errorFields(update)).toEqual(['ScriptId']);
    expect((await t.get(`/dnszone/${zoneId}`)).body.Records[0]).toMatchObject({ Id: record.Id, LinkName: String(scriptId) });
  });
});

describe('zone lookup', () => {
  it('answers 404 for an unknown zone', async () => {
    expectErrorBody(await t.put('/dnszone/999999/records', { Type: 0, Value: '192.0.2.1' }), 404, '/dnszone/999999/records');
  });

  it("answers 404 for another account's zone and leaves it unchanged", async () => {
    const other = await t.newAccount();
    const foreign = (await t.post('/dnszone', { Domain: 'foreign.com' }, other.key)).body;
    expectErrorBody(await t.put(`/dnszone/${foreign.Id}/records`, { Type: 0, Value: '192.0.2.1' }), 404);
    expect((await t.get(`/dnszone/${foreign.Id}`, other.key)).body.Records).toEqual([]);
  });

  it('answers 400 for a zone id that is not a positive integer', async () => {
    const res = await t.put('/dnszone/abc/records', { Type: 0, Value: '192.0.2.1' });
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['zoneId']);
  });

  it('keeps an added record across a restart', async () => {
    const record = (await add({ Type: 8, Name: '_sip._tcp', Value: 'sip.example.com', Priority: 1, Weight: 2, Port: 5060 })).body;
    await t.restart();
    const zone = (await t.get(`/dnszone/${zoneId}`)).body;
    expect(zone.Records).toEqual([record]);
  });
});
