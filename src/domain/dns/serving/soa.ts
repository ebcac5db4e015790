/**
 * The records the platform publishes at every apex: SOA and NS. The zone export writes them with
 * these same TTLs and timers (zone-export.ts imports them), so a zone answers as its file reads.
 */
import { DEFAULT_TTL } from '../record-model.js';
import type { ServedZone } from './types.js';
import { hostName, mailboxName } from './names.js';
import type { RR } from './weighted.js';

/** TTL of the apex SOA, NS and DNSKEY RRsets. */
export const APEX_TTL = 3600;
/** Refresh, retry, expire, minimum (RFC 1035 §3.3.13); minimum is the negative-answer TTL (RFC 2308). */
export const SOA_TIMERS = { refresh: 3600, retry: 600, expire: 1209600, minimum: DEFAULT_TTL } as const;
/** How long a resolver keeps a negative answer: min(SOA minimum, SOA TTL) (RFC 2308 §5). */
export const NEGATIVE_TTL = Math.min(SOA_TIMERS.minimum, APEX_TTL);

/** The zone's name servers as served: lower case, without the final dot, duplicates dropped. */
export function zoneNameservers(zone: ServedZone): string[] {
  return [...new Set(zone.nameservers.map(hostName).filter((ns) => ns !== '.' && ns !== ''))];
}

export function soaAnswer(zone: ServedZone, apex: string, ttl: number): RR {
  const mname = zoneNameservers(zone)[0] ?? `ns.${apex}`;
  return {
    name: apex,
    type: 'SOA',
    class: 'IN',
    ttl,
    data: { mname, rname: mailboxName(zone.soaEmail, apex), serial: zone.serial >>> 0, ...SOA_TIMERS, ...zone.soaTimers },
  };
}
