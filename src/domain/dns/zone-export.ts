/**
 * A zone written as an RFC 1035 zone file that any DNS server loads: $ORIGIN, $TTL, the SOA and
 * NS records the platform announces, then every record of the zone in order.
 *
 * The format has no place for some of the platform's data, which travels in comments that DNS
 * software ignores and the import reads back (zone-import.ts):
 * - records of the platform's own types (Redirect, Flatten, PullZone, Script), disabled records
 *   (served nowhere, so they must not become live elsewhere), and values the format cannot carry
 *   are written as a whole-line comment `; edgeplane:<Type> <name> <ttl> Key=value …`;
 * - a standard record's platform settings (Comment, MonitorType, Weight outside SRV, …) follow
 *   it on its line as `; edgeplane: Key=value …`.
 */
import { DNS_RECORD_TYPES, type DnsRecordT, type DnsRecordType } from '../../schemas/dns.js';
import { encodeAttributes, type AttributeName } from './platform-attributes.js';
import { DEFAULT_TTL, requestOf } from './record-model.js';
import { APEX_TTL, SOA_TIMERS } from './serving/soa.js';
import type { StoredDnsZone } from './zone-writer.js';
import { tokenizeLine } from './zone-file.js';
import { characterStrings, quoted } from './zone-text.js';

// The apex records as the DNS plane serves them: one definition for both (serving/soa.ts).
const NS_TTL = APEX_TTL;

/** The fields each standard type writes in its data; the others go to the settings comment. */
const DATA_FIELDS: Partial<Record<DnsRecordType, readonly AttributeName[]>> = {
  4: ['Value', 'Priority'],
  8: ['Value', 'Priority', 'Weight', 'Port'],
  9: ['Value', 'Flags', 'Tag'],
};

export function writeZoneFile(zone: StoredDnsZone, records: readonly DnsRecordT[]): string {
  const domain = zone.Domain ?? '';
  const nameservers = [zone.Nameserver1, zone.Nameserver2].filter((ns): ns is string => !!ns).map(fqdn);
  const lines = [
    `; Zone ${domain}, as of ${zone.DateModified}.`,
    '; Comments starting with "edgeplane:" hold what the zone-file format cannot: the platform\'s own',
    '; record types, disabled records and record settings. Importing this file restores them.',
    `$ORIGIN ${domain}.`,
    `$TTL ${DEFAULT_TTL}`,
    `@\t${NS_TTL}\tIN\tSOA\t${nameservers[0] ?? `ns.${domain}.`} ${mailbox(zone.SoaEmail, domain)} (`,
    `\t\t\t\t${zone.Serial ?? serial(zone.DateModified)}\t; serial`,
    `\t\t\t\t${SOA_TIMERS.refresh}\t; refresh`,
    `\t\t\t\t${SOA_TIMERS.retry}\t; retry`,
    `\t\t\t\t${SOA_TIMERS.expire}\t; expire`,
    `\t\t\t\t${SOA_TIMERS.minimum} )\t; minimum`,
    ...nameservers.map((ns) => `@\t${NS_TTL}\tIN\tNS\t${ns}`),
    ...records.map(recordLine),
  ];
  return `${lines.join('\n')}\n`;
}

function recordLine(record: DnsRecordT): string {
  const type = DNS_RECORD_TYPES[record.Type];
  const owner = record.Name ? record.Name : '@';
  const values = requestOf(record);
  const data = record.Disabled ? undefined : recordData(record);
  if (data === undefined) {
    return `; edgeplane:${type} ${owner} ${record.Ttl} ${encodeAttributes(values)}`.trimEnd();
  }
  const settings = encodeAttributes(values, DATA_FIELDS[record.Type] ?? ['Value']);
  return `${owner}\t${record.Ttl}\tIN\t${type}\t${data}${settings ? `\t; edgeplane: ${settings}` : ''}`;
}

/** The record's data in zone-file syntax; undefined when the format cannot carry it. */
function recordData(r: DnsRecordT): string | undefined {
  const value = r.Value ?? '';
  switch (r.Type) {
    case 0:
    case 1:
      return isWord(value) ? value : undefined;
    case 2:
    case 10:
    case 12:
      return host(value);
    case 3: {
      const parts = characterStrings(value);
      return parts.length === 1 ? parts[0] : `(\n\t\t\t\t${parts.join('\n\t\t\t\t')} )`;
    }
    case 4:
      return host(value) && `${r.Priority} ${host(value)}`;
    case 8:
      return host(value) && `${r.Priority} ${r.Weight} ${r.Port} ${host(value)}`;
    case 9:
      return r.Tag && /^[a-z0-9]+$/i.test(r.Tag) ? `${r.Flags} ${r.Tag} ${quoted(value)}` : undefined;
    case 13:
    case 14:
    case 15:
      return canonicalData(value);
    case 5:
    case 6:
    case 7:
    case 11:
      return undefined;
  }
}

/** Free-form record data (SVCB, HTTPS, TLSA) rewritten word by word, if it is one line of words. */
export function canonicalData(value: string): string | undefined {
  const tokens = tokenizeLine(value);
  if (!tokens || tokens.length === 0) return undefined;
  return tokens.map((t) => (t.quoted ? `"${t.text}"` : t.text)).join(' ');
}

const isWord = (value: string) => /^[^\s;()"\\]+$/.test(value);
const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);
const host = (value: string) => (isWord(value) ? fqdn(value) : undefined);

/** `hostmaster@example.com` → `hostmaster.example.com.`, dots of the local part escaped. */
function mailbox(email: string | null, domain: string): string {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at <= 0) return `hostmaster.${domain}.`;
  return `${email.slice(0, at).replace(/([.\\])/g, '\\$1')}.${fqdn(email.slice(at + 1))}`;
}

/** Seconds since 1970 of the last change: it grows with every change, as secondaries need. */
const serial = (dateModified: string) => Math.floor(Date.parse(dateModified) / 1000) % 2 ** 32;
