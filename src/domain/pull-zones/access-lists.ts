/**
 * The zone's access lists: allowed and blocked referrer hostnames, blocked client addresses. Entries
 * are kept in a canonical form, so one value cannot be listed twice in different spellings. Adding
 * an entry already listed and removing one not listed both succeed without change: either way the
 * list ends up as the caller asked.
 */
import { isIP } from 'node:net';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import type { ZoneEditor } from './editor.js';
import { canonicalHostname } from './hostnames.js';

export type AccessList = 'AllowedReferrers' | 'BlockedReferrers' | 'BlockedIps';

/** A referrer may cover a whole domain with a leading `*.` (`*.example.com`). */
function canonicalReferrer(value: string): string | undefined {
  const trimmed = value.trim();
  const wildcard = trimmed.startsWith('*.');
  const host = canonicalHostname(wildcard ? trimmed.slice(2) : trimmed);
  return host && (wildcard ? `*.${host}` : host);
}

/** An IPv4 or IPv6 address, or a CIDR range of either (`203.0.113.0/24`). */
function canonicalAddress(value: string): string | undefined {
  const [address = '', prefix, ...rest] = value.trim().split('/');
  // A zone index (`fe80::1%eth0`) names an interface of one machine, never a client.
  const family = address.includes('%') ? 0 : isIP(address);
  if (family === 0 || rest.length > 0) return undefined;
  // The URL parser writes IPv6 in its shortest lowercase form: `2001:DB8:0::1` and `2001:db8::1` are one entry.
  const canonical = family === 4 ? address : new URL(`http://[${address}]`).hostname.slice(1, -1);
  if (prefix === undefined) return canonical;
  const bits = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits ? `${canonical}/${Number(prefix)}` : undefined;
}

const RULES: Record<AccessList, { field: string; canonical: (value: string) => string | undefined; expected: string }> = {
  AllowedReferrers: { field: 'Hostname', canonical: canonicalReferrer, expected: 'a hostname such as example.com or *.example.com' },
  BlockedReferrers: { field: 'Hostname', canonical: canonicalReferrer, expected: 'a hostname such as example.com or *.example.com' },
  BlockedIps: { field: 'BlockedIp', canonical: canonicalAddress, expected: 'an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24' },
};

export class PullZoneAccessLists {
  constructor(private readonly editor: ZoneEditor) {}

  async add(principal: Principal, zoneId: number, list: AccessList, value: string): Promise<void> {
    const entry = this.entry(list, value);
    await this.editor.edit(principal, zoneId, (zone) => {
      const current = zone[list] ?? [];
      return current.some(sameAs(list, entry)) ? undefined : withList(zone, list, [...current, entry]);
    });
  }

  async remove(principal: Principal, zoneId: number, list: AccessList, value: string): Promise<void> {
    // A value that could never have been added is still refused, so a typo does not pass silently.
    const entry = this.entry(list, value);
    await this.editor.edit(principal, zoneId, (zone) => {
      const current = zone[list] ?? [];
      const same = sameAs(list, entry);
      return current.some(same)
        ? withList(
            zone,
            list,
            current.filter((e) => !same(e)),
          )
        : undefined;
    });
  }

  private entry(list: AccessList, value: string): string {
    const rule = RULES[list];
    const entry = rule.canonical(value);
    if (entry === undefined) throw errors.validation(rule.field, `The ${rule.field} must be ${rule.expected}.`, 'pullzone.access_list_entry_invalid');
    return entry;
  }
}

/** Lists written whole through the zone update may hold other spellings; they still match. */
const sameAs = (list: AccessList, entry: string) => (listed: string) => (RULES[list].canonical(listed) ?? listed) === entry;

const withList = (zone: PullZoneT, list: AccessList, entries: string[]): PullZoneT => ({ ...zone, [list]: entries });
