/**
 * What a record scan asks about. DNS offers no way to list a zone's names (zone transfers are
 * refused to strangers, ANY is answered minimally, RFC 8482), so a scan asks for the names and
 * types that domains commonly publish. A record under any other name is not found; the README's
 * section on record scans repeats this list.
 */
/** The types a scan asks for (a CNAME shows in the answer to any of them). */
export type ScanType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'NS' | 'CAA' | 'SRV';

export interface ScanQuestion {
  /** Relative to the domain; `@` is the domain itself. */
  name: string;
  type: ScanType;
}

/** The domain itself: addresses, mail, text (SPF, site verifications), delegation, certificate authorities. */
const APEX_TYPES: ScanType[] = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CAA'];

/** Host names most sites use; each is asked for A and AAAA, which also reveal a CNAME. */
export const HOST_NAMES = [
  'www',
  'mail',
  'webmail',
  'smtp',
  'imap',
  'pop',
  'ftp',
  'api',
  'app',
  'blog',
  'shop',
  'store',
  'cdn',
  'static',
  'assets',
  'media',
  'img',
  'dev',
  'staging',
  'test',
  'admin',
  'portal',
  'vpn',
  'remote',
  'm',
  'docs',
  'status',
  'support',
  'help',
  'autodiscover',
  'autoconfig',
] as const;

/**
 * Mail policy and keys, asked for TXT (which also reveals a CNAME, as hosted mail services use for
 * their DKIM keys): DMARC, MTA-STS, TLS reporting, and the DKIM selectors of common mail services.
 */
export const TEXT_NAMES = [
  '_dmarc',
  '_mta-sts',
  '_smtp._tls',
  'default._domainkey',
  'dkim._domainkey',
  'mail._domainkey',
  'google._domainkey',
  'selector1._domainkey',
  'selector2._domainkey',
  'k1._domainkey',
  's1._domainkey',
  's2._domainkey',
] as const;

/** Services found through SRV: mail client setup, calendars and contacts, chat and voice, directories. */
export const SERVICE_NAMES = [
  '_autodiscover._tcp',
  '_submission._tcp',
  '_submissions._tcp',
  '_imap._tcp',
  '_imaps._tcp',
  '_pop3._tcp',
  '_pop3s._tcp',
  '_caldav._tcp',
  '_caldavs._tcp',
  '_carddav._tcp',
  '_carddavs._tcp',
  '_sip._tcp',
  '_sip._udp',
  '_sips._tcp',
  '_sipfederationtls._tcp',
  '_xmpp-client._tcp',
  '_xmpp-server._tcp',
  '_ldap._tcp',
] as const;

/** Every question of a scan, apex first. */
export const SCAN_QUESTIONS: readonly ScanQuestion[] = [
  ...APEX_TYPES.map((type) => ({ name: '@', type })),
  ...HOST_NAMES.flatMap((name) => [
    { name, type: 'A' as const },
    { name, type: 'AAAA' as const },
  ]),
  ...TEXT_NAMES.map((name) => ({ name, type: 'TXT' as const })),
  ...SERVICE_NAMES.map((name) => ({ name, type: 'SRV' as const })),
];

/**
 * A name no zone publishes on purpose: when it answers, the domain has a wildcard (RFC 4592), and
 * a host name that answers exactly as it does is the wildcard speaking, not a record of its own.
 */
export const WILDCARD_PROBE = '_edgeplane-wildcard-probe';
