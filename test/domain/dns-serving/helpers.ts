/**
 * Zones, records and queries for the authority's tests. Every answer goes through dns-packet's
 * encoder and decoder, so what the tests see is what a client would read off the wire.
 */
import { decode, encode, type Answer, type DecodedPacket, type Packet } from 'dns-packet';
import type { DnsRecordRequestT, DnsRecordT } from '../../../src/schemas/dns.js';
import { newRecord } from '../../../src/domain/dns/record-model.js';
import { ServingAuthority } from '../../../src/domain/dns/serving/authority.js';
import type { AuthorityOptions, QueryContext, ServedZone } from '../../../src/domain/dns/serving/types.js';

export const EDGE = ['198.51.100.7', '198.51.100.8', '2001:db8:e::7'];

let nextId = 1;

/** A stored record as the API would have made it, with its statuses overridable. */
export function rec(request: DnsRecordRequestT, overrides: Partial<DnsRecordT> = {}): DnsRecordT {
  return { ...newRecord(nextId++, { Ttl: 300, ...request }), ...overrides };
}

export const a = (name: string, value: string, more: DnsRecordRequestT = {}) => rec({ Type: 0, Name: name, Value: value, ...more });
export const aaaa = (name: string, value: string, more: DnsRecordRequestT = {}) => rec({ Type: 1, Name: name, Value: value, ...more });
export const cname = (name: string, value: string, more: DnsRecordRequestT = {}) => rec({ Type: 2, Name: name, Value: value, ...more });
export const txt = (name: string, value: string) => rec({ Type: 3, Name: name, Value: value });
export const ns = (name: string, value: string) => rec({ Type: 12, Name: name, Value: value });

let nextZoneId = 1;

export function zone(domain: string, records: DnsRecordT[], more: Partial<ServedZone> = {}): ServedZone {
  return {
    id: nextZoneId++,
    accountId: 1,
    domain,
    serial: 2024010101,
    nameservers: ['ns1.edgeplane.test', 'ns2.edgeplane.test'],
    soaEmail: 'hostmaster@edgeplane.test',
    records,
    logging: false,
    ...more,
  };
}

export function authority(zones: ServedZone[], options: Partial<AuthorityOptions> = {}): ServingAuthority {
  const served = new ServingAuthority({ edgeAddresses: EDGE, ...options });
  for (const z of zones) served.setZone(z);
  return served;
}

export interface Ask {
  dnssec?: boolean;
  /** Send an OPT record (implied by dnssec). */
  edns?: boolean;
  ednsFlags?: number;
  ednsVersion?: number;
  transport?: 'udp' | 'tcp';
  id?: number;
  flags?: number;
}

export function queryPacket(name: string, type: string, ask: Ask = {}): Packet {
  const edns = ask.edns || ask.dnssec || ask.ednsFlags !== undefined || ask.ednsVersion !== undefined;
  const optFlags = (ask.dnssec ? 0x8000 : 0) | (ask.ednsFlags ?? 0);
  const query: Packet = {
    id: ask.id ?? 4242,
    type: 'query',
    flags: ask.flags ?? 1 << 8,
    questions: [{ name, type: type as 'A', class: 'IN' }],
    additionals: edns
      ? [
          {
            name: '.',
            type: 'OPT',
            udpPayloadSize: 1232,
            extendedRcode: 0,
            ednsVersion: ask.ednsVersion ?? 0,
            flags: optFlags,
            flag_do: !!ask.dnssec,
            options: [],
          },
        ]
      : [],
  };
  // As the transport hands it over: decoded from the wire.
  return decode(encode(query));
}

export function contextOf(ask: Ask = {}): QueryContext {
  const transport = ask.transport ?? 'udp';
  return { address: '192.0.2.99', transport, maxSize: transport === 'tcp' ? 65535 : 1232, dnssecOk: !!ask.dnssec };
}

export interface Decoded extends DecodedPacket {
  rcode: string;
}

/** Asks and decodes the encoded answer. */
export async function ask(served: ServingAuthority, name: string, type: string, options: Ask = {}): Promise<Decoded> {
  const answered = await served.answer(queryPacket(name, type, options), contextOf(options));
  return decode(encode(answered.response)) as Decoded;
}

/** The data of the answers of one type, in order. */
export const data = (records: Answer[] | undefined, type?: string): unknown[] =>
  (records ?? []).filter((r) => type === undefined || r.type === type).map((r) => (r as { data: unknown }).data);

export const withoutOpt = (records: Answer[] | undefined): Answer[] => (records ?? []).filter((r) => r.type !== 'OPT');

/** `[name, type, ttl]` of each record: the shape of a section at a glance. */
export const shape = (records: Answer[] | undefined) => withoutOpt(records).map((r) => [r.name, r.type, (r as { ttl?: number }).ttl]);
