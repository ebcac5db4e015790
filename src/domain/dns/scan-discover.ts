/**
 * A domain's records, as the upstream resolver answers the questions of scan-names.ts. Only what
 * the resolver says is reported: a question it cannot answer fails the whole scan rather than
 * leaving a silent gap in what looks like a complete list.
 */
import type { Answer, RecordType } from 'dns-packet';
import { DISCOVERED_RECORD_TYPES, type DiscoveredDnsRecordT } from '../../schemas/dns-scan.js';
import { SCAN_QUESTIONS, type ScanQuestion, type ScanType, WILDCARD_PROBE } from './scan-names.js';
import { askUpstream, type QueryOptions, type UpstreamServer } from './scan-upstream.js';

export interface DiscoveryOptions extends QueryOptions {
  /** Addresses of this platform's edge: records pointing there are `IsProxied`. */
  edgeAddresses: readonly string[];
  /** The domain of pull zone host names: CNAMEs under it are `IsProxied`. */
  cdnDomain: string;
  /** Questions in flight at once: enough to finish quickly, few enough not to look like a flood. */
  concurrency: number;
}

/** Types a wildcard is probed for: those asked of names below the domain. */
const WILDCARD_TYPES: ScanType[] = ['A', 'AAAA', 'TXT', 'SRV'];

export async function discoverRecords(server: UpstreamServer, domain: string, options: DiscoveryOptions): Promise<DiscoveredDnsRecordT[]> {
  const apex = await askUpstream(server, domain, 'SOA', options);
  // The domain does not exist: nothing below it can either (RFC 8020).
  if (apex.rcode === 'NXDOMAIN') return [];

  const ask = async (q: ScanQuestion) => {
    const fqdn = q.name === '@' ? domain : `${q.name}.${domain}`;
    const reply = await askUpstream(server, fqdn, q.type, options);
    return ownRecords(reply.answers, fqdn, q.type).flatMap((answer) => discovered(q.name, answer, options) ?? []);
  };
  const probes = WILDCARD_TYPES.map((type) => ({ name: WILDCARD_PROBE, type }));
  const answered = await inBatches([...probes, ...SCAN_QUESTIONS], options.concurrency, ask);
  const wildcard = answered.slice(0, probes.length).map((records) => records.map((r) => ({ ...r, Name: '*' })));
  const wildcardAnswer = new Map(WILDCARD_TYPES.map((type, i) => [type, answerKey(wildcard[i]!)]));
  const apexQuestions = SCAN_QUESTIONS.filter((q) => q.name === '@').length;

  const found = new Map<string, DiscoveredDnsRecordT>();
  const keep = (records: DiscoveredDnsRecordT[]) => {
    for (const r of records) found.set(JSON.stringify([r.Name, r.Type, r.Value, r.Priority, r.Weight, r.Port]), r);
  };
  SCAN_QUESTIONS.forEach((q, i) => {
    const records = answered[probes.length + i]!;
    const fromWildcard = q.name !== '@' && records.length > 0 && answerKey(records) === wildcardAnswer.get(q.type);
    if (!fromWildcard) keep(records);
    // The wildcard is reported once, after the apex, whose records it never stands for.
    if (i === apexQuestions - 1) wildcard.forEach(keep);
  });
  return [...found.values()];
}

/**
 * The records the name itself holds: its CNAME when it is an alias (the rest of the answer belongs
 * to the alias's target), else its records of the type asked.
 */
function ownRecords(answers: Answer[], fqdn: string, type: RecordType): Answer[] {
  const own = answers.filter((a) => a.name.toLowerCase() === fqdn.toLowerCase());
  const alias = own.filter((a) => a.type === 'CNAME');
  return alias.length > 0 ? alias : own.filter((a) => a.type === type);
}

/** What an answer says, whichever name asked: a wildcard gives the same answer at every name it covers. */
const answerKey = (records: DiscoveredDnsRecordT[]) =>
  JSON.stringify(records.map((r) => JSON.stringify([r.Type, r.Value, r.Priority, r.Weight, r.Port])).sort());

/** The record as the scan reports it; undefined for a type a scan does not ask for. */
function discovered(name: string, answer: Answer, options: DiscoveryOptions): DiscoveredDnsRecordT | undefined {
  const base = { Name: name, Ttl: answer.type === 'OPT' ? null : (answer.ttl ?? null), Priority: null, Weight: null, Port: null, IsProxied: false };
  switch (answer.type) {
    case 'A':
    case 'AAAA':
      return { ...base, Type: DISCOVERED_RECORD_TYPES[answer.type], Value: answer.data, IsProxied: options.edgeAddresses.includes(answer.data) };
    case 'CNAME': {
      const target = bare(answer.data);
      const underCdn = target === options.cdnDomain || target.endsWith(`.${options.cdnDomain}`);
      return { ...base, Type: DISCOVERED_RECORD_TYPES.CNAME, Value: target, IsProxied: underCdn };
    }
    case 'NS':
      return { ...base, Type: DISCOVERED_RECORD_TYPES.NS, Value: bare(answer.data) };
    case 'MX':
      return { ...base, Type: DISCOVERED_RECORD_TYPES.MX, Value: bare(answer.data.exchange), Priority: answer.data.preference ?? 0 };
    case 'SRV':
      return {
        ...base,
        Type: DISCOVERED_RECORD_TYPES.SRV,
        Value: bare(answer.data.target),
        Priority: answer.data.priority ?? 0,
        Weight: answer.data.weight ?? 0,
        Port: answer.data.port,
      };
    case 'TXT': {
      // A TXT record is one or more strings of up to 255 octets; the platform keeps their concatenation.
      const parts = Array.isArray(answer.data) ? answer.data : [answer.data];
      return { ...base, Type: DISCOVERED_RECORD_TYPES.TXT, Value: parts.map((p) => (Buffer.isBuffer(p) ? p.toString('utf8') : p)).join('') };
    }
    case 'CAA': {
      const { flags, tag, value } = answer.data;
      return { ...base, Type: DISCOVERED_RECORD_TYPES.CAA, Value: `${flags ?? 0} ${tag} "${value.replace(/["\\]/g, '\\$&')}"` };
    }
    default:
      return undefined;
  }
}

/** Absolute, without the final dot, lower case (names are case-insensitive; the root stays "."). */
const bare = (name: string) => (name === '' || name === '.' ? '.' : name.replace(/\.$/, '').toLowerCase());

async function inBatches<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        // The first failure decides; the other workers stop asking.
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
