/**
 * A stored record of a standard type as the answer dns-packet encodes: the data each type's Value
 * (and Priority, Weight, Port, Flags, Tag) holds, in the shape dns-packet wants. Values that do not
 * parse give undefined and are not served (the store's checks make that rare: imports and older
 * records are the cases).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { DnsRecordT } from '../../../schemas/dns.js';
import { hostName } from './names.js';
import { genericRdata, isU8, words } from './presentation.js';
import { svcbRdata } from './svcb.js';
import type { RR } from './weighted.js';

/** dns-packet's names for the types it has no codec for: their rdata goes out as given. */
export const SVCB = 'UNKNOWN_64';
export const HTTPS = 'UNKNOWN_65';

/** The record's answer at `owner` with its TTL; undefined for platform types and unparsable values. */
export function recordAnswer(record: DnsRecordT, owner: string): RR | undefined {
  const data = recordData(record);
  if (!data || !fits(data)) return undefined;
  return { name: owner, type: data.type, class: 'IN', ttl: record.Ttl, data: data.data } as RR;
}

interface TypedData {
  type: string;
  data: unknown;
}

function recordData(r: DnsRecordT): TypedData | undefined {
  const value = r.Value ?? '';
  switch (r.Type) {
    case 0:
      return isIPv4(value) ? { type: 'A', data: value } : undefined;
    case 1:
      return isIPv6(value) && !value.includes('%') ? { type: 'AAAA', data: value } : undefined;
    case 2:
      return host('CNAME', value);
    case 10:
      return host('PTR', value);
    case 12:
      return host('NS', value);
    case 3:
      return { type: 'TXT', data: characterStrings(value) };
    case 4: {
      const exchange = host('MX', value);
      return exchange && { type: 'MX', data: { preference: r.Priority, exchange: exchange.data } };
    }
    case 8: {
      const target = host('SRV', value);
      return target && { type: 'SRV', data: { priority: r.Priority, weight: r.Weight, port: r.Port, target: target.data } };
    }
    case 9:
      // The tag is one to 255 letters and digits (RFC 8659 §4.1).
      return r.Tag && /^[a-z0-9]{1,255}$/i.test(r.Tag) ? { type: 'CAA', data: { flags: r.Flags, tag: r.Tag.toLowerCase(), value } } : undefined;
    case 13:
    case 14: {
      const rdata = svcbRdata(value);
      return rdata && { type: r.Type === 13 ? SVCB : HTTPS, data: rdata };
    }
    case 15: {
      const tlsa = tlsaData(value);
      return tlsa && { type: 'TLSA', data: tlsa };
    }
    // Platform types: answered from the edge, the target or not at all (see zone-index.ts).
    case 5:
    case 6:
    case 7:
    case 11:
      return undefined;
  }
}

/** Record data is at most 65535 octets (RDLENGTH is 16 bits): longer texts cannot be served at all. */
function fits({ type, data }: TypedData): boolean {
  if (type === 'TXT') return (data as Buffer[]).reduce((n, part) => n + 1 + part.length, 0) <= 65535;
  if (type === 'CAA') return 2 + (data as { tag: string }).tag.length + Buffer.byteLength((data as { value: string }).value) <= 65535;
  if (type === 'TLSA') return 3 + (data as { certificate: Buffer }).certificate.length <= 65535;
  if (Buffer.isBuffer(data)) return data.length <= 65535;
  return true;
}

/** A host name target; `.` stays the root ("no service", RFC 7505 / RFC 2782). */
function host(type: string, value: string): TypedData | undefined {
  const name = hostName(value);
  return name.length === 0 || /\s/.test(name) ? undefined : { type, data: name };
}

/**
 * TXT data: the value's UTF-8 octets cut into character-strings of at most 255 octets (RFC 1035
 * §3.3.14). Cuts fall on octets, not characters, as the zone export cuts them: readers join the
 * strings back before decoding.
 */
export function characterStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length || parts.length === 0; at += 255) parts.push(bytes.subarray(at, at + 255));
  return parts;
}

/** `usage selector matching-type hex…` (RFC 6698 §2.2, blanks allowed in the hex), or generic `\# …`. */
export function tlsaData(value: string): { usage: number; selector: number; matchingType: number; certificate: Buffer } | undefined {
  const parts = words(value);
  if (!parts) return undefined;
  const generic = genericRdata(parts);
  if (generic) {
    return generic.length < 4 ? undefined : { usage: generic[0]!, selector: generic[1]!, matchingType: generic[2]!, certificate: generic.subarray(3) };
  }
  const [usage, selector, matchingType, ...hexWords] = parts;
  const hex = hexWords.join('');
  if (!isU8(usage) || !isU8(selector) || !isU8(matchingType) || hex.length === 0 || !/^(?:[0-9a-f]{2})+$/i.test(hex)) return undefined;
  return { usage: Number(usage), selector: Number(selector), matchingType: Number(matchingType), certificate: Buffer.from(hex, 'hex') };
}
