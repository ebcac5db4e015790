/**
 * What a parsed zone file asks to add to a zone, as record requests the usual checks then judge.
 *
 * Skipped (on purpose, not errors): the SOA, and NS records at the apex that name the zone's own
 * name servers, since the platform publishes both itself. Failed: records of another class, names
 * outside the zone, types the platform cannot hold (DNAME, SSHFP, …) and malformed data. The
 * `; edgeplane:` comments written by the export (zone-export.ts) are read back here.
 */
import { DNS_RECORD_TYPES, type DnsRecordRequestT, type DnsRecordType, type DnsZoneT } from '../../schemas/dns.js';
import { decodeAttributes, type Attributes } from './platform-attributes.js';
import { DEFAULT_TTL } from './record-model.js';
import { absoluteName, MAX_TTL, parseTtl, tokenizeLine, type ZoneFileEntry, type ZoneFileRecord, type ZoneFileToken } from './zone-file.js';
import { decodeText } from './zone-text.js';

const PLATFORM_COMMENT = 'edgeplane:';

export interface ImportPlan {
  /** In file order, so the records keep the file's order in the zone. */
  requests: DnsRecordRequestT[];
  failed: number;
  skipped: number;
}

type Outcome = DnsRecordRequestT | 'skip' | 'fail';

export function planImport(entries: ZoneFileEntry[], zone: Pick<DnsZoneT, 'Domain' | 'Nameserver1' | 'Nameserver2'>): ImportPlan {
  const plan: ImportPlan = { requests: [], failed: 0, skipped: 0 };
  const domain = (zone.Domain ?? '').toLowerCase();
  const ownNameservers = new Set([zone.Nameserver1, zone.Nameserver2].filter((ns) => !!ns).map((ns) => bare(ns!).toLowerCase()));
  for (const entry of entries) {
    let outcome: Outcome | undefined;
    if (entry.kind === 'comment') {
      const text = entry.text.trim();
      if (text.startsWith(PLATFORM_COMMENT)) outcome = platformRecord(text.slice(PLATFORM_COMMENT.length), entry.origin, domain);
    } else {
      outcome = standardRecord(entry, domain, ownNameservers);
    }
    if (outcome === 'skip') plan.skipped++;
    else if (outcome === 'fail') plan.failed++;
    else if (outcome) plan.requests.push(outcome);
  }
  return plan;
}

/** `; edgeplane:<Type> <name> <ttl> Key=value …`: a record the format could not carry. */
function platformRecord(text: string, origin: string, domain: string): Outcome {
  const words = tokenizeLine(text);
  const [type, owner, ttlWord, ...settings] = words ?? [];
  const typeIndex = type && !type.quoted ? DNS_RECORD_TYPES.findIndex((t) => t.toLowerCase() === type.text.toLowerCase()) : -1;
  const ttl = ttlWord && !ttlWord.quoted ? parseTtl(ttlWord.text) : undefined;
  if (typeIndex < 0 || !owner || owner.quoted || ttl === undefined || ttl > MAX_TTL) return 'fail';
  const name = relativeName(absoluteName(owner.text, origin), domain);
  const decoded = decodeAttributes(settings);
  if (name === undefined || 'problem' in decoded) return 'fail';
  return { ...decoded.values, Type: typeIndex as DnsRecordType, Name: name, Ttl: ttl };
}

function standardRecord(entry: ZoneFileRecord, domain: string, ownNameservers: Set<string>): Outcome {
  if (entry.class !== 'IN') return 'fail';
  if (entry.type === 'SOA') return 'skip';
  const name = relativeName(entry.owner, domain);
  if (name === undefined) return 'fail';
  const data = recordData(entry.type, entry.rdata, entry.origin);
  if (data === undefined) return 'fail';
  if (data.Type === 12 && name === '' && ownNameservers.has((data.Value ?? '').toLowerCase())) return 'skip';
  let settings: Attributes = {};
  for (const comment of entry.comments.map((c) => c.trim()).filter((c) => c.startsWith(PLATFORM_COMMENT))) {
    const words = tokenizeLine(comment.slice(PLATFORM_COMMENT.length));
    const decoded = words && decodeAttributes(words);
    if (!decoded || 'problem' in decoded) return 'fail';
    settings = { ...settings, ...decoded.values };
  }
  // The record's own data wins over a setting of the same name.
  return { ...settings, ...data, Name: name, Ttl: entry.ttl ?? DEFAULT_TTL };
}

/** The name relative to the zone ('' for the apex); undefined when it lies outside the zone. */
function relativeName(owner: string, domain: string): string | undefined {
  const apex = `${domain}.`;
  const lower = owner.toLowerCase();
  if (lower === apex) return '';
  return lower.endsWith(`.${apex}`) ? owner.slice(0, owner.length - apex.length - 1) : undefined;
}

/** A name as the platform stores it: absolute, without the final dot (the root stays "."). */
const bare = (name: string) => (name === '.' ? '.' : name.replace(/\.$/, ''));

/** The record fields a standard type's data carries; undefined when the data is malformed. */
function recordData(type: string, rdata: ZoneFileToken[], origin: string): DnsRecordRequestT | undefined {
  const typeIndex = DNS_RECORD_TYPES.indexOf(type as (typeof DNS_RECORD_TYPES)[number]) as DnsRecordType | -1;
  const words = rdata.every((t) => !t.quoted) ? rdata.map((t) => t.text) : undefined;
  const target = (word: string) => (word === '.' ? '.' : bare(absoluteName(word, origin)));
  const u16 = (word: string) => (/^\d{1,5}$/.test(word) && Number(word) <= 65535 ? Number(word) : undefined);
  switch (typeIndex) {
    case 0: // A
    case 1: // AAAA
      return words?.length === 1 ? { Type: typeIndex, Value: words[0]! } : undefined;
    case 2: // CNAME
    case 10: // PTR
    case 12: // NS
      return words?.length === 1 ? { Type: typeIndex, Value: target(words[0]!) } : undefined;
    case 3: {
      // TXT: its character-strings are one text on the platform
      const parts = rdata.map((t) => decodeText(t.text));
      if (parts.length === 0 || parts.some((p) => p === undefined)) return undefined;
      return { Type: 3, Value: parts.join('') };
    }
    case 4: {
      // MX
      const priority = words?.length === 2 ? u16(words[0]!) : undefined;
      return priority === undefined ? undefined : { Type: 4, Priority: priority, Value: target(words![1]!) };
    }
    case 8: {
      // SRV
      const numbers = words?.length === 4 ? words.slice(0, 3).map(u16) : [];
      if (numbers.length !== 3 || numbers.some((n) => n === undefined)) return undefined;
      const [priority, weight, port] = numbers as number[];
      return { Type: 8, Priority: priority!, Weight: weight!, Port: port!, Value: target(words![3]!) };
    }
    case 9: {
      // CAA
      const [flags, tag, value] = rdata;
      const flagValue = flags && !flags.quoted && /^\d{1,3}$/.test(flags.text) ? Number(flags.text) : 256;
      const text = value ? decodeText(value.text) : undefined;
      if (rdata.length !== 3 || flagValue > 255 || !tag || tag.quoted || text === undefined) return undefined;
      return { Type: 9, Flags: flagValue, Tag: tag.text, Value: text };
    }
    case 13: // SVCB
    case 14: // HTTPS
    case 15: // TLSA: the platform keeps the data as its text
      if (rdata.length === 0 || rdata[0]!.text === '\\#') return undefined;
      return { Type: typeIndex, Value: rdata.map((t) => (t.quoted ? `"${t.text}"` : t.text)).join(' ') };
    default: // another type, or one of the platform's own written as if it were a DNS type
      return undefined;
  }
}
