/**
 * Which records of an RRset a query gets, decided once per zone change so that a query only draws
 * a number:
 *
 * - Records whose monitor says Offline (MonitorStatus 2) are left out while another record of the
 *   set is Online or Unknown; when all are Offline, all are served (an empty answer would hide the
 *   name altogether, which helps nobody when the monitor itself may be wrong).
 * - Address-like sets (A, AAAA, and the platform records answered as addresses: PullZone, Redirect,
 *   Flatten; and CNAME) are weighted when their records' Weight values differ: each query gets one
 *   record, drawn with probability Weight / sum of Weights (a record of Weight 0 is then never
 *   drawn). Equal weights serve every record, as plain DNS does.
 * - A CNAME set always answers with one record (a name has one canonical name, RFC 2181 §10.1):
 *   drawn by weight, or evenly when the weights are equal.
 * - Other types (MX, TXT, SRV, CAA, NS…) serve every record; SRV carries its Weight in its data,
 *   for clients to weigh as RFC 2782 says.
 * - SmartRoutingType Latency and Geolocation need a location database the server does not have:
 *   such records are served as if routing were None.
 */
import type { Answer, OptAnswer } from 'dns-packet';

/** A resource record: an answer that is not the OPT pseudo-record. */
export type RR = Exclude<Answer, OptAnswer>;

/** One record of the set, as the answers it stands for (a PullZone record: every edge address). */
export interface Candidate {
  weight: number;
  offline: boolean;
  ttl: number;
  answers: RR[];
  /** Flatten: the target whose addresses are the answer, resolved per query. */
  flatten?: string;
}

/** What one query gets: static answers plus targets to flatten, and a key naming that content (signature cache). */
export interface Selection {
  answers: readonly RR[];
  ttl: number;
  flatten: readonly string[];
  key: string;
}

export interface RRset {
  type: string;
  /** Whether `select` draws: each query may then get another record. */
  readonly drawn: boolean;
  select(random: () => number): Selection;
  /** Every record that can be served (for glue and for what exists at a name). */
  readonly all: Selection;
}

const WEIGHTED_TYPES = new Set(['A', 'AAAA', 'CNAME']);
const NO_TARGETS: readonly string[] = [];

export function buildRRset(type: string, candidates: readonly Candidate[]): RRset {
  const online = candidates.filter((c) => !c.offline);
  const pool = online.length > 0 ? online : candidates;
  const all = combine(pool);
  const weightsDiffer = pool.some((c) => c.weight !== pool[0]!.weight);
  const pickOne = type === 'CNAME' ? pool.length > 1 : WEIGHTED_TYPES.has(type) && weightsDiffer;
  if (!pickOne) return { type, all, drawn: false, select: () => all };

  const singles = pool.map((c) => combine([c]));
  const weights = weightsDiffer ? pool.map((c) => c.weight) : pool.map(() => 1);
  let sum = 0;
  const cumulative = weights.map((w) => (sum += w));
  return {
    type,
    all,
    drawn: true,
    select(random) {
      const point = random() * sum;
      for (let i = 0; i < cumulative.length; i++) if (point < cumulative[i]!) return singles[i]!;
      return singles[singles.length - 1]!;
    },
  };
}

/**
 * The candidates served together: one TTL for the set (the lowest: an RRset has one TTL, RFC 2181
 * §5.2, and signatures need it), identical records once.
 */
function combine(candidates: readonly Candidate[]): Selection {
  const only = candidates.length === 1 ? candidates[0]! : undefined;
  if (only && only.flatten === undefined && only.answers.length === 1) {
    // Most RRsets hold one record: no copies, no dedup (a large zone builds in a few tens of ms).
    return { answers: only.answers, ttl: only.ttl, flatten: NO_TARGETS, key: answerIdentity(only.answers[0]!) };
  }
  const ttl = candidates.reduce((min, c) => Math.min(min, c.ttl), Number.POSITIVE_INFINITY);
  const seen = new Set<string>();
  const answers: RR[] = [];
  for (const c of candidates) {
    for (const a of c.answers) {
      const identity = answerIdentity(a);
      if (seen.has(identity)) continue;
      seen.add(identity);
      answers.push(a.ttl === ttl ? a : { ...a, ttl });
    }
  }
  const flatten = [...new Set(candidates.flatMap((c) => (c.flatten === undefined ? [] : [c.flatten])))];
  const key = [...answers.map(answerIdentity), ...flatten.map((f) => `flatten|${f}`)].join('\n');
  return { answers, ttl: Number.isFinite(ttl) ? ttl : 0, flatten, key };
}

/** The record's type and data as text: equal for records that are the same answer. */
export function answerIdentity(a: Answer): string {
  if (a.type === 'OPT') return 'OPT';
  const data: unknown = a.data;
  if (typeof data === 'string') return `${a.type}|${data}`;
  return `${a.type}|${JSON.stringify(data, (_key, v: unknown) => (isSerializedBuffer(v) ? Buffer.from(v.data).toString('hex') : v))}`;
}

/** What `JSON.stringify` makes of a Buffer before a replacer sees it. */
const isSerializedBuffer = (v: unknown): v is { data: number[] } => typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'Buffer';
