/**
 * The settings of a zone a client may change (POST /dnszone/{id}): name servers, SOA contact,
 * logging, certificate key type. Fields left out or null keep their value.
 */
import type { DnsZoneT, DnsZoneUpdateRequestT } from '../../schemas/dns.js';
import type { FieldProblem } from '../errors.js';
import { isHostname } from './validate.js';
import { throwIfAny } from './record-checks.js';

export interface PlatformNameservers {
  Nameserver1: string;
  Nameserver2: string;
}

/**
 * The platform's name servers: `EDGEPLANE_NAMESERVERS`, or two under its configured domain, so no
 * host name is hard-coded. Every zone without custom name servers announces all of them.
 */
export function configuredNameservers(config: { nameservers?: string | undefined; cdnDomain: string }): string[] {
  const listed = config.nameservers
    ?.split(',')
    .map((n) => n.trim().toLowerCase().replace(/\.$/, ''))
    .filter((n) => n !== '');
  return listed && listed.length > 0 ? listed : [`ns1.${config.cdnDomain}`, `ns2.${config.cdnDomain}`];
}

/** The first two, as a zone's `Nameserver1` and `Nameserver2` show them. */
export const platformNameservers = (names: string[]): PlatformNameservers => ({
  Nameserver1: names[0] ?? '',
  Nameserver2: names[1] ?? names[0] ?? '',
});

/**
 * The zone with `input` applied; a 400 naming every field that prevents it. The platform's own name servers
 * are announced unless CustomNameserversEnabled is on: then, and only then, Nameserver1/2 may name
 * other servers (sending the current values back, as a read-modify-write client does, is fine).
 * Turning the option off restores the platform's servers.
 */
export function applyZoneSettings<Z extends Omit<DnsZoneT, 'Records'>>(zone: Z, input: DnsZoneUpdateRequestT, platform: PlatformNameservers): Z {
  const problems: FieldProblem[] = [];
  const custom = input.CustomNameserversEnabled ?? zone.CustomNameserversEnabled;
  const nameservers = { Nameserver1: zone.Nameserver1, Nameserver2: zone.Nameserver2 };
  for (const field of ['Nameserver1', 'Nameserver2'] as const) {
    const sent = input[field];
    if (sent == null) continue;
    const name = sent.toLowerCase().replace(/\.$/, '');
    if (!isHostname(sent)) problems.push({ field, message: `The ${field} field must be a host name such as ns1.example.net.` });
    else if (!custom && name !== platform[field] && name !== zone[field]) {
      problems.push({ field, message: `The ${field} field can only name another server when CustomNameserversEnabled is true.` });
    } else nameservers[field] = name;
  }
  const soaEmail = input.SoaEmail;
  if (soaEmail != null && !isEmail(soaEmail))
    problems.push({ field: 'SoaEmail', message: 'The SoaEmail field must be an email address such as hostmaster@example.com.' });
  throwIfAny(problems);

  return {
    ...zone,
    CustomNameserversEnabled: custom,
    ...(custom ? nameservers : platform),
    SoaEmail: soaEmail ?? zone.SoaEmail,
    LoggingEnabled: input.LoggingEnabled ?? zone.LoggingEnabled,
    LogAnonymizationType: input.LogAnonymizationType ?? zone.LogAnonymizationType,
    CertificateKeyType: input.CertificateKeyType ?? zone.CertificateKeyType,
    LoggingIPAnonymizationEnabled: input.LoggingIPAnonymizationEnabled ?? zone.LoggingIPAnonymizationEnabled,
  };
}

/** What an SOA record can publish: a mailbox without spaces at a host name (RFC 1035 §3.3.13). */
function isEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  return at > 0 && /^[^\s@]+$/.test(value.slice(0, at)) && isHostname(value.slice(at + 1));
}
