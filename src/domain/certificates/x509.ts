/**
 * Certificates and keys through @peculiar/x509 over Node's WebCrypto: the library writes the
 * ASN.1, WebCrypto makes the keys and signatures (natively, off the event loop). Everything leaves
 * this file as PEM text, which is what Node's TLS and the platform's API take.
 */
// The library resolves its encoders through a dependency-injection container that needs the
// Reflect metadata API; it must be installed before the library loads.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** The platform's PrivateKeyType: 0 = ECDSA (P-256), 1 = RSA (2048 bits). */
export type KeyType = 0 | 1;

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const RSA = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' } as const;

export const keyAlgorithm = (type: KeyType) => (type === 1 ? RSA : ECDSA);

export function generateKeys(type: KeyType): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(keyAlgorithm(type), true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

export async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END PRIVATE KEY-----\n`;
}

/** The signing key of the root, from its PKCS#8 PEM (the root is ECDSA P-256). */
export function importSigningKey(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, ECDSA, false, ['sign']) as Promise<CryptoKey>;
}

/** A positive serial number of 128 random bits (RFC 5280 §4.1.2.2 allows up to 20 octets). */
export function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

export interface RootRequest {
  commonName: string;
  notBefore: Date;
  notAfter: Date;
}

export async function createRoot(request: RootRequest): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const keys = await generateKeys(0);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [request.commonName] }, { O: ['edgeplane'] }],
    notBefore: request.notBefore,
    notAfter: request.notAfter,
    keys,
    signingAlgorithm: ECDSA,
    extensions: [
      // pathLength 0: it signs server certificates only, never another authority.
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificatePem: certificate.toString('pem'), privateKeyPem: await privateKeyPem(keys.privateKey) };
}

export interface LeafRequest {
  /** DNS names, the first one also the subject's common name. */
  names: readonly string[];
  keyType: KeyType;
  notBefore: Date;
  notAfter: Date;
  issuerPem: string;
  signingKey: CryptoKey;
}

export async function createLeaf(request: LeafRequest): Promise<{ certificatePem: string; privateKeyPem: string; serial: string }> {
  const keys = await generateKeys(request.keyType);
  const issuer = new x509.X509Certificate(request.issuerPem);
  const serial = randomSerial();
  const usage = x509.KeyUsageFlags.digitalSignature | (request.keyType === 1 ? x509.KeyUsageFlags.keyEncipherment : 0);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject: [{ CN: [request.names[0]!] }],
    issuer: issuer.subject,
    notBefore: request.notBefore,
    notAfter: request.notAfter,
    publicKey: keys.publicKey,
    signingKey: request.signingKey,
    signingAlgorithm: ECDSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(usage, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(request.names.map((value) => ({ type: 'dns' as const, value }))),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(issuer, false),
    ],
  });
  return { certificatePem: certificate.toString('pem'), privateKeyPem: await privateKeyPem(keys.privateKey), serial };
}
