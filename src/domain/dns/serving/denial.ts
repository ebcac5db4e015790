/**
 * Denial of existence for signed zones, compact ("black lies", RFC 9824): instead of NSEC records
 * chaining the zone's names (which would let anyone list the zone, and need the whole zone signed
 * ahead), every negative answer carries one NSEC, signed on the spot, at the name asked:
 *
 * - NODATA: the NSEC's next name is `\000.<qname>` (the name that immediately follows it, so the
 *   NSEC covers nothing else) and its bitmap lists the types the name has, plus RRSIG and NSEC.
 * - NXDOMAIN: answered as NODATA for a name that "exists" with no data: the bitmap holds RRSIG,
 *   NSEC and NXNAME (type 128), which tells a resolver that knows RFC 9824 the name does not exist.
 *   The rcode is NOERROR, unless the query set the Compact-answers-OK EDNS flag (CO), in which case
 *   it is NXDOMAIN, as RFC 9824 §3.3 allows.
 */
import { typeCode } from './signer.js';
import type { RR } from './weighted.js';

/** dns-packet's name for NXNAME, the meta type RFC 9824 defines to mark a name that does not exist. */
export const NXNAME = 'UNKNOWN_128';
/** The CO flag among the EDNS header flags (RFC 9824 §5). */
export const EDNS_COMPACT_OK = 0x4000;

/** The NSEC at `owner` (served spelling) saying only the `types` exist there. */
export function compactNsec(owner: string, lowerOwner: string, ttl: number, types: readonly string[]): RR {
  const rrtypes = [...new Set([...types, 'RRSIG', 'NSEC'])].sort((a, b) => typeCode(a) - typeCode(b));
  return { name: owner, type: 'NSEC', class: 'IN', ttl, data: { nextDomain: `\u0000.${lowerOwner}`, rrtypes } };
}

/** The NSEC of a name that does not exist. */
export const nxnameNsec = (owner: string, lowerOwner: string, ttl: number): RR => compactNsec(owner, lowerOwner, ttl, [NXNAME]);
