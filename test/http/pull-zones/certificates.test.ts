import { createPrivateKey, X509Certificate } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Hostname } from '../../../src/schemas/pull-zone.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { base64, CERTIFICATE_KEY_PEM, CERTIFICATE_PEM, OTHER_KEY_PEM } from './fixtures.js';
import { CDN_DOMAIN, createZone, expectShape, readOnlyKey, readZone } from './support.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterEach(async () => {
  await t.close();
});

const upload = (extra: Record<string, unknown> = {}) => ({
  Hostname: 'cdn.example.com',
  Certificate: base64(CERTIFICATE_PEM),
  CertificateKey: base64(CERTIFICATE_KEY_PEM),
  ...extra,
});
const addCertificate = (id: number, body: Record<string, unknown>, key?: string | null) => t.post(`/pullzone/${id}/addCertificate`, body, key);
const removeCertificate = (id: number, Hostname: string, key?: string | null) => t.del(`/pullzone/${id}/removeCertificate`, { Hostname }, key);
const asText = (base64url: string) => Buffer.from(base64url, 'base64url').toString('utf8');

async function zoneWithHostname() {
  const zone = await createZone(t);
  expect((await t.post(`/pullzone/${zone.Id}/addHostname`, { Hostname: 'cdn.example.com' })).status).toBe(204);
  return zone;
}

describe('POST /pullzone/{id}/addCertificate', () => {
  it('installs the certificate; reads show it only with includeCertificate, and the key is sealed at rest', async () => {
    const zone = await zoneWithHostname();
    const res = await addCertificate(zone.Id, upload({ Hostname: 'CDN.example.com' }));
    expect(res.status).toBe(204);
    expect(res.body).toBe('');

    const plain = (await readZone(t, zone.Id)).Hostnames![1]!;
    expectShape(Hostname, plain);
    expect(plain).toMatchObject({ Value: 'cdn.example.com', HasCertificate: true, CertificateProvisionType: 3, Certificate: '', CertificateKey: '' });
    const full = (await readZone(t, zone.Id, '?includeCertificate=true')).Hostnames![1]!;
    expect(asText(full.Certificate)).toBe(CERTIFICATE_PEM);
    expect(asText(full.CertificateKey)).toBe(CERTIFICATE_KEY_PEM);

    const raw = await t.store.docs.get<{ Hostnames: { CertificateKey: string }[] }>('pullZone', t.accountId, String(zone.Id));
    expect(raw!.doc.Hostnames[1]!.CertificateKey).not.toContain(full.CertificateKey);
    await t.restart();
    expect((await readZone(t, zone.Id, '?includeCertificate=true')).Hostnames![1]).toEqual(full);
  });

  it('accepts PEM text as sent, Base64Url, and Base64 of binary (DER) files', async () => {
    const zone = await zoneWithHostname();
    expect((await addCertificate(zone.Id, upload({ Certificate: CERTIFICATE_PEM, CertificateKey: CERTIFICATE_KEY_PEM }))).status).toBe(204);
    const url = upload({ Certificate: Buffer.from(CERTIFICATE_PEM).toString('base64url') });
    expect((await addCertificate(zone.Id, url)).status).toBe(204);
    expect(asText((await readZone(t, zone.Id, '?includeCertificate=true')).Hostnames![1]!.Certificate)).toBe(CERTIFICATE_PEM);

    const derCertificate = new X509Certificate(CERTIFICATE_PEM).raw;
    for (const type of ['pkcs8', 'sec1'] as const) {
      const derKey = createPrivateKey(CERTIFICATE_KEY_PEM).export({ format: 'der', type });
      const res = await addCertificate(zone.Id, upload({ Certificate: derCertificate.toString('base64'), CertificateKey: derKey.toString('base64') }));
      expect(res.status, type).toBe(204);
      const stored = (await readZone(t, zone.Id, '?includeCertificate=true')).Hostnames![1]!;
      expect(Buffer.from(stored.CertificateKey, 'base64url').equals(derKey)).toBe(true);
    }
  });

  it('refuses what does not parse, a key of another certificate, and the system hostname', async () => {
    const zone = await zoneWithHostname();
    for (const [body, field] of [
      [upload({ Certificate: 'not base64 !' }), 'Certificate'],
      [upload({ Certificate: base64('just text') }), 'Certificate'],
      [upload({ CertificateKey: base64('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n') }), 'CertificateKey'],
      [upload({ CertificateKey: base64(OTHER_KEY_PEM) }), 'CertificateKey'],
      [upload({ Certificate: '' }), 'Certificate'],
      [upload({ CertificateKey: undefined }), 'CertificateKey'],
      [upload({ Hostname: `my-zone.${CDN_DOMAIN}` }), 'Hostname'],
    ] as const) {
      const res = await addCertificate(zone.Id, body);
      expectErrorBody(res, 400, `/pullzone/${zone.Id}/addCertificate`);
      expect(errorFields(res)).toEqual([field]);
    }
    expect((await readZone(t, zone.Id)).Hostnames!.map((h) => h.HasCertificate)).toEqual([true, false]);
  });

  it('answers 404 for a hostname not on the zone and for unknown or foreign zones; needs a writing key', async () => {
    const zone = await zoneWithHostname();
    expectErrorBody(await addCertificate(zone.Id, upload({ Hostname: 'other.example.com' })), 404);
    expectErrorBody(await addCertificate(999999, upload()), 404);
    const other = await t.newAccount();
    expectErrorBody(await addCertificate(zone.Id, upload(), other.key), 404);
    expectErrorBody(await addCertificate(zone.Id, upload(), null), 401);
    expectErrorBody(await addCertificate(zone.Id, upload(), await readOnlyKey(t)), 403);
    expect((await readZone(t, zone.Id)).Hostnames![1]!.HasCertificate).toBe(false);
  });
});

describe('DELETE /pullzone/{id}/removeCertificate', () => {
  it('removes the certificate and its key; removing it again is a 404', async () => {
    const zone = await zoneWithHostname();
    await addCertificate(zone.Id, upload());
    const res = await removeCertificate(zone.Id, 'cdn.example.com');
    expect(res.status).toBe(204);
    expect((await readZone(t, zone.Id, '?includeCertificate=true')).Hostnames![1]).toMatchObject({
      HasCertificate: false,
      Certificate: '',
      CertificateKey: '',
      CertificateProvisionType: 0,
    });
    expectErrorBody(await removeCertificate(zone.Id, 'cdn.example.com'), 404);
  });

  it("keeps the platform's certificate of the system hostname (400); 404 for unknown hostnames and zones; needs a writing key", async () => {
    const zone = await zoneWithHostname();
    await addCertificate(zone.Id, upload());
    const system = await removeCertificate(zone.Id, `my-zone.${CDN_DOMAIN}`);
    expectErrorBody(system, 400);
    expect(errorFields(system)).toEqual(['Hostname']);
    expectErrorBody(await removeCertificate(zone.Id, 'other.example.com'), 404);
    expectErrorBody(await removeCertificate(999999, 'cdn.example.com'), 404);
    const other = await t.newAccount();
    expectErrorBody(await removeCertificate(zone.Id, 'cdn.example.com', other.key), 404);
    expectErrorBody(await removeCertificate(zone.Id, 'cdn.example.com', null), 401);
    expectErrorBody(await removeCertificate(zone.Id, 'cdn.example.com', await readOnlyKey(t)), 403);
    expect(errorFields(await t.del(`/pullzone/${zone.Id}/removeCertificate`, {}))).toEqual(['Hostname']);
    expect((await readZone(t, zone.Id)).Hostnames!.map((h) => h.HasCertificate)).toEqual([true, true]);
  });
});
