/**
 * The local certificate authority: one ECDSA P-256 root per installation, valid ten years, that
 * signs server certificates valid ninety days (as public authorities issue them). Nothing here
 * checks who asks: the callers decide which names deserve a certificate.
 */
import type { KeyType } from './x509.js';
import { DAY_MS } from '../durations.js';

// The X.509 library and its ASN.1 stack are a good part of the bundle: loaded on the first
// certificate, not at start-up.
const x509 = () => import('./x509.js');

export const ROOT_YEARS = 10;
export const LEAF_DAYS = 90;
/** Certificates start an hour in the past, so a client whose clock is a little behind accepts them. */
const BACKDATE_MS = 60 * 60 * 1000;

export interface IssuedCertificate {
  /** The DNS names it covers; the first is also its subject. */
  names: string[];
  keyType: KeyType;
  /** The certificate, PEM. The root is not appended: clients hold it (it is what they trust). */
  certificatePem: string;
  /** Its PKCS#8 private key, PEM: a credential. */
  privateKeyPem: string;
  serial: string;
  notBefore: Date;
  notAfter: Date;
}

export const rootCommonName = (installationId: string) => `edgeplane local CA (${installationId})`;

export async function createRootCertificate(installationId: string, now: Date): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const notBefore = new Date(now.getTime() - BACKDATE_MS);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + ROOT_YEARS);
  const { createRoot } = await x509();
  return createRoot({ commonName: rootCommonName(installationId), notBefore, notAfter });
}

export class LocalCertificateAuthority {
  constructor(
    readonly installationId: string,
    /** The root certificate, PEM: what `edgeplane ca export` prints. */
    readonly rootPem: string,
    private readonly signingKey: CryptoKey,
  ) {}

  async issue(names: readonly string[], keyType: KeyType, now: Date): Promise<IssuedCertificate> {
    if (names.length === 0) throw new Error('a certificate needs at least one name');
    const notBefore = new Date(now.getTime() - BACKDATE_MS);
    const notAfter = new Date(notBefore.getTime() + LEAF_DAYS * DAY_MS);
    const { createLeaf } = await x509();
    const leaf = await createLeaf({ names, keyType, notBefore, notAfter, issuerPem: this.rootPem, signingKey: this.signingKey });
    return { names: [...names], keyType, certificatePem: leaf.certificatePem, privateKeyPem: leaf.privateKeyPem, serial: leaf.serial, notBefore, notAfter };
  }
}
