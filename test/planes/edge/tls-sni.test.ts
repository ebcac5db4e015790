/**
 * The edge's TLS: real handshakes with SNI against the edge-tls listener (certificate options from
 * src/planes/edge/tls.ts), checked by node:tls and by `curl --cacert` with the root
 * `edgeplane ca export` prints. Each name gets the certificate the store says: the hostname's
 * own, one from the local authority, the DNS zone's wildcard, or the default one; and the oldest
 * TLS version its zone accepts.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdgeCore } from '../../../src/planes/edge/core.js';
import { listenEdgeTls } from '../../../src/planes/edge/listen.js';
import type { RunningPlane } from '../../../src/planes/plane.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { ensureDebianPackage } from '../../helpers/debian-package.js';
import { startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';
import { base64, CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../../http/pull-zones/fixtures.js';

const run = promisify(execFile);
const CDN_DOMAIN = 'cdn.example.test';

let t: TestContext;
let plane: RunningPlane;
let origin: TestOrigin;
const planeErrors: unknown[] = [];
let port: number;
let dir: string;
let rootFile: string;
let zoneId: number;

beforeAll(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-tls-'));
  rootFile = join(dir, 'root.pem');
  writeFileSync(rootFile, await t.app.services.certificates.rootPem());
  origin = await startOrigin((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('edge'));
  zoneId = (await t.post('/pullzone', { Name: 'site', OriginUrl: origin.url })).body.Id as number;
  for (const Hostname of ['cdn.example.com', 'own.example.com', 'issued.example.com'])
    expect((await t.post(`/pullzone/${zoneId}/addHostname`, { Hostname })).status).toBe(204);
  expect(
    (
      await t.post(`/pullzone/${zoneId}/addCertificate`, {
        Hostname: 'cdn.example.com',
        Certificate: base64(CERTIFICATE_PEM),
        CertificateKey: base64(CERTIFICATE_KEY_PEM),
      })
    ).status,
  ).toBe(204);
  const core = createEdgeCore(t.app.services, {
    cdnDomain: CDN_DOMAIN,
    cacheBytes: t.config.edgeCacheBytes,
    logError: (error) => planeErrors.push(error),
  });
  plane = await listenEdgeTls(core, t.app.services.certificates.edge, '127.0.0.1', 0);
  port = Number(new URL(plane.url).port);
  await ensureDebianPackage('curl', 'curl');
});
afterAll(async () => {
  expect(planeErrors).toEqual([]);
  await plane?.close();
  await origin?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Handshake {
  certificate: PeerCertificate;
  protocol: string | null;
  authorized: boolean;
  authorizationError: string | undefined;
}

/** A handshake as a client trusting the local root makes it; `servername` undefined sends no SNI. */
function handshake(
  servername: string | undefined,
  versions: { min?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2'; max?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' } = {},
): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port,
      ...(servername ? { servername } : {}),
      rejectUnauthorized: false,
      minVersion: versions.min ?? 'TLSv1.2',
      maxVersion: versions.max ?? 'TLSv1.3',
      // TLS 1.0 handshakes sign with SHA-1, which OpenSSL's default security level refuses.
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    socket.once('secureConnect', () => {
      resolve({
        certificate: socket.getPeerCertificate(),
        protocol: socket.getProtocol(),
        authorized: socket.authorized,
        authorizationError: socket.authorizationError?.toString(),
      });
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

const names = (certificate: PeerCertificate) => certificate.subjectaltname;
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

/** `curl --cacert root` over the name, resolved to the test server: exit code and body. */
async function curl(name: string, ...extra: string[]): Promise<{ code: number; body: string }> {
  try {
    const { stdout } = await run('curl', [
      '-sS',
      '--max-time',
      '10',
      '--cacert',
      rootFile,
      '--resolve',
      `${name}:${port}:127.0.0.1`,
      ...extra,
      `https://${name}:${port}/`,
    ]);
    return { code: 0, body: stdout };
  } catch (error) {
    return { code: (error as { code: number }).code, body: '' };
  }
}

describe('the certificate presented per name (SNI)', () => {
  it("is the hostname's uploaded certificate when it has one", async () => {
    const { certificate } = await handshake('cdn.example.com');
    expect(certificate.fingerprint256).toBe(fingerprint(CERTIFICATE_PEM));
  });

  it('is issued by the local authority for a hostname without one, and for the system hostname: curl trusts it with the root', async () => {
    for (const name of ['own.example.com', `site.${CDN_DOMAIN}`]) {
      const { certificate } = await handshake(name);
      expect(names(certificate)).toBe(`DNS:${name}`);
      expect(await curl(name)).toEqual({ code: 0, body: 'edge' });
    }
    // Without the root, curl refuses it (exit 60: the peer's certificate cannot be verified).
    const untrusted = await run('curl', ['-sS', '--max-time', '10', '--resolve', `own.example.com:${port}:127.0.0.1`, `https://own.example.com:${port}/`]).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
    expect(untrusted).toBe(60);
  });

  it('follows the API: a free certificate loaded for a hostname is presented from then on', async () => {
    const before = (await handshake('issued.example.com')).certificate;
    expect((await t.get('/pullzone/loadFreeCertificate?hostname=issued.example.com')).status).toBe(200);
    const stored = (await t.get(`/pullzone/${zoneId}?includeCertificate=true`)).body.Hostnames.find((h: { Value: string }) => h.Value === 'issued.example.com');
    const after = (await handshake('issued.example.com')).certificate;
    expect(after.fingerprint256).not.toBe(before.fingerprint256);
    expect(after.fingerprint256).toBe(fingerprint(Buffer.from(stored.Certificate, 'base64url').toString('utf8')));
    expect(await curl('issued.example.com')).toEqual({ code: 0, body: 'edge' });
  });

  it("is the DNS zone's wildcard for a name the zone points at the edge", async () => {
    const dnsZoneId = (await t.post('/dnszone', { Domain: 'shop.test' })).body.Id as number;
    expect((await t.put(`/dnszone/${dnsZoneId}/records`, { Type: 0, Name: 'www', Value: '127.0.0.1', Ttl: 300 })).status).toBe(201);
    // Before the zone has a certificate: one for the name itself.
    expect(names((await handshake('www.shop.test')).certificate)).toBe('DNS:www.shop.test');
    expect((await t.post(`/dnszone/${dnsZoneId}/certificate/issue`)).status).toBe(200);
    expect(names((await handshake('www.shop.test')).certificate)).toBe('DNS:*.shop.test, DNS:shop.test');
    // Trusted; the name routes to no pull zone, so the edge answers its 404 page.
    expect(await curl('www.shop.test', '-o', '/dev/null', '-w', '%{http_code}')).toEqual({ code: 0, body: '404' });
  });

  it('is the default certificate for unknown names and handshakes without SNI: the handshake completes, curl refuses the name', async () => {
    for (const name of ['unknown.example.org', undefined]) {
      const { certificate } = await handshake(name);
      expect(names(certificate)).toBe(`DNS:*.${CDN_DOMAIN}, DNS:${CDN_DOMAIN}`);
    }
    // Exit 60 in curl 7.x/8.x for a name the certificate does not cover.
    expect((await curl('unknown.example.org')).code).toBe(60);
    expect(await curl('unknown.example.org', '--insecure', '-o', '/dev/null', '-w', '%{http_code}')).toEqual({ code: 0, body: '404' });
  });
});

describe('the oldest TLS version', () => {
  const only = (v: 'TLSv1' | 'TLSv1.1') => ({ min: v, max: v });
  it("follows the hostname's zone (EnableTLS1, EnableTLS1_1); names of no zone take TLS 1.2 or newer", async () => {
    // A new zone accepts TLS 1.0, as on the platform.
    expect((await handshake('own.example.com', only('TLSv1'))).protocol).toBe('TLSv1');
    expect((await handshake('own.example.com')).protocol).toBe('TLSv1.3');
    await expect(handshake('unknown.example.org', only('TLSv1'))).rejects.toThrow();
    await expect(handshake('unknown.example.org', only('TLSv1.1'))).rejects.toThrow();

    expect((await t.post(`/pullzone/${zoneId}`, { EnableTLS1: false, EnableTLS1_1: false })).status).toBe(200);
    await expect(handshake('own.example.com', only('TLSv1'))).rejects.toThrow();
    await expect(handshake('own.example.com', only('TLSv1.1'))).rejects.toThrow();
    expect((await handshake('own.example.com', { max: 'TLSv1.2' })).protocol).toBe('TLSv1.2');

    expect((await t.post(`/pullzone/${zoneId}`, { EnableTLS1_1: true })).status).toBe(200);
    expect((await handshake('own.example.com', only('TLSv1.1'))).protocol).toBe('TLSv1.1');
    await expect(handshake('own.example.com', only('TLSv1'))).rejects.toThrow();
    // curl too: TLS 1.1 is served, TLS 1.0 refused (exit 35: the handshake failed).
    const oldCurl = (v: string) => curl('own.example.com', `--tlsv${v}`, '--tls-max', v, '--ciphers', 'DEFAULT@SECLEVEL=0');
    expect(await oldCurl('1.1')).toEqual({ code: 0, body: 'edge' });
    expect((await oldCurl('1.0')).code).toBe(35);
    expect((await t.post(`/pullzone/${zoneId}`, { EnableTLS1: true })).status).toBe(200);
  });
});
