/**
 * Custom TLS certificates of pull zone hostnames. The platform takes the certificate and key files
 * Base64-encoded; PEM text sent as is is accepted too, since that is what people paste. Both are
 * checked to parse and to belong together, so a zone never holds a pair that could not serve TLS.
 * The key is a credential: the zone repository seals it at rest.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import type { ZoneEditor } from './editor.js';
import { hostnameOf, replaceHostname } from './hostnames.js';

export interface CertificateUpload {
  Hostname: string;
  Certificate: string;
  CertificateKey: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The file the client meant: PEM text as sent, or the bytes a Base64 (or Base64Url) text encodes. */
function fileBytes(field: string, value: string): Buffer {
  const text = value.trim();
  if (text.startsWith('-----BEGIN')) return Buffer.from(text, 'utf8');
  const compact = text.replace(/\s+/g, '');
  if (!BASE64.test(compact)) {
    throw errors.validation(field, `The ${field} must be the Base64-encoded file (or its PEM text).`, 'pullzone.certificate_invalid');
  }
  return Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

function parseCertificate(bytes: Buffer): X509Certificate {
  try {
    return new X509Certificate(bytes);
  } catch {
    throw errors.validation('Certificate', 'The Certificate is not a valid X.509 certificate (PEM or DER).', 'pullzone.certificate_invalid');
  }
}

function parseKey(bytes: Buffer): KeyObject {
  const isPem = bytes.subarray(0, 10).toString('latin1') === '-----BEGIN';
  const attempts = isPem
    ? [() => createPrivateKey(bytes)]
    : (['pkcs8', 'pkcs1', 'sec1'] as const).map((type) => () => createPrivateKey({ key: bytes, format: 'der', type }));
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // Try the next encoding; an encrypted key fails every one, as it must (there is no passphrase).
    }
  }
  throw errors.validation('CertificateKey', 'The CertificateKey is not an unencrypted private key (PEM or DER).', 'pullzone.certificate_key_invalid');
}

export class PullZoneCertificates {
  constructor(private readonly editor: ZoneEditor) {}

  async add(principal: Principal, zoneId: number, upload: CertificateUpload): Promise<void> {
    const certificateFile = fileBytes('Certificate', upload.Certificate);
    const keyFile = fileBytes('CertificateKey', upload.CertificateKey);
    const certificate = parseCertificate(certificateFile);
    if (!certificate.checkPrivateKey(parseKey(keyFile))) {
      throw errors.validation('CertificateKey', 'The CertificateKey does not belong to the Certificate.', 'pullzone.certificate_key_mismatch');
    }
    await this.editor.edit(principal, zoneId, (zone) => {
      const hostname = hostnameOf(zone, upload.Hostname);
      if (hostname.IsSystemHostname) {
        throw errors.validation('Hostname', "The system hostname is served with the platform's own certificate.", 'pullzone.system_hostname');
      }
      return replaceHostname(zone, {
        ...hostname,
        HasCertificate: true,
        // Stored as the files were uploaded (a chain keeps its intermediates), in the Base64Url form reads return.
        Certificate: certificateFile.toString('base64url'),
        CertificateKey: keyFile.toString('base64url'),
        CertificateProvisionType: 3,
      });
    });
  }

  /** Removing a certificate a hostname does not have is a 404, like any delete of what is gone. */
  async remove(principal: Principal, zoneId: number, value: string): Promise<void> {
    await this.editor.edit(principal, zoneId, (zone) => {
      const hostname = hostnameOf(zone, value);
      if (hostname.IsSystemHostname) {
        throw errors.validation('Hostname', "The certificate of the system hostname is the platform's and cannot be removed.", 'pullzone.system_hostname');
      }
      if (!hostname.HasCertificate) throw errors.notFound('certificate');
      return replaceHostname(zone, { ...hostname, HasCertificate: false, Certificate: '', CertificateKey: '', CertificateProvisionType: 0 });
    });
  }
}
