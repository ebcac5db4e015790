/**
 * NS records below the apex delegate a subtree: referrals without AA, the NS set in the authority
 * section, glue for name servers inside the zone.
 */
import { describe, expect, it } from 'vitest';
import { a, aaaa, ask, authority, cname, data, ns, shape, zone } from './helpers.js';

describe('delegations', () => {
  const served = authority([
    zone('example.com', [
      ns('sub', 'ns1.sub.example.com'),
      ns('sub', 'ns.elsewhere.net'),
      a('ns1.sub', '192.0.2.53'),
      aaaa('ns1.sub', '2001:db8::53'),
      a('www.sub', '192.0.2.99'),
      ns('deep.sub', 'ns.deeper.net'),
      ns('other', 'ns.other.example.com'),
      a('ns.other', '192.0.2.54'),
      cname('to-sub', 'host.sub.example.com'),
      a('www', '192.0.2.1'),
    ]),
  ]);

  it('the delegated name: a referral, no AA, the NS set in authority, glue for the name servers inside the zone', async () => {
    const answer = await ask(served, 'sub.example.com', 'A');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: false, answers: [] });
    expect(shape(answer.authorities)).toEqual([
      ['sub.example.com', 'NS', 300],
      ['sub.example.com', 'NS', 300],
    ]);
    expect(data(answer.authorities)).toEqual(['ns1.sub.example.com', 'ns.elsewhere.net']);
    expect(shape(answer.additionals)).toEqual([
      ['ns1.sub.example.com', 'A', 300],
      ['ns1.sub.example.com', 'AAAA', 300],
    ]);
  });

  it('names under the delegation are referred too, whatever data the zone holds there', async () => {
    for (const name of ['www.sub.example.com', 'ns1.sub.example.com', 'a.b.deep.sub.example.com']) {
      const answer = await ask(served, name, 'A');
      expect(answer, name).toMatchObject({ flag_aa: false, answers: [] });
      expect(data(answer.authorities), name).toEqual(['ns1.sub.example.com', 'ns.elsewhere.net']);
    }
  });

  it('NS asked at the delegation is a referral as well; the case of the asked name is kept', async () => {
    const answer = await ask(served, 'SUB.example.com', 'NS');
    expect(answer.flag_aa).toBe(false);
    expect(shape(answer.authorities)[0]).toEqual(['SUB.example.com', 'NS', 300]);
  });

  it('DS at the delegation is the parent zone data: answered authoritatively (none here: NODATA)', async () => {
    const answer = await ask(served, 'sub.example.com', 'DS');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true, answers: [] });
    expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
  });

  it('a delegation to a name server of the zone gets its glue', async () => {
    const answer = await ask(served, 'x.other.example.com', 'A');
    expect(data(answer.additionals)).toEqual(['192.0.2.54']);
  });

  it('names beside the delegation are answered as usual', async () => {
    expect(data((await ask(served, 'www.example.com', 'A')).answers)).toEqual(['192.0.2.1']);
  });

  it('a CNAME into a delegation ends the chain there (the resolver follows it from the delegation)', async () => {
    const answer = await ask(served, 'to-sub.example.com', 'A');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true });
    expect(shape(answer.answers)).toEqual([['to-sub.example.com', 'CNAME', 300]]);
  });

  it('a DS question at a zone apex goes to the parent zone when the store holds it', async () => {
    const parentAndChild = authority([zone('example.net', [ns('child', 'ns.child.example.net')]), zone('child.example.net', [a('www', '192.0.2.7')])]);
    const ds = await ask(parentAndChild, 'child.example.net', 'DS');
    expect(shape(ds.authorities)).toEqual([['example.net', 'SOA', 300]]);
    const soa = await ask(parentAndChild, 'child.example.net', 'SOA');
    expect(shape(soa.answers)).toEqual([['child.example.net', 'SOA', 3600]]);
    const alone = authority([zone('solo.example', [])]);
    expect(shape((await ask(alone, 'solo.example', 'DS')).authorities)).toEqual([['solo.example', 'SOA', 300]]);
  });
});
