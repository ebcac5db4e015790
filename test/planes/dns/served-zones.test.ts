/**
 * The DNS plane over real sockets, driven by `dig`, on both stores: zones managed through the API
 * answer at once, every change is in the very next answer, and what the zones answered shows in
 * their statistics and query logs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { type DnsPlane, dig, startTestDnsPlane } from '../../helpers/dns-plane.js';

let t: TestContext;
let dns: DnsPlane;
let zoneId: number;

const ADMIN = 'operator-token-0123456789abcdef';

beforeEach(async () => {
  t = await createTestApp({ adminToken: ADMIN, edgeAddresses: '192.0.2.80,2001:db8::80', nameservers: 'ns1.example-dns.test,ns2.example-dns.test' });
  const zone = await t.post('/dnszone', { Domain: 'served.test' });
  expect(zone.status).toBe(201);
  zoneId = zone.body.Id;
  dns = await startTestDnsPlane(t);
});
afterEach(async () => {
  await dns.close();
  await t.close();
});

const addRecord = async (record: Record<string, unknown>) => {
  const res = await t.put(`/dnszone/${zoneId}/records`, record);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { Id: number };
};

describe('the DNS plane', () => {
  it('answers a record with AA, echoing the case of the question', async () => {
    await addRecord({ Type: 0, Name: 'www', Value: '192.0.2.10', Ttl: 120 });
    const answer = await dig(dns, 'WwW.Served.Test', 'A');
    expect(answer.status).toBe('NOERROR');
    expect(answer.flags).toContain('aa');
    expect(answer.answer).toEqual([['WwW.Served.Test.', '120', 'IN', 'A', '192.0.2.10']]);
  });

  it('shows a change made through the API in the very next answer, and a deleted zone no more', async () => {
    const record = await addRecord({ Type: 0, Name: 'app', Value: '192.0.2.1' });
    expect((await dig(dns, 'app.served.test', 'A')).answer[0]?.[4]).toBe('192.0.2.1');
    expect((await t.post(`/dnszone/${zoneId}/records/${record.Id}`, { Value: '192.0.2.2' })).status).toBe(204);
    expect((await dig(dns, 'app.served.test', 'A')).answer[0]?.[4]).toBe('192.0.2.2');
    expect((await t.del(`/dnszone/${zoneId}/records/${record.Id}`)).status).toBe(204);
    expect((await dig(dns, 'app.served.test', 'A')).status).toBe('NXDOMAIN');
    expect((await t.del(`/dnszone/${zoneId}`)).status).toBe(204);
    expect((await dig(dns, 'served.test', 'SOA')).status).toBe('REFUSED');
  });

  it('serves the apex SOA and NS (the configured name servers) and a serial that grows with every change', async () => {
    const soa = (await dig(dns, 'served.test', 'SOA')).answer[0]!;
    expect(soa.slice(3, 5)).toEqual(['SOA', 'ns1.example-dns.test.']);
    const ns = (await dig(dns, 'served.test', 'NS')).answer.map((r) => r[4]);
    expect(ns).toEqual(['ns1.example-dns.test.', 'ns2.example-dns.test.']);
    await addRecord({ Type: 3, Name: 'txt', Value: 'v=1' });
    const after = (await dig(dns, 'served.test', 'SOA')).answer[0]!;
    expect(Number(after[6])).toBeGreaterThan(Number(soa[6]));
  });

  it('answers NXDOMAIN with the SOA in the authority section, and REFUSED outside every zone', async () => {
    const missing = await dig(dns, 'nothing.served.test', 'A');
    expect(missing.status).toBe('NXDOMAIN');
    expect(missing.authority[0]?.[3]).toBe('SOA');
    expect((await dig(dns, 'elsewhere.test', 'A')).status).toBe('REFUSED');
  });

  it("answers a PullZone record with the edge's addresses", async () => {
    const pullZone = await t.post('/pullzone', { Name: 'dns-linked', OriginUrl: 'https://origin.example' });
    await addRecord({ Type: 7, Name: 'cdn', PullZoneId: pullZone.body.Id });
    expect((await dig(dns, 'cdn.served.test', 'A')).answer.map((r) => r[4])).toEqual(['192.0.2.80']);
    expect((await dig(dns, 'cdn.served.test', 'AAAA')).answer.map((r) => r[4])).toEqual(['2001:db8::80']);
  });

  it('answers over TCP as over UDP', async () => {
    await addRecord({ Type: 4, Name: '', Value: 'mail.served.test', Priority: 10 });
    const tcp = await dig(dns, '+tcp', 'served.test', 'MX');
    expect(tcp.answer.map((r) => r.slice(3))).toEqual([['MX', '10', 'mail.served.test.']]);
  });

  it('signs the zone once DNSSEC is on: DNSKEY at the apex, RRSIG with the answers', async () => {
    await addRecord({ Type: 0, Name: 'signed', Value: '192.0.2.3' });
    const enabled = await t.post(`/dnszone/${zoneId}/dnssec`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ Enabled: true, Algorithm: 13, DigestType: 'SHA256', Flags: 257 });
    expect(enabled.body.DsRecord).toMatch(new RegExp(`^served\\.test\\. \\d+ IN DS ${enabled.body.KeyTag} 13 2 [0-9A-F]{64}$`));
    expect((await t.get(`/dnszone/${zoneId}`)).body.DnsSecEnabled).toBe(true);

    const dnskey = await dig(dns, '+dnssec', 'served.test', 'DNSKEY');
    expect(dnskey.answer.map((r) => r[3])).toEqual(expect.arrayContaining(['DNSKEY', 'RRSIG']));
    const signed = await dig(dns, '+dnssec', 'signed.served.test', 'A');
    expect(signed.answer.map((r) => r[3])).toEqual(['A', 'RRSIG']);

    const disabled = await t.del(`/dnszone/${zoneId}/dnssec`);
    expect(disabled.body).toMatchObject({ Enabled: false, DsRecord: null });
    expect((await dig(dns, '+dnssec', 'signed.served.test', 'A')).answer.map((r) => r[3])).toEqual(['A']);
  });

  it('counts what the zone answered in its statistics, by type', async () => {
    await addRecord({ Type: 0, Name: 'stat', Value: '192.0.2.4' });
    for (let i = 0; i < 3; i++) await dig(dns, 'stat.served.test', 'A');
    await dig(dns, 'stat.served.test', 'AAAA');
    await dig(dns, 'nope.served.test', 'TXT');
    const stats = await t.get(`/dnszone/${zoneId}/statistics`);
    expect(stats.status).toBe(200);
    expect(stats.body.TotalQueriesServed).toBe(5);
    expect(stats.body.QueriesByTypeChart).toEqual({ A: 3, AAAA: 1, TXT: 1 });
    expect(Object.values(stats.body.QueriesServedChart).reduce((a: number, b) => a + (b as number), 0)).toBe(5);
  });

  it('keeps a query log for a zone with logging on, read through the operator route', async () => {
    // Answered (and cached) before logging is on; then logged all the same: a zone's new settings drop what was cached under the old.
    await dig(dns, 'logged.served.test', 'A');
    expect((await t.post(`/dnszone/${zoneId}`, { LoggingEnabled: true, LoggingIPAnonymizationEnabled: true, LogAnonymizationType: 0 })).status).toBe(200);
    await dig(dns, 'logged.served.test', 'A');
    const log = await t.request('GET', `/_edgeplane/dnszones/${zoneId}/querylog`, undefined, null, { authorization: `Bearer ${ADMIN}` });
    expect(log.status).toBe(200);
    expect(log.body).toEqual([
      { Time: expect.any(String), ClientIp: '127.0.0.0', Name: 'logged.served.test', Type: 'A', ResponseCode: 'NXDOMAIN', Transport: 'udp' },
    ]);
  });
});
