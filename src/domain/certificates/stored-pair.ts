/**
 * A hostname's stored certificate and key as TLS takes them. The zone keeps the files as they were
 * uploaded, Base64Url-encoded: PEM text (a chain may follow the certificate) or DER, which is
 * turned into PEM here since Node's TLS reads PEM only.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { HostnameT } from '../../schemas/pull-zone.js';
import type { IssuedCertificate } from './local-ca.js';

export interface CertificatePair {
  /** The certificate and any chain after it, PEM. */
  certificatePem: string;
  privateKeyPem: string;
  notAfter: Date;
}

const isPem = (bytes: Buffer) => bytes.subarray(0, 10).toString('latin1') === '-----BEGIN';

function keyPem(bytes: Buffer): string {
  if (isPem(bytes)) return bytes.toString('utf8');
  for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: bytes, format: 'der', type }).export({ format: 'pem', type: 'pkcs8' }).toString();
    } catch {
      // The next encoding; the key was checked when it was uploaded, so one of them reads it.
    }
  }
  throw new Error('the stored key is in no known encoding');
}

/** The hostname's own pair, or undefined when it has none (or what is stored cannot be read). */
export function storedPair(hostname: HostnameT): CertificatePair | undefined {
  if (!hostname.HasCertificate || !hostname.Certificate || !hostname.CertificateKey) return undefined;
  try {
    const certificateBytes = Buffer.from(hostname.Certificate, 'base64url');
    const certificatePem = isPem(certificateBytes) ? certificateBytes.toString('utf8') : new X509Certificate(certificateBytes).toString();
    const leaf = new X509Certificate(certificatePem);
    return { certificatePem, privateKeyPem: keyPem(Buffer.from(hostname.CertificateKey, 'base64url')), notAfter: new Date(leaf.validTo) };
  } catch {
    return undefined;
  }
}

/** An issued certificate as a hostname stores it (the form the platform's reads return). */
export const storedForm = (issued: IssuedCertificate) => ({
  Certificate: Buffer.from(issued.certificatePem, 'utf8').toString('base64url'),
  CertificateKey: Buffer.from(issued.privateKeyPem, 'utf8').toString('base64url'),
});
