/**
 * ANY answered minimally (RFC 8482), and the helpers the transport builds answers with.
 */
import { decode, encode } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { generateZoneSigningKey } from '../../../src/domain/dns/serving/dnssec.js';
import { errorResponse, rcodeOf, RCODE, truncated } from '../../../src/domain/dns/serving/response.js';
import { a, aaaa, ask, authority, contextOf, queryPacket, rec, shape, txt, zone } from './helpers.js';

describe('ANY (RFC 8482)', () => {
  const served = authority([
    zone('example.com', [a('www', '192.0.2.1'), aaaa('www', '2001:db8::1'), txt('www', 'hi'), txt('t', 'only text'), a('x.ent', '192.0.2.2')]),
  ]);

  it('one RRset of the name, the first present of A, AAAA, HTTPS, MX, TXT…, over UDP and TCP alike', async () => {
    expect(shape((await ask(served, 'www.example.com', 'ANY')).answers)).toEqual([['www.example.com', 'A', 300]]);
    expect(shape((await ask(served, 'www.example.com', 'ANY', { transport: 'tcp' })).answers)).toEqual([['www.example.com', 'A', 300]]);
    expect(shape((await ask(served, 't.example.com', 'ANY')).answers)).toEqual([['t.example.com', 'TXT', 300]]);
  });

  it('at the apex without addresses: the NS set', async () => {
    expect(shape((await ask(served, 'example.com', 'ANY')).answers)).toEqual([
      ['example.com', 'NS', 3600],
      ['example.com', 'NS', 3600],
    ]);
  });

  it('a name with no data is NODATA, a name that does not exist NXDOMAIN', async () => {
    expect(await ask(served, 'ent.example.com', 'ANY')).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect((await ask(served, 'none.example.com', 'ANY')).rcode).toBe('NXDOMAIN');
  });

  it('records are signed as any other answer when asked with DO', async () => {
    const signed = authority([
      zone('signed.example', [rec({ Type: 4, Name: '', Value: 'mx.signed.example', Priority: 1 })], { dnssec: generateZoneSigningKey() }),
    ]);
    expect(shape((await ask(signed, 'signed.example', 'ANY', { dnssec: true })).answers).map(([, type]) => type)).toEqual(['MX', 'RRSIG']);
  });
});

describe('helpers for the transport', () => {
  const served = authority([zone('example.com', [...Array.from({ length: 40 }, (_, i) => txt('big', `record ${i} ${'x'.repeat(60)}`))])]);

  it('truncated(): header and question kept, TC set, records dropped, the OPT kept', async () => {
    const query = queryPacket('big.example.com', 'TXT', { dnssec: true, id: 99 });
    const full = (await served.answer(query, contextOf({ dnssec: true }))).response;
    expect(encode(full).length).toBeGreaterThan(1232);
    const small = decode(encode(truncated(full)));
    expect(small).toMatchObject({ id: 99, flag_tc: true, flag_aa: true, answers: [], authorities: [], questions: [{ name: 'big.example.com', type: 'TXT' }] });
    expect(small.additionals).toEqual([expect.objectContaining({ type: 'OPT', udpPayloadSize: 1232, flag_do: true })]);
    expect(full.flags! & (1 << 9)).toBe(0);
  });

  it('errorResponse() and rcodeOf()', () => {
    const query = queryPacket('x.example.com', 'A', { edns: true });
    const refused = errorResponse(query, RCODE.REFUSED);
    expect(rcodeOf(refused)).toBe(5);
    expect(decode(encode(refused))).toMatchObject({ rcode: 'REFUSED', flag_aa: false, questions: [{ name: 'x.example.com' }] });
    const badvers = served.answer(queryPacket('x.example.com', 'A', { ednsVersion: 2 }), contextOf()) as { response: Parameters<typeof rcodeOf>[0] };
    expect(rcodeOf(badvers.response)).toBe(16);
  });
});
