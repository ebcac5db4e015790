/** What the certificate tests share: a pull zone with a custom hostname, and reading back what was issued. */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { expect } from 'vitest';
import type { HostnameT } from '../../../src/schemas/pull-zone.js';
import type { TestContext } from '../../helpers/app.js';

export const CDN_DOMAIN = 'cdn.example.test';

export async function zoneWithHostname(t: TestContext, hostname = 'cdn.example.com', name = 'my-zone', key?: string): Promise<number> {
  const created = await t.post('/pullzone', { Name: name, OriginUrl: 'https://origin.example.com' }, key);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = (created.body as { Id: number }).Id;
  expect((await t.post(`/pullzone/${id}/addHostname`, { Hostname: hostname }, key)).status).toBe(204);
  return id;
}

/** A hostname of a zone as the API reads it, with its certificate. */
export async function readHostname(t: TestContext, zoneId: number, value: string, key?: string): Promise<HostnameT> {
  const res = await t.get(`/pullzone/${zoneId}?includeCertificate=true`, key);
  expect(res.status).toBe(200);
  const found = (res.body as { Hostnames: HostnameT[] }).Hostnames.find((h) => h.Value === value);
  expect(found, `hostname ${value}`).toBeDefined();
  return found!;
}

export const rootOf = async (t: TestContext) => new X509Certificate(await t.app.services.certificates.rootPem());

/**
 * The certificate a hostname holds, checked the way a client that trusts the local authority
 * checks it: signed by the root, valid now, for exactly `names`, with the key stored beside it.
 */
export async function expectIssued(t: TestContext, hostname: HostnameT, names: string[]): Promise<X509Certificate> {
  expect(hostname.HasCertificate).toBe(true);
  const certificate = new X509Certificate(Buffer.from(hostname.Certificate, 'base64url'));
  const key = createPrivateKey(Buffer.from(hostname.CertificateKey, 'base64url'));
  return expectLeaf(t, certificate, key, names);
}

export async function expectLeaf(
  t: TestContext,
  certificate: X509Certificate,
  key: ReturnType<typeof createPrivateKey>,
  names: string[],
): Promise<X509Certificate> {
  const root = await rootOf(t);
  expect(certificate.verify(root.publicKey)).toBe(true);
  expect(certificate.checkIssued(root)).toBe(true);
  expect(certificate.checkPrivateKey(key)).toBe(true);
  expect(certificate.subjectAltName).toBe(names.map((n) => `DNS:${n}`).join(', '));
  expect(certificate.ca).toBe(false);
  const now = Date.now();
  expect(Date.parse(certificate.validFrom)).toBeLessThan(now);
  expect(Date.parse(certificate.validTo)).toBeGreaterThan(now + 80 * 24 * 3600 * 1000);
  return certificate;
}

export const readOnlyKey = async (t: TestContext): Promise<string> => (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
