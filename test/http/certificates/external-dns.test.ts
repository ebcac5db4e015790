/**
 * The external DNS certificate flow: `requestExternalDnsCertificate` publishes (or hands out) a TXT
 * record, `completeExternalDnsCertificate` looks it up for real — through the DNS plane's own
 * authority for names in edgeplane's zones, through a real upstream name server (NSD, started
 * here) for the others — and only then installs a certificate from the local authority.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorFields, expectErrorBody } from '../../helpers/app.js';
import { expectOwnerOnly, useCertificateFlow } from '../../helpers/certificate-flow.js';
import { dig, startTestDnsPlane } from '../../helpers/dns-plane.js';
import { type DnsServer, startNsd } from '../../helpers/nsd.js';
import { CDN_DOMAIN, expectIssued, readHostname, zoneWithHostname } from './support.js';

const SOA = 'ns1.elsewhere.test. hostmaster.elsewhere.test. 1 7200 3600 1209600 300';
/** A domain hosted by another DNS provider: its TXT records are what the user published there. */
const outsideZone = (value: string) => `$ORIGIN outside.test.
@ 3600 IN SOA ${SOA}
@ 3600 IN NS ns1.elsewhere.test.
_acme-challenge.cdn 60 IN TXT "${value}"
_acme-challenge.wrong 60 IN TXT "not-the-value"
`;

const flow = useCertificateFlow('Dns');
const { request, complete } = flow;

describe('a hostname inside a DNS zone of the account', () => {
  it('gets its TXT record published by edgeplane, served by the DNS plane, checked, then removed', async () => {
    const t = await flow.open();
    const zoneId = await zoneWithHostname(t, 'cdn.example.com');
    const dnsZoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id as number;

    const res = await request('CDN.example.com');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      Hostname: 'cdn.example.com',
      RecordName: '_acme-challenge.cdn.example.com',
      RecordType: 'TXT',
      RecordValue: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      PublishedInDnsZoneId: dnsZoneId,
      ExpiresAt: '2026-01-02T00:00:00.000Z',
    });
    const value = res.body.RecordValue as string;
    const records = (await t.get(`/dnszone/${dnsZoneId}`)).body.Records as { Name: string; Type: number; Value: string }[];
    expect(records).toContainEqual(expect.objectContaining({ Name: '_acme-challenge.cdn', Type: 3, Value: value }));

    const plane = await startTestDnsPlane(t);
    try {
      const answer = await dig(plane, '_acme-challenge.cdn.example.com', 'TXT');
      expect(answer.status).toBe('NOERROR');
      expect(answer.answer.map((r) => r.slice(4).join(' '))).toEqual([`"${value}"`]);
    } finally {
      await plane.close();
    }

    const done = await complete('cdn.example.com');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toBe('');
    const hostname = await readHostname(t, zoneId, 'cdn.example.com');
    expect(hostname.CertificateProvisionType).toBe(2);
    await expectIssued(t, hostname, ['cdn.example.com']);
    const after = (await t.get(`/dnszone/${dnsZoneId}`)).body.Records as { Name: string }[];
    expect(after.filter((r) => r.Name === '_acme-challenge.cdn')).toEqual([]);

    // Completed: it cannot be completed twice.
    const again = await complete('cdn.example.com');
    expectErrorBody(again, 400);
    expect(errorFields(again)).toEqual(['Hostname']);
  });

  it('fails when the record is not served, saying what the DNS plane answers; a new request replaces the record', async () => {
    const t = await flow.open();
    const zoneId = await zoneWithHostname(t, 'cdn.example.com');
    const dnsZoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id as number;
    const first = (await request('cdn.example.com')).body;
    const second = (await request('cdn.example.com')).body;
    expect(second.RecordValue).not.toBe(first.RecordValue);
    const published = ((await t.get(`/dnszone/${dnsZoneId}`)).body.Records as { Id: number; Name: string; Value: string }[]).filter(
      (r) => r.Name === '_acme-challenge.cdn',
    );
    expect(published.map((r) => r.Value)).toEqual([second.RecordValue]);

    // The user removes it before completing.
    expect((await t.del(`/dnszone/${dnsZoneId}/records/${published[0]!.Id}`)).status).toBe(204);
    const res = await complete('cdn.example.com');
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['Hostname']);
    expect(res.body.detail).toContain('no TXT record');
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(false);
  });

  it('expires after a day', async () => {
    const t = await flow.open();
    await zoneWithHostname(t, 'cdn.example.com');
    await t.post('/dnszone', { Domain: 'example.com' });
    expect((await request('cdn.example.com')).status).toBe(200);
    t.clock.advance(24 * 3600 * 1000 + 1);
    const res = await complete('cdn.example.com');
    expectErrorBody(res, 400);
    expect(res.body.detail).toContain('expired');
  });
});

describe('a hostname whose domain is hosted elsewhere', () => {
  let dir: string;
  let nsd: DnsServer;
  const VALUE = 'published-by-the-user';
  const zones = () => [{ name: 'outside.test', file: join(dir, 'outside.zone') }];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgeplane-certs-'));
    writeFileSync(join(dir, 'outside.zone'), outsideZone(VALUE));
    nsd = await startNsd(join(dir, 'nsd'), zones());
  });
  /**
   * The user publishes `value`: NSD restarts on its port with the new zone file. Not a SIGHUP
   * reload: while NSD reloads, its old server process still answers some queries with the old
   * zone after the new one has answered (a CI run saw exactly that).
   */
  async function publish(value: string) {
    writeFileSync(join(dir, 'outside.zone'), outsideZone(value));
    const port = nsd.port;
    await nsd.stop();
    nsd = await startNsd(join(dir, 'nsd'), zones(), port);
  }
  afterAll(async () => {
    await nsd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is checked through the upstream resolver: the value must be the one handed out', async () => {
    const t = await flow.open({ dnsUpstream: `127.0.0.1:${nsd.port}` });
    const zoneId = await zoneWithHostname(t, 'cdn.outside.test');
    await t.post(`/pullzone/${zoneId}/addHostname`, { Hostname: 'wrong.outside.test' });
    const res = await request('cdn.outside.test');
    expect(res.body).toMatchObject({ RecordName: '_acme-challenge.cdn.outside.test', PublishedInDnsZoneId: null });

    // The name server holds a value, not this challenge's: refused, saying what it found.
    const wrong = await request('wrong.outside.test');
    expect(wrong.status).toBe(200);
    const refused = await complete('wrong.outside.test');
    expectErrorBody(refused, 400);
    expect(refused.body.detail).toContain('"not-the-value"');

    // The test plays the user: the zone file gets this challenge's value.
    await publish(res.body.RecordValue as string);
    const done = await complete('cdn.outside.test');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const hostname = await readHostname(t, zoneId, 'cdn.outside.test');
    expect(hostname.CertificateProvisionType).toBe(2);
    await expectIssued(t, hostname, ['cdn.outside.test']);
  });

  it('cannot be checked without an upstream resolver', async () => {
    const t = await flow.open();
    await zoneWithHostname(t, 'cdn.outside.test');
    expect((await request('cdn.outside.test')).status).toBe(200);
    const res = await complete('cdn.outside.test');
    expectErrorBody(res, 400);
    expect(res.body.detail).toContain('EDGEPLANE_DNS_UPSTREAM');
  });
});

describe('the rules', () => {
  it('validate the body, refuse the system hostname and completing before requesting', async () => {
    const t = await flow.open();
    await zoneWithHostname(t, 'cdn.example.com');
    for (const send of [request, complete]) {
      expect(errorFields(await t.post(send === request ? flow.paths.request : flow.paths.complete, {}))).toEqual(['Hostname']);
      expect(errorFields(await send(''))).toEqual(['Hostname']);
      expect(errorFields(await send(42))).toEqual(['Hostname']);
      expect(errorFields(await send('not a host'))).toEqual(['Hostname']);
    }
    expect(errorFields(await request(`my-zone.${CDN_DOMAIN}`))).toEqual(['Hostname']);
    const early = await complete('cdn.example.com');
    expectErrorBody(early, 400);
    expect(early.body.detail).toContain('requestExternalDnsCertificate');
  });

  it('answer 404 for unknown hostnames and other accounts, 403 for read-only keys', async () => {
    const t = await flow.open();
    const zoneId = await zoneWithHostname(t, 'cdn.example.com');
    const dnsZoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id as number;
    await expectOwnerOnly(flow, 'cdn.example.com');
    // Nothing was published on their behalf.
    expect(((await t.get(`/dnszone/${dnsZoneId}`)).body.Records as unknown[]).length).toBe(0);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(false);
  });

  it('never publish into another account’s DNS zone', async () => {
    const t = await flow.open();
    const other = await t.newAccount();
    const theirs = (await t.post('/dnszone', { Domain: 'example.com' }, other.key)).body.Id as number;
    await zoneWithHostname(t, 'cdn.example.com');
    const res = await request('cdn.example.com');
    expect(res.body.PublishedInDnsZoneId).toBeNull();
    expect(((await t.get(`/dnszone/${theirs}`, other.key)).body.Records as unknown[]).length).toBe(0);
  });
});
