/**
 * The checks a DNS user expects beyond the request's shape: addresses are addresses, targets are
 * host names, each record type carries the fields it needs. Pure: every function returns the
 * problems it found (named as the client sent them), and the service decides what to do with them.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import { DNS_RECORD_TYPES, type DnsRecordRequestT, type DnsRecordType } from '../../schemas/dns.js';
import type { FieldProblem } from '../errors.js';

/** Longest name DNS can carry in text form, without the final dot (RFC 1035 §2.3.4). */
export const MAX_NAME_LENGTH = 253;

/** A host name label: letters, digits, hyphens and underscores (`_dmarc`, `_sip`), no edge hyphen. */
const HOST_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;
/** A label of a registrable domain: no underscores. */
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A top-level domain: letters only, or an internationalized one in punycode. */
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** A label of a record name relative to its zone, as the platform accepts it. */
const RELATIVE_LABEL = /^[a-z0-9_-]{1,63}$/i;

/**
 * A host name such as a CNAME, MX, NS or SRV target. One trailing dot (a fully qualified name) is
 * allowed. Addresses are refused: `192.0.2.1` is a syntactically valid name but always a mistake.
 */
export function isHostname(value: string): boolean {
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (name.length === 0 || name.length > MAX_NAME_LENGTH || isIP(name) !== 0) return false;
  const labels = name.split('.');
  if (!labels.every((label) => HOST_LABEL.test(label))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

/**
 * The domain of a new zone, in the form it is stored: lower case, without a trailing dot, an
 * internationalized name converted to punycode. Undefined when it is not a domain name with at
 * least two labels (a top-level domain alone cannot be added).
 */
export function normalizeDomain(raw: string): string | undefined {
  let name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  // Non-ASCII input is converted the way browsers do; ASCII input is checked as sent.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is "anything outside ASCII", control characters included on purpose.
  if (/[^\x00-\x7f]/.test(name)) name = domainToASCII(name);
  name = name.toLowerCase();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return undefined;
  const labels = name.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return undefined;
  return TOP_LEVEL.test(labels[labels.length - 1]!) ? name : undefined;
}

/**
 * A record name relative to its zone: `''` or `'@'` for the apex, otherwise dot-separated labels
 * of letters, digits, `-` and `_`; `*` may stand alone as the leftmost label (a wildcard, RFC 4592).
 */
export function isRelativeName(name: string): boolean {
  if (name === '' || name === '@') return true;
  return name.split('.').every((label, i) => (label === '*' ? i === 0 : RELATIVE_LABEL.test(label)));
}

/** The stored form of a record name: the apex is always `''`. */
export const normalizeRecordName = (name: string | null | undefined): string => (name == null || name === '@' ? '' : name);

/** An absolute http(s) address, as a Redirect record's target. */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
}

/** CAA property tags the platform serves (RFC 8659 §4). */
export const CAA_TAGS = ['issue', 'issuewild', 'iodef'] as const;

const typeName = (type: DnsRecordType) => DNS_RECORD_TYPES[type];
/** Names read letter by letter that start with a vowel sound ("an MX record"). */
const AN = new Set<string>(['A', 'AAAA', 'MX', 'NS', 'SRV', 'SVCB', 'HTTPS']);
const article = (type: DnsRecordType) => (AN.has(typeName(type)) ? 'an' : 'a');

/**
 * Everything wrong with a record to add to the zone `zoneDomain`. `prefix` names the record in
 * field paths when it is part of a larger body (`Records[2].`). Links to other resources (the
 * pull zone of a PullZone record) need the store and are checked by the service.
 */
export function recordProblems(record: DnsRecordRequestT, zoneDomain: string, prefix = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field: `${prefix}${field}`, message });
  const type = record.Type;
  if (type == null) {
    add('Type', 'The Type field is required.');
    return problems;
  }

  const name = normalizeRecordName(record.Name);
  if (!isRelativeName(name)) {
    add('Name', 'The Name field must be a name relative to the zone: "" or "@" for the apex, or labels of letters, digits, "-", "_" and a leading "*".');
  } else if (name !== '' && name.length + 1 + zoneDomain.length > MAX_NAME_LENGTH) {
    add('Name', `The Name field makes the full name longer than ${MAX_NAME_LENGTH} characters.`);
  }

  const value = record.Value ?? '';
  const kind = `${article(type)} ${typeName(type)} record`;
  const requireField = (field: 'Priority' | 'Weight' | 'Port' | 'PullZoneId' | 'ScriptId') => {
    if (record[field] == null) add(field, `The ${field} field is required for ${kind}.`);
  };
  const requireHost = (allowRoot: boolean) => {
    // A lone "." is the "no service here" target of MX (RFC 7505) and SRV (RFC 2782).
    if (!(isHostname(value) || (allowRoot && value === '.'))) add('Value', `The Value field must be a host name for ${kind}.`);
  };
  const requireText = () => {
    if (value.length === 0) add('Value', `The Value field is required for ${kind}.`);
  };

  switch (type) {
    case 0:
      if (!isIPv4(value)) add('Value', 'The Value field must be an IPv4 address for an A record.');
      break;
    case 1:
      if (!isIPv6(value)) add('Value', 'The Value field must be an IPv6 address for an AAAA record.');
      break;
    case 2: // CNAME
    case 6: // Flatten: a CNAME answered with the target's addresses, so the same target rule
    case 10: // PTR
    case 12: // NS
      requireHost(false);
      break;
    case 3: // TXT: one value; splitting it into 255-octet strings is the server's job
      requireText();
      break;
    case 4: // MX
      requireField('Priority');
      requireHost(true);
      break;
    case 5: // Redirect
      if (!isHttpUrl(value)) add('Value', 'The Value field must be an absolute http or https URL for a Redirect record.');
      break;
    case 7: // PullZone: whether the pull zone exists is checked by the service
      requireField('PullZoneId');
      if (record.PullZoneId != null && record.PullZoneId < 1) add('PullZoneId', 'The PullZoneId field must be a pull zone id.');
      break;
    case 8: // SRV
      requireField('Priority');
      requireField('Weight');
      requireField('Port');
      requireHost(true);
      break;
    case 9: // CAA
      caaProblems(record, value, add);
      break;
    case 11: // Script
      requireField('ScriptId');
      if (record.ScriptId != null && record.ScriptId < 1) add('ScriptId', 'The ScriptId field must be a script id.');
      break;
    case 13: // SVCB
    case 14: // HTTPS
    case 15: // TLSA
      requireText();
      break;
    default: {
      const never: never = type;
      throw new Error(`unhandled record type ${String(never)}`);
    }
  }
  return problems;
}

function caaProblems(record: DnsRecordRequestT, value: string, add: (field: string, message: string) => void): void {
  const tag = record.Tag?.toLowerCase();
  if (tag === undefined || !(CAA_TAGS as readonly string[]).includes(tag)) {
    add('Tag', `The Tag field must be one of ${CAA_TAGS.join(', ')} for a CAA record.`);
  }
  if (value.length === 0) {
    add('Value', 'The Value field is required for a CAA record.');
  } else if (tag === 'iodef') {
    // Incident reports go to a mail address or a web endpoint (RFC 8659 §4.4).
    if (!(/^mailto:[^\s@]+@[^\s@]+$/i.test(value) || isHttpUrl(value))) {
      add('Value', 'The Value field must be a mailto: or http(s) URL for an iodef CAA record.');
    }
  } else if (tag === 'issue' || tag === 'issuewild') {
    // "ca.example; parameters" or ";" alone (no issuer may issue) (RFC 8659 §4.2).
    const issuer = value.split(';', 1)[0]!.trim();
    if (issuer !== '' && !isHostname(issuer)) add('Value', 'The Value field must start with the domain of a certificate authority, or be ";".');
  }
}
