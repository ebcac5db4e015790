/**
 * `POST /dnszone/{zoneId}/certificate/issue`: a DNS-01 style check against the DNS plane's own
 * authority (a fresh TXT record added, looked up, removed), then a wildcard certificate from the
 * local authority, which the edge presents for the names the zone points at it.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ZoneCertificate } from '../../../src/domain/certificates/zone-certificates.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, expectLeaf, readOnlyKey } from './support.js';

let t: TestContext;
let zoneId: number;
beforeEach(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
  zoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id as number;
});
afterEach(async () => {
  await t.close();
});

const issue = (id: number, body?: unknown, key?: string | null) => t.post(`/dnszone/${id}/certificate/issue`, body, key);
const records = async () => (await t.get(`/dnszone/${zoneId}`)).body.Records as { Name: string; Type: number }[];
const stored = (domain: string) => t.store.docs.get<ZoneCertificate>('zoneCertificate', t.accountId, `${zoneId}:${domain}`);

describe('POST /dnszone/{zoneId}/certificate/issue', () => {
  it("issues *.<domain> and <domain> after the check; the edge presents it for the zone's names that reach it", async () => {
    expect((await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'www', Value: '127.0.0.1', Ttl: 300 })).status).toBe(201);
    const res = await issue(zoneId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toBe('');
    // The challenge record is gone again.
    expect((await records()).map((r) => r.Name)).toEqual(['www']);

    const doc = (await stored('example.com'))!;
    expect(doc.doc).toMatchObject({ DnsZoneId: zoneId, Domain: 'example.com', Names: ['*.example.com', 'example.com'] });
    // The key is a credential, sealed at rest.
    expect(doc.doc.PrivateKey).not.toContain('PRIVATE KEY');

    const material = await t.app.services.certificates.edge.forName('www.example.com');
    expect(material.source).toBe('zone');
    await expectLeaf(t, new X509Certificate(material.certificatePem), createPrivateKey(material.privateKeyPem), ['*.example.com', 'example.com']);
    // A name the zone does not point at the edge gets the default certificate.
    expect((await t.app.services.certificates.edge.forName('mail.example.com')).source).toBe('default');
  });

  it('issues for a name inside the zone sent as Domain, and replaces a previous one', async () => {
    expect((await issue(zoneId, { Domain: 'Shop.Example.com' })).status).toBe(200);
    const first = (await stored('shop.example.com'))!.doc;
    expect(first.Names).toEqual(['*.shop.example.com', 'shop.example.com']);
    expect((await issue(zoneId, { Domain: 'shop.example.com' })).status).toBe(200);
    expect((await stored('shop.example.com'))!.doc.Certificate).not.toBe(first.Certificate);
    // No body, an empty object and a null Domain all mean the zone's own domain.
    expect((await issue(zoneId)).status).toBe(200);
    expect((await issue(zoneId, {})).status).toBe(200);
    expect((await issue(zoneId, { Domain: null })).status).toBe(200);
    expect((await stored('example.com'))!.doc.Names).toEqual(['*.example.com', 'example.com']);
  });

  it('fails the check when the name is delegated away, naming Domain, and leaves nothing behind', async () => {
    expect((await t.put(`/dnszone/${zoneId}/records`, { Type: 12, Name: 'sub', Value: 'ns1.elsewhere.test', Ttl: 300 })).status).toBe(201);
    const res = await issue(zoneId, { Domain: 'sub.example.com' });
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['Domain']);
    expect((await records()).map((r) => r.Name)).toEqual(['sub']);
    expect(await stored('sub.example.com')).toBeUndefined();
  });

  it('validates the body and the path', async () => {
    expect(errorFields(await issue(zoneId, { Domain: 'example.org' }))).toEqual(['Domain']);
    expect(errorFields(await issue(zoneId, { Domain: 'not a domain' }))).toEqual(['Domain']);
    expect(errorFields(await issue(zoneId, { Domain: 42 }))).toEqual(['Domain']);
    expect(errorFields(await t.post('/dnszone/abc/certificate/issue', {}))).toEqual(['zoneId']);
    expect(await records()).toEqual([]);
  });

  it('goes with its DNS zone: deleting the zone deletes its certificates', async () => {
    expect((await issue(zoneId)).status).toBe(200);
    expect((await issue(zoneId, { Domain: 'shop.example.com' })).status).toBe(200);
    const kept = (await t.post('/dnszone', { Domain: 'example.org' })).body.Id as number;
    expect((await issue(kept)).status).toBe(200);
    expect((await t.del(`/dnszone/${zoneId}`)).status).toBe(204);
    const left = async () =>
      (await t.store.docs.list<ZoneCertificate>('zoneCertificate', t.accountId, { offset: 0, limit: 10 })).items.map((d) => d.doc.Domain);
    // Gone in the zone's own transaction: by the time its 204 arrives.
    expect(await left()).toEqual(['example.org']);
  });

  it('answers 404 for unknown zones and other accounts, 401 without a key, 403 for read-only keys', async () => {
    expectErrorBody(await issue(999999), 404);
    const other = await t.newAccount();
    expectErrorBody(await issue(zoneId, undefined, other.key), 404);
    expectErrorBody(await issue(zoneId, undefined, null), 401);
    expectErrorBody(await issue(zoneId, undefined, await readOnlyKey(t)), 403);
    expect(await stored('example.com')).toBeUndefined();
    expect(await records()).toEqual([]);
  });
});
