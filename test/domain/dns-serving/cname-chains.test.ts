/**
 * CNAMEs followed inside a zone and across the store's zones, bounded, loops stopped, and chains
 * that end in a name that does not exist (RFC 6604).
 */
import { describe, expect, it } from 'vitest';
import { MAX_CHAIN } from '../../../src/domain/dns/serving/authority.js';
import { a, ask, authority, cname, data, shape, txt, zone } from './helpers.js';

describe('CNAME', () => {
  const served = authority([
    zone('example.com', [
      cname('www', 'web.example.com'),
      cname('web', 'host.example.com'),
      a('host', '192.0.2.1'),
      txt('web', 'not served: a CNAME is the only data of its name'),
      cname('out', 'cdn.example.net'),
      cname('far', 'www.example.org'),
      cname('dangling', 'missing.example.com'),
      cname('empty', 'host.example.com'),
      cname('loop1', 'loop2.example.com'),
      cname('loop2', 'loop1.example.com'),
      cname('self', 'self.example.com'),
      ...Array.from({ length: 12 }, (_, i) => cname(`c${i}`, `c${i + 1}.example.com`)),
      a('c12', '192.0.2.12'),
    ]),
    zone('example.org', [cname('www', 'edge.example.org'), a('edge', '192.0.2.50')]),
  ]);

  it('is followed inside the zone: the whole chain, then the answer', async () => {
    const answer = await ask(served, 'www.example.com', 'A');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true });
    expect(shape(answer.answers)).toEqual([
      ['www.example.com', 'CNAME', 300],
      ['web.example.com', 'CNAME', 300],
      ['host.example.com', 'A', 300],
    ]);
  });

  it('asked for itself (qtype CNAME), it is not followed', async () => {
    expect(data((await ask(served, 'www.example.com', 'CNAME')).answers)).toEqual(['web.example.com']);
  });

  it('is the only data of its name: other types at it follow the CNAME', async () => {
    const answer = await ask(served, 'web.example.com', 'TXT');
    expect(shape(answer.answers)).toEqual([['web.example.com', 'CNAME', 300]]);
    expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
  });

  it('is followed across zones of the store', async () => {
    const answer = await ask(served, 'far.example.com', 'A');
    expect(shape(answer.answers)).toEqual([
      ['far.example.com', 'CNAME', 300],
      ['www.example.org', 'CNAME', 300],
      ['edge.example.org', 'A', 300],
    ]);
  });

  it('to a name outside the store: the CNAME alone, for the resolver to follow', async () => {
    const answer = await ask(served, 'out.example.com', 'A');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true, authorities: [] });
    expect(shape(answer.answers)).toEqual([['out.example.com', 'CNAME', 300]]);
  });

  it('to a name that does not exist: NXDOMAIN with the chain and the SOA of the last name (RFC 6604)', async () => {
    const answer = await ask(served, 'dangling.example.com', 'A');
    expect(answer.rcode).toBe('NXDOMAIN');
    expect(shape(answer.answers)).toEqual([['dangling.example.com', 'CNAME', 300]]);
    expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
  });

  it('to a name without the type: NODATA with the chain', async () => {
    const answer = await ask(served, 'empty.example.com', 'AAAA');
    expect(answer.rcode).toBe('NOERROR');
    expect(shape(answer.answers)).toEqual([['empty.example.com', 'CNAME', 300]]);
    expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
  });

  it('loops stop at the first repeated name: each link once, NOERROR', async () => {
    const loop = await ask(served, 'loop1.example.com', 'A');
    expect(loop.rcode).toBe('NOERROR');
    expect(shape(loop.answers)).toEqual([
      ['loop1.example.com', 'CNAME', 300],
      ['loop2.example.com', 'CNAME', 300],
    ]);
    expect(shape((await ask(served, 'self.example.com', 'A')).answers)).toEqual([['self.example.com', 'CNAME', 300]]);
  });

  it(`a chain longer than ${MAX_CHAIN} links stops there; the resolver carries on from the last target`, async () => {
    const answer = await ask(served, 'c0.example.com', 'A');
    expect(answer.rcode).toBe('NOERROR');
    expect(answer.answers).toHaveLength(MAX_CHAIN);
    expect(answer.answers!.every((r) => r.type === 'CNAME')).toBe(true);
    expect(data(answer.answers).at(-1)).toBe(`c${MAX_CHAIN}.example.com`);
    const short = await ask(served, 'c5.example.com', 'A');
    expect(data(short.answers, 'A')).toEqual(['192.0.2.12']);
  });

  it('ANY at a CNAME returns the CNAME without following it', async () => {
    expect(shape((await ask(served, 'www.example.com', 'ANY')).answers)).toEqual([['www.example.com', 'CNAME', 300]]);
  });
});

describe('a CNAME at the apex', () => {
  it('cannot stand beside SOA and NS: it is answered as a Flatten (the target addresses at the apex)', async () => {
    const served = authority([zone('example.com', [cname('', 'www.example.com'), a('www', '192.0.2.1')])]);
    const answer = await ask(served, 'example.com', 'A');
    expect(shape(answer.answers)).toEqual([['example.com', 'A', 300]]);
    expect(data(answer.answers)).toEqual(['192.0.2.1']);
    expect(data((await ask(served, 'example.com', 'SOA')).answers)).toHaveLength(1);
    expect(await ask(served, 'example.com', 'CNAME')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });
});
