/**
 * A zone's DNSSEC key and what the parent needs of it: ECDSA P-256 with SHA-256 (algorithm 13,
 * RFC 6605), one combined signing key per zone (flags 257), its key tag (RFC 4034 App. B) and its DS
 * digest (SHA-256, digest type 2, RFC 4509).
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import type { ZoneSigningKey } from './types.js';
import { nameWire } from './names.js';

export const ALGORITHM = 13;
/** Zone key + secure entry point: the key signs every RRset and is the one the DS names. */
export const CSK_FLAGS = 257;
export const DIGEST_TYPE = 2;
const PROTOCOL = 3;

export function generateZoneSigningKey(): ZoneSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  const key = {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: point.toString('base64'),
    flags: CSK_FLAGS,
    keyTag: 0,
  };
  key.keyTag = keyTag(dnskeyRdata(key));
  return key;
}

/** The DNSKEY rdata: flags, protocol 3, algorithm, the 64-octet public point. */
export function dnskeyRdata(key: Pick<ZoneSigningKey, 'flags' | 'publicKey'>): Buffer {
  const head = Buffer.from([key.flags >> 8, key.flags & 0xff, PROTOCOL, ALGORITHM]);
  return Buffer.concat([head, Buffer.from(key.publicKey, 'base64')]);
}

/** RFC 4034 Appendix B: the 16-bit sum of the rdata read as 16-bit words, with the carries added once. */
export function keyTag(rdata: Buffer): number {
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i & 1 ? rdata[i]! : rdata[i]! << 8;
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

export interface DsData {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Buffer;
}

/** The DS the parent zone publishes for `apex`: SHA-256 over the owner name and the DNSKEY rdata (RFC 4509 §2.1). */
export function dsData(apex: string, key: Pick<ZoneSigningKey, 'flags' | 'publicKey'>): DsData {
  const rdata = dnskeyRdata(key);
  const digest = createHash('sha256').update(nameWire(apex)).update(rdata).digest();
  return { keyTag: keyTag(rdata), algorithm: ALGORITHM, digestType: DIGEST_TYPE, digest };
}
