import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let zoneId: number;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ cdnDomain: 'cdn.example.test' });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
  zoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id;
});

const add = async (body: Record<string, unknown>, zone = zoneId) => {
  const res = await t.put(`/dnszone/${zone}/records`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const exportOf = async (zone = zoneId) => {
  const res = await t.get(`/dnszone/${zone}/export`);
  expect(res.status).toBe(200);
  return res.body as string;
};
const importInto = (zone: number, text: string, contentType = 'text/plain') =>
  t.request('POST', `/dnszone/${zone}/import`, text, undefined, { 'content-type': contentType });
const recordsOf = async (zone = zoneId) => (await t.get(`/dnszone/${zone}`)).body.Records as Record<string, unknown>[];
const withoutIds = (records: Record<string, unknown>[]) => records.map(({ Id: _id, ...rest }) => rest);
/** The lines that carry records: the SOA serial and the header change with the zone. */
const recordLines = (text: string) => text.split('\n').slice(text.split('\n').findIndex((l) => l.includes('\tNS\t')));

describe('GET /dnszone/{id}/export', () => {
  it('writes a zone file: origin, default TTL, SOA and NS of the platform, then the records', async () => {
    await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    await add({ Type: 1, Name: 'www', Value: '2001:db8::1', Ttl: 60 });
    await add({ Type: 2, Name: 'shop', Value: 'shops.example.net' });
    await add({ Type: 4, Name: '', Value: 'mail.example.com', Priority: 10 });
    await add({ Type: 8, Name: '_sip._tcp', Value: 'sip.example.com', Priority: 1, Weight: 5, Port: 5060 });
    await add({ Type: 9, Name: '', Value: 'ca.example.net; account=1', Tag: 'issue', Flags: 128 });
    const res = await t.get(`/dnszone/${zoneId}/export`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="example.com.zone"');
    const lines = (res.body as string).split('\n');
    expect(lines.filter((l) => !l.startsWith(';'))).toEqual([
      '$ORIGIN example.com.',
      '$TTL 300',
      '@\t3600\tIN\tSOA\tns1.cdn.example.test. hostmaster.cdn.example.test. (',
      // The clock stands still: the serial starts at its second and each of the six records adds one.
      `\t\t\t\t${Date.parse('2026-01-01T00:00:00Z') / 1000 + 6}\t; serial`,
      '\t\t\t\t3600\t; refresh',
      '\t\t\t\t600\t; retry',
      '\t\t\t\t1209600\t; expire',
      '\t\t\t\t300 )\t; minimum',
      '@\t3600\tIN\tNS\tns1.cdn.example.test.',
      '@\t3600\tIN\tNS\tns2.cdn.example.test.',
      'www\t300\tIN\tA\t192.0.2.1',
      'www\t60\tIN\tAAAA\t2001:db8::1',
      'shop\t300\tIN\tCNAME\tshops.example.net.',
      '@\t300\tIN\tMX\t10 mail.example.com.',
      '_sip._tcp\t300\tIN\tSRV\t1 5 5060 sip.example.com.',
      '@\t300\tIN\tCAA\t128 issue "ca.example.net; account=1"',
      '',
    ]);
  });

  it('quotes TXT data, escapes it, and splits it into strings of at most 255 octets', async () => {
    await add({ Type: 3, Name: 'short', Value: 'say "hi" \\ ; (ok) é' });
    await add({ Type: 3, Name: 'long', Value: `${'a'.repeat(254)}é${'b'.repeat(10)}` });
    const text = await exportOf();
    expect(text).toContain('short\t300\tIN\tTXT\t"say \\"hi\\" \\\\ ; (ok) \\195\\169"\n');
    // é is two octets: the first string ends inside it, and readers join the octets back.
    expect(text).toContain(`long\t300\tIN\tTXT\t(\n\t\t\t\t"${'a'.repeat(254)}\\195"\n\t\t\t\t"\\169${'b'.repeat(10)}" )\n`);
  });

  it("writes the platform's own types, disabled records and record settings in edgeplane comments", async () => {
    const pullZone = (await t.post('/pullzone', { Name: 'export-pz', OriginUrl: 'https://origin.example' })).body.Id as number;
    await add({ Type: 5, Name: 'go', Value: 'https://example.org/landing?a=1;b=2' });
    await add({ Type: 6, Name: '', Value: 'apex-target.example.net' });
    await add({ Type: 7, Name: 'cdn', PullZoneId: pullZone, Ttl: 120 });
    const script = (await t.post('/compute/script', { Name: 'export-dns', ScriptType: 0 })).body.Id as number;
    await add({ Type: 11, Name: 'fn', ScriptId: script, EnviromentalVariables: [{ Name: 'MODE', Value: 'on "x"' }] });
    await add({ Type: 0, Name: 'off', Value: '192.0.2.9', Disabled: true });
    await add({
      Type: 0,
      Name: 'www',
      Value: '192.0.2.1',
      Weight: 3,
      Comment: 'main site',
      MonitorType: 2,
      SmartRoutingType: 2,
      GeolocationLatitude: 0,
      GeolocationLongitude: 13.4,
    });
    expect(recordLines(await exportOf()).slice(2)).toEqual([
      '; edgeplane:Redirect go 300 Value="https://example.org/landing?a=1;b=2"',
      '; edgeplane:Flatten @ 300 Value="apex-target.example.net"',
      `; edgeplane:PullZone cdn 120 PullZoneId=${pullZone}`,
      `; edgeplane:Script fn 300 ScriptId=${script} EnviromentalVariables="[{\\"Name\\":\\"MODE\\",\\"Value\\":\\"on \\\\\\"x\\\\\\"\\"}]"`,
      '; edgeplane:A off 300 Value="192.0.2.9" Disabled=true',
      'www\t300\tIN\tA\t192.0.2.1\t; edgeplane: Weight=3 MonitorType=2 SmartRoutingType=2 GeolocationLatitude=0 GeolocationLongitude=13.4 Comment="main site"',
      '',
    ]);
  });

  it("follows the zone's own name servers and SOA address", async () => {
    await t.post(`/dnszone/${zoneId}`, {
      CustomNameserversEnabled: true,
      Nameserver1: 'a.ns.example.net',
      Nameserver2: 'b.ns.example.net',
      SoaEmail: 'dns.admin@example.com',
    });
    const text = await exportOf();
    expect(text).toContain('@\t3600\tIN\tSOA\ta.ns.example.net. dns\\.admin.example.com. (');
    expect(text).toContain('@\t3600\tIN\tNS\ta.ns.example.net.\n@\t3600\tIN\tNS\tb.ns.example.net.\n');
  });

  it("answers 404 for an unknown zone and for another account's", async () => {
    expectErrorBody(await t.get('/dnszone/999999/export'), 404, '/dnszone/999999/export');
    expectErrorBody(await t.get(`/dnszone/${zoneId}/export`, (await t.newAccount()).key), 404);
  });
});

describe('export then import', () => {
  it('gives back the same records, of every type, with their settings', async () => {
    const pullZone = (await t.post('/pullzone', { Name: 'round-trip', OriginUrl: 'https://origin.example' })).body.Id as number;
    const script = (await t.post('/compute/script', { Name: 'round-trip-dns', ScriptType: 0 })).body.Id as number;
    const all = [
      { Type: 0, Name: 'www', Value: '192.0.2.1', Ttl: 3600, Comment: 'web "front"; main', Weight: 2 },
      { Type: 0, Name: 'off', Value: '192.0.2.2', Disabled: true },
      { Type: 1, Name: 'www', Value: '2001:db8::1', MonitorType: 1, GeolocationLatitude: 52.5, GeolocationLongitude: 13.4, LatencyZone: 'DE' },
      { Type: 2, Name: 'shop', Value: 'shops.example.net', Accelerated: true },
      { Type: 3, Name: '', Value: `v=spf1 include:_spf.example.net -all ${'x'.repeat(300)} ünïcode "quoted" back\\slash` },
      { Type: 3, Name: '_dmarc', Value: 'v=DMARC1; p=reject' },
      { Type: 4, Name: '', Value: 'mail.example.com', Priority: 10 },
      { Type: 4, Name: 'nomail', Value: '.', Priority: 0 },
      { Type: 5, Name: 'go', Value: 'https://example.org/x?y=1' },
      { Type: 6, Name: 'flat', Value: 'target.example.net' },
      { Type: 7, Name: 'cdn', PullZoneId: pullZone, AutoSslIssuance: true },
      { Type: 8, Name: '_sip._tcp', Value: 'sip.example.com', Priority: 1, Weight: 5, Port: 5060 },
      { Type: 9, Name: '', Value: 'ca.example.net', Tag: 'issuewild', Flags: 0 },
      { Type: 9, Name: '', Value: 'mailto:security@example.com', Tag: 'iodef', Flags: 128 },
      { Type: 10, Name: '1.2', Value: 'host.example.com' },
      {
        Type: 11,
        Name: 'edge',
        ScriptId: script,
        EnviromentalVariables: [
          { Name: 'A', Value: '1' },
          { Name: 'B', Value: null },
        ],
      },
      { Type: 12, Name: 'sub', Value: 'ns1.other.example' },
      { Type: 13, Name: '_svc', Value: '1 svc.example.net. alpn="h2,h3" port=8443' },
      { Type: 14, Name: '', Value: '1 . alpn=h2 ipv4hint=192.0.2.1' },
      { Type: 15, Name: '_443._tcp', Value: '3 1 1 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' },
      { Type: 0, Name: '*', Value: '192.0.2.3', SmartRoutingType: 1 },
    ];
    for (const record of all) await add(record);
    const exported = await exportOf();

    const copy = (await t.post('/dnszone', { Domain: 'example.net' })).body.Id as number;
    const res = await importInto(copy, exported.replaceAll('$ORIGIN example.com.', '$ORIGIN example.net.'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ RecordsSuccessful: all.length, RecordsFailed: 0, RecordsSkipped: 3 });

    expect(withoutIds(await recordsOf(copy))).toEqual(withoutIds(await recordsOf()));
    expect(recordLines(await exportOf(copy))).toEqual(recordLines(exported));
  });

  it('imports nothing twice: records the zone already has are skipped', async () => {
    await add({ Type: 0, Name: 'www', Value: '192.0.2.1' });
    await add({ Type: 2, Name: 'shop', Value: 'shops.example.net' });
    const text = await exportOf();
    expect((await importInto(zoneId, text)).body).toEqual({ RecordsSuccessful: 0, RecordsFailed: 0, RecordsSkipped: 5 });
    expect(await recordsOf()).toHaveLength(2);
  });
});

describe('POST /dnszone/{zoneId}/import', () => {
  it('reads the zone-file syntax: directives, names, omitted fields, groups, comments and quoting', async () => {
    const file = [
      '; a zone from elsewhere',
      '$TTL 1h',
      '@       IN  SOA ns.old.example. admin.old.example. ( 1 2 3 4 5 )',
      "        IN  NS  ns.old.example.        ; another provider's server",
      'www         A   192.0.2.1',
      '            A   192.0.2.2              ; same owner, the line starts with a blank',
      'mail 600 IN MX ( 10',
      '                 mx1 )                 ; relative target',
      'IN-ADDR IN 900 TXT "two" "strings" joined',
      'esc TXT "tab\\009and \\"quote\\""',
      'WWW2.example.com. CNAME www',
      '$ORIGIN sub.example.com.',
      'deep  AAAA 2001:db8::2',
      '@     TXT   "at the new origin"',
      '$ORIGIN example.com.',
      'caa  CAA 0 ISSUE ca.example.net',
      'srv  SRV 0 0 443 @',
      '',
    ].join('\r\n');
    const res = await importInto(zoneId, file);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ RecordsSuccessful: 11, RecordsFailed: 0, RecordsSkipped: 1 });
    const imported = (await recordsOf()).map((r) => [r['Type'], r['Name'], r['Ttl'], r['Value'], r['Priority'], r['Port'], r['Tag']]);
    expect(imported).toEqual([
      [12, '', 3600, 'ns.old.example', 0, 0, null],
      [0, 'www', 3600, '192.0.2.1', 0, 0, null],
      [0, 'www', 3600, '192.0.2.2', 0, 0, null],
      [4, 'mail', 600, 'mx1.example.com', 10, 0, null],
      [3, 'IN-ADDR', 900, 'twostringsjoined', 0, 0, null],
      [3, 'esc', 3600, 'tab\tand "quote"', 0, 0, null],
      [2, 'WWW2', 3600, 'www.example.com', 0, 0, null],
      [1, 'deep.sub', 3600, '2001:db8::2', 0, 0, null],
      [3, 'sub', 3600, 'at the new origin', 0, 0, null],
      [9, 'caa', 3600, 'ca.example.net', 0, 0, 'issue'],
      [8, 'srv', 3600, 'example.com', 0, 443, null],
    ]);
  });

  it('takes the last TTL stated when there is no $TTL, else the platform default', async () => {
    const res = await importInto(zoneId, 'a A 192.0.2.1\nb 42 A 192.0.2.2\nc A 192.0.2.3\n');
    expect(res.body.RecordsSuccessful).toBe(3);
    expect((await recordsOf()).map((r) => r['Ttl'])).toEqual([300, 42, 42]);
  });

  it("counts records it cannot add as failed and the SOA and the zone's own NS records as skipped", async () => {
    const file = [
      '@ SOA ns1.cdn.example.test. hostmaster.cdn.example.test. 1 2 3 4 5',
      '@ NS ns1.cdn.example.test.',
      '@ NS NS2.CDN.EXAMPLE.TEST.',
      'ok A 192.0.2.1',
      'bad A 300.1.1.1',
      'short MX mail.example.com.',
      'chaos CH TXT "other class"',
      'elsewhere.example.org. A 192.0.2.1',
      'ssh SSHFP 1 1 0123abcd',
      'fake REDIRECT https://example.org/',
      'caa CAA 0 notatag "x"',
      '; edgeplane:PullZone cdn 300 PullZoneId=987654',
      '; edgeplane:Unknown x 300',
      '; edgeplane:A x 300 Value="192.0.2.1" Disabled=maybe',
      'set A 192.0.2.5 ; edgeplane: NoSuchSetting=1',
      '; an ordinary comment',
    ].join('\n');
    const res = await importInto(zoneId, file);
    expect(res.body).toEqual({ RecordsSuccessful: 1, RecordsFailed: 11, RecordsSkipped: 3 });
    expect((await recordsOf()).map((r) => r['Name'])).toEqual(['ok']);
  });

  it('answers 400 naming the line of a file it cannot read, and adds nothing', async () => {
    const cases: [string, string][] = [
      ['ok A 192.0.2.1\nbad TXT "not closed\n', 'Line 2'],
      ['ok A 192.0.2.1\nx MX ( 10\n mail.example.com.\n', 'Line 2'],
      ['x A 192.0.2.1 )', 'Line 1'],
      ['$INCLUDE /etc/passwd', 'Line 1'],
      ['$TTL forever', 'Line 1'],
      ['   A 192.0.2.1', 'Line 1'],
      ['x 4294967296 A 192.0.2.1', 'Line 1'],
      ['x IN', 'Line 1'],
    ];
    for (const [file, line] of cases) {
      const res = await importInto(zoneId, file);
      expectErrorBody(res, 400, `/dnszone/${zoneId}/import`);
      expect(errorFields(res)).toEqual(['body']);
      expect(res.body.detail).toMatch(new RegExp(`^${line}: `));
    }
    expect(await recordsOf()).toEqual([]);
  });

  it('accepts an empty file and a text/plain charset', async () => {
    expect((await importInto(zoneId, '')).body).toEqual({ RecordsSuccessful: 0, RecordsFailed: 0, RecordsSkipped: 0 });
    const res = await importInto(zoneId, 'www A 192.0.2.1', 'text/plain; charset=utf-8');
    expect(res.body.RecordsSuccessful).toBe(1);
  });

  it('accepts only text/plain, and text/plain nowhere else', async () => {
    const json = await importInto(zoneId, JSON.stringify('www A 192.0.2.1'), 'application/json');
    expectErrorBody(json, 415, `/dnszone/${zoneId}/import`);
    expect(json.body.detail).toContain('text/plain');
    expectErrorBody(await importInto(zoneId, 'www A 192.0.2.1', 'application/x-www-form-urlencoded'), 415);
    expectErrorBody(await t.request('POST', `/dnszone/${zoneId}`, 'x', undefined, { 'content-type': 'text/plain' }), 415);
    expectErrorBody(await t.request('PUT', `/dnszone/${zoneId}/records`, 'x', undefined, { 'content-type': 'text/plain' }), 415);
    expect(await recordsOf()).toEqual([]);
  });

  it("answers 404 for an unknown zone and for another account's, adding nothing", async () => {
    expectErrorBody(await importInto(999999, 'www A 192.0.2.1'), 404, '/dnszone/999999/import');
    const other = await t.newAccount();
    const res = await t.request('POST', `/dnszone/${zoneId}/import`, 'www A 192.0.2.1', other.key, { 'content-type': 'text/plain' });
    expectErrorBody(res, 404);
    expect(await recordsOf()).toEqual([]);
  });

  it("checks a PullZone record's pull zone in the importing account", async () => {
    const other = await t.newAccount();
    const foreign = (await t.post('/pullzone', { Name: 'foreign-pz', OriginUrl: 'https://origin.example' }, other.key)).body.Id as number;
    const own = (await t.post('/pullzone', { Name: 'own-pz', OriginUrl: 'https://origin.example' })).body.Id as number;
    const res = await importInto(zoneId, `; edgeplane:PullZone a 300 PullZoneId=${foreign}\n; edgeplane:PullZone b 300 PullZoneId=${own}\n`);
    expect(res.body).toEqual({ RecordsSuccessful: 1, RecordsFailed: 1, RecordsSkipped: 0 });
    expect((await recordsOf()).map((r) => [r['Name'], r['LinkName']])).toEqual([['b', String(own)]]);
  });

  it('imports a 10,000-record zone in one request, past the JSON body limit, and refuses a file over 16 MiB', async () => {
    const small = await createTestApp({ bodyLimit: 1024 });
    try {
      const zone = (await small.post('/dnszone', { Domain: 'example.com' })).body.Id as number;
      const lines = Array.from({ length: 10_000 }, (_, i) => `host-${i} 300 IN A 10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
      const res = await small.request('POST', `/dnszone/${zone}/import`, `$ORIGIN example.com.\n${lines.join('\n')}\n`, undefined, {
        'content-type': 'text/plain',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ RecordsSuccessful: 10_000, RecordsFailed: 0, RecordsSkipped: 0 });
      const page = await small.get(`/dnszone/${zone}/records?page=1&perPage=1000`);
      expect(page.status).toBe(200);

      const huge = `; ${'a'.repeat(1000)}\n`.repeat(17 * 1024);
      expectErrorBody(await small.request('POST', `/dnszone/${zone}/import`, huge, undefined, { 'content-type': 'text/plain' }), 413);
      expect((await small.get(`/dnszone/${zone}`)).body.Records).toHaveLength(10_000);
      // JSON bodies keep the configured limit.
      expectErrorBody(await small.post('/dnszone', { Domain: `${'a'.repeat(2000)}.com` }), 413);
    } finally {
      await small.close();
    }
  });
});
