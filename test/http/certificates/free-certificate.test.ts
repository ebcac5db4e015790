/**
 * `GET /pullzone/loadFreeCertificate` and `POST /pullzone/{id}/updatePrivateKeyType`: certificates
 * from edgeplane's local authority, stored on the hostname like an uploaded one, in the key type
 * the hostname asks for.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, expectIssued, readHostname, readOnlyKey, zoneWithHostname } from './support.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const loadFree = (hostname: string, extra = '', key?: string | null) =>
  t.get(`/pullzone/loadFreeCertificate?hostname=${encodeURIComponent(hostname)}${extra}`, key);
const updateKeyType = (zoneId: number, body: unknown, key?: string | null) => t.post(`/pullzone/${zoneId}/updatePrivateKeyType`, body, key);

describe('GET /pullzone/loadFreeCertificate', () => {
  it('issues an ECDSA certificate for the hostname from the local authority and installs it (HTTP-validated)', async () => {
    const zoneId = await zoneWithHostname(t);
    const res = await loadFree('CDN.Example.com');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toBe('');
    const hostname = await readHostname(t, zoneId, 'cdn.example.com');
    expect(hostname.CertificateProvisionType).toBe(1);
    const certificate = await expectIssued(t, hostname, ['cdn.example.com']);
    expect(certificate.publicKey.asymmetricKeyType).toBe('ec');
    // The key is a credential: sealed at rest like an uploaded one.
    const raw = await t.store.docs.get<{ Hostnames: { CertificateKey: string }[] }>('pullZone', t.accountId, String(zoneId));
    expect(raw!.doc.Hostnames[1]!.CertificateKey).not.toContain(hostname.CertificateKey);
    // Asked again: a new certificate replaces it.
    expect((await loadFree('cdn.example.com')).status).toBe(200);
    const again = await readHostname(t, zoneId, 'cdn.example.com');
    expect(again.Certificate).not.toBe(hostname.Certificate);
  });

  it('records DNS validation when useOnlyHttp01=false and the hostname lies in a DNS zone of the account', async () => {
    const zoneId = await zoneWithHostname(t);
    expect((await t.post('/dnszone', { Domain: 'example.com' })).status).toBe(201);
    expect((await loadFree('cdn.example.com', '&useOnlyHttp01=false')).status).toBe(200);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).CertificateProvisionType).toBe(2);
    expect((await loadFree('cdn.example.com', '&useOnlyHttp01=true')).status).toBe(200);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).CertificateProvisionType).toBe(1);
  });

  it('refuses the system hostname and zones that turned built-in issuance off, naming the field', async () => {
    const zoneId = await zoneWithHostname(t);
    const system = await loadFree(`my-zone.${CDN_DOMAIN}`);
    expectErrorBody(system, 400);
    expect(errorFields(system)).toEqual(['hostname']);
    expect((await t.post(`/pullzone/${zoneId}`, { DisableBuiltInCertificateIssuance: true })).status).toBe(200);
    const disabled = await loadFree('cdn.example.com');
    expectErrorBody(disabled, 400);
    expect(errorFields(disabled)).toEqual(['hostname']);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(false);
  });

  it('validates the query', async () => {
    expect(errorFields(await t.get('/pullzone/loadFreeCertificate'))).toEqual(['hostname']);
    expect(errorFields(await loadFree('not a host name'))).toEqual(['hostname']);
    expect(errorFields(await loadFree('cdn.example.com', '&useOnlyHttp01=maybe'))).toEqual(['useOnlyHttp01']);
  });

  it('answers 404 for unknown hostnames and other accounts, 401 without a key, 403 for read-only keys', async () => {
    const zoneId = await zoneWithHostname(t);
    expectErrorBody(await loadFree('unknown.example.com'), 404);
    const other = await t.newAccount();
    expectErrorBody(await loadFree('cdn.example.com', '', other.key), 404);
    expectErrorBody(await loadFree('cdn.example.com', '', null), 401);
    expectErrorBody(await loadFree('cdn.example.com', '', await readOnlyKey(t)), 403);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(false);
  });
});

describe('POST /pullzone/{id}/updatePrivateKeyType', () => {
  it('sets the key type of later certificates', async () => {
    const zoneId = await zoneWithHostname(t);
    const res = await updateKeyType(zoneId, { Hostname: 'cdn.example.com', KeyType: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toBe('');
    const hostname = await readHostname(t, zoneId, 'cdn.example.com');
    expect(hostname).toMatchObject({ CertificateKeyType: 1, HasCertificate: false });
    expect((await loadFree('cdn.example.com')).status).toBe(200);
    const certificate = await expectIssued(t, await readHostname(t, zoneId, 'cdn.example.com'), ['cdn.example.com']);
    expect(certificate.publicKey.asymmetricKeyType).toBe('rsa');
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('issues a certificate the platform issued again at once with the new type; an uploaded one stays', async () => {
    const zoneId = await zoneWithHostname(t);
    expect((await loadFree('cdn.example.com')).status).toBe(200);
    const before = await readHostname(t, zoneId, 'cdn.example.com');
    expect((await updateKeyType(zoneId, { Hostname: 'cdn.example.com', KeyType: 1 })).status).toBe(200);
    const after = await readHostname(t, zoneId, 'cdn.example.com');
    expect(after.Certificate).not.toBe(before.Certificate);
    expect(after.CertificateProvisionType).toBe(1);
    expect((await expectIssued(t, after, ['cdn.example.com'])).publicKey.asymmetricKeyType).toBe('rsa');
    // The same type again changes nothing.
    expect((await updateKeyType(zoneId, { Hostname: 'cdn.example.com', KeyType: 1 })).status).toBe(200);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).Certificate).toBe(after.Certificate);

    // An uploaded certificate is the user's: only the setting changes.
    const issued = after;
    expect(
      (
        await t.post(`/pullzone/${zoneId}/addCertificate`, {
          Hostname: 'cdn.example.com',
          Certificate: issued.Certificate,
          CertificateKey: issued.CertificateKey,
        })
      ).status,
    ).toBe(204);
    expect((await updateKeyType(zoneId, { Hostname: 'cdn.example.com', KeyType: 0 })).status).toBe(200);
    const custom = await readHostname(t, zoneId, 'cdn.example.com');
    expect(custom).toMatchObject({ CertificateKeyType: 0, CertificateProvisionType: 3, Certificate: issued.Certificate });
  });

  it('validates the body, naming the field', async () => {
    const zoneId = await zoneWithHostname(t);
    expect(errorFields(await updateKeyType(zoneId, { Hostname: 'cdn.example.com', KeyType: 2 }))).toEqual(['KeyType']);
    expect(errorFields(await updateKeyType(zoneId, { Hostname: 'cdn.example.com' }))).toEqual(['KeyType']);
    expect(errorFields(await updateKeyType(zoneId, { KeyType: 1 }))).toEqual(['Hostname']);
    expect(errorFields(await updateKeyType(zoneId, { Hostname: '', KeyType: 1 }))).toEqual(['Hostname']);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).CertificateKeyType).toBe(0);
  });

  it('answers 404 for unknown zones, hostnames and other accounts, 403 for read-only keys', async () => {
    const zoneId = await zoneWithHostname(t);
    const body = { Hostname: 'cdn.example.com', KeyType: 1 };
    expectErrorBody(await updateKeyType(999999, body), 404);
    expectErrorBody(await updateKeyType(zoneId, { ...body, Hostname: 'other.example.com' }), 404);
    const other = await t.newAccount();
    expectErrorBody(await updateKeyType(zoneId, body, other.key), 404);
    expectErrorBody(await updateKeyType(zoneId, body, await readOnlyKey(t)), 403);
    expectErrorBody(await updateKeyType(zoneId, body, null), 401);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).CertificateKeyType).toBe(0);
  });
});
