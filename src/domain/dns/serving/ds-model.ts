/**
 * The answer of `POST /dnszone/{id}/dnssec` and its `DELETE`: the reference's `DnsSecDsRecordModel`,
 * what a user copies to the registrar. `DigestType` is a string in that model: the digest's name
 * (`SHA256`); the number (2) is in `DsRecord`, the DS line as a zone file writes it.
 */
import { ALGORITHM, dsData } from './dnssec.js';
import { APEX_TTL } from './soa.js';
import type { ZoneSigningKey } from './types.js';

export interface DnsSecDsRecordModel {
  Enabled: boolean;
  /** `example.com. 3600 IN DS 12345 13 2 <HEX>`. */
  DsRecord: string | null;
  /** Upper-case hex SHA-256 digest. */
  Digest: string | null;
  DigestType: string | null;
  Algorithm: number;
  /** Base64 of the 64-octet public key, as DNSKEY carries it. */
  PublicKey: string | null;
  KeyTag: number;
  Flags: number;
  /** Whether the parent zone was seen publishing the DS: the caller knows (it needs a lookup). */
  DsConfigured: boolean;
}

/** The model of a signed zone (`key` given) or of one whose signing is off (`key` undefined). */
export function dsRecordModel(domain: string, key: ZoneSigningKey | undefined, dsConfigured = false): DnsSecDsRecordModel {
  if (!key) {
    return { Enabled: false, DsRecord: null, Digest: null, DigestType: null, Algorithm: 0, PublicKey: null, KeyTag: 0, Flags: 0, DsConfigured: dsConfigured };
  }
  const apex = domain.toLowerCase().replace(/\.$/, '');
  const ds = dsData(apex, key);
  const digest = ds.digest.toString('hex').toUpperCase();
  return {
    Enabled: true,
    DsRecord: `${apex}. ${APEX_TTL} IN DS ${ds.keyTag} ${ALGORITHM} ${ds.digestType} ${digest}`,
    Digest: digest,
    DigestType: 'SHA256',
    Algorithm: ALGORITHM,
    PublicKey: key.publicKey,
    KeyTag: ds.keyTag,
    Flags: key.flags,
    DsConfigured: dsConfigured,
  };
}
