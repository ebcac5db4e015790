/**
 * The zone every DNS server of the benchmark serves, and the queries dnsperf sends it. Both are
 * derived from a fixed seed, so every server, and every run, sees the same zone and the same mix.
 *
 * 10,000 records: 5,000 A, 2,000 AAAA (on the first 2,000 A names), 1,000 MX, 2,000 TXT. The mix,
 * shaped like an authoritative server's traffic: 50% A, 20% AAAA, 10% MX, 10% TXT, 10% names that
 * do not exist (NXDOMAIN, with the SOA in the authority section).
 */
import { writeFileSync } from 'node:fs';

export const DNS_ZONE = 'bench-zone.test';
export const NAMESERVERS = ['ns1.bench-zone.test', 'ns2.bench-zone.test'];
const A = 5_000;
const AAAA = 2_000;
const MX = 1_000;
const TXT = 2_000;
export const ZONE_RECORDS = A + AAAA + MX + TXT;
const QUERIES = 100_000;
const TTL = 300;

export interface BenchRecord {
  /** Relative to the zone. */
  name: string;
  type: 'A' | 'AAAA' | 'MX' | 'TXT';
  /** As the API takes it (`Value`; MX: the exchange, with `Priority`). */
  value: string;
  priority?: number;
}

export const ipv4 = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
export const ipv6 = (i: number) => `2001:db8::${(i + 1).toString(16)}`;
const txt = (i: number) => `v=spf1 ip4:${ipv4(i)} include:_spf.example.net ~all id=${i}`;

export function zoneRecords(): BenchRecord[] {
  const records: BenchRecord[] = [];
  for (let i = 0; i < A; i++) records.push({ name: `host${i}`, type: 'A', value: ipv4(i) });
  for (let i = 0; i < AAAA; i++) records.push({ name: `host${i}`, type: 'AAAA', value: ipv6(i) });
  for (let i = 0; i < MX; i++) records.push({ name: `mail${i}`, type: 'MX', value: `mx${i % 10}.example.net`, priority: 10 });
  for (let i = 0; i < TXT; i++) records.push({ name: `text${i}`, type: 'TXT', value: txt(i) });
  return records;
}

/** One line of a zone file (RFC 1035 presentation format), relative names, no $ORIGIN needed beyond the file's. */
export function zoneLine(record: BenchRecord): string {
  const data = record.type === 'MX' ? `${record.priority} ${record.value}.` : record.type === 'TXT' ? `"${record.value}"` : record.value;
  return `${record.name} ${TTL} IN ${record.type} ${data}`;
}

/** The whole zone as NSD and PowerDNS load it: SOA, NS, and the records. */
export function writeZoneFile(path: string): void {
  const head = [
    `$ORIGIN ${DNS_ZONE}.`,
    `$TTL ${TTL}`,
    `@ 3600 IN SOA ${NAMESERVERS[0]}. hostmaster.${DNS_ZONE}. 1 7200 3600 1209600 300`,
    ...NAMESERVERS.map((ns) => `@ 3600 IN NS ${ns}.`),
  ];
  writeFileSync(path, `${[...head, ...zoneRecords().map(zoneLine)].join('\n')}\n`);
}

/** dnsperf's input: one `name type` per line, in the mix above, shuffled by a fixed seed. */
export function writeQueryFile(path: string): void {
  const random = seeded(20_240_601);
  const pick = (n: number) => Math.floor(random() * n);
  const lines: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const roll = random();
    if (roll < 0.5) lines.push(`host${pick(A)}.${DNS_ZONE} A`);
    else if (roll < 0.7) lines.push(`host${pick(AAAA)}.${DNS_ZONE} AAAA`);
    else if (roll < 0.8) lines.push(`mail${pick(MX)}.${DNS_ZONE} MX`);
    else if (roll < 0.9) lines.push(`text${pick(TXT)}.${DNS_ZONE} TXT`);
    else lines.push(`missing${pick(1_000_000)}.${DNS_ZONE} A`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** mulberry32: a small PRNG, so the mix does not depend on Math.random. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
