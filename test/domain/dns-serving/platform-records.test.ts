/**
 * The platform's own record types: PullZone and Redirect (answered with the edge's addresses) and
 * Flatten (answered with the target's addresses, from the store or upstream).
 */
import type { Answer } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import type { UpstreamResolver } from '../../../src/domain/dns/serving/types.js';
import { a, aaaa, ask, authority, cname, contextOf, data, queryPacket, rec, shape, zone } from './helpers.js';

describe('PullZone and Redirect records', () => {
  const served = authority([
    zone('example.com', [
      rec({ Type: 7, Name: 'cdn', PullZoneId: 5, Ttl: 120 }),
      rec({ Type: 5, Name: 'old', Value: 'https://new.example.com/', Ttl: 60 }),
      rec({ Type: 7, Name: '', PullZoneId: 6 }),
    ]),
  ]);

  it('answer A with the edge IPv4 addresses and AAAA with its IPv6 addresses, at the record TTL', async () => {
    const a4 = await ask(served, 'cdn.example.com', 'A');
    expect(data(a4.answers)).toEqual(['198.51.100.7', '198.51.100.8']);
    expect(shape(a4.answers)).toEqual([
      ['cdn.example.com', 'A', 120],
      ['cdn.example.com', 'A', 120],
    ]);
    expect(data((await ask(served, 'cdn.example.com', 'AAAA')).answers)).toEqual(['2001:db8:e::7']);
    expect(data((await ask(served, 'old.example.com', 'A')).answers)).toEqual(['198.51.100.7', '198.51.100.8']);
    expect(shape((await ask(served, 'old.example.com', 'AAAA')).answers)).toEqual([['old.example.com', 'AAAA', 60]]);
  });

  it('work at the apex beside SOA and NS; other types are NODATA', async () => {
    expect(data((await ask(served, 'example.com', 'A')).answers)).toEqual(['198.51.100.7', '198.51.100.8']);
    expect(await ask(served, 'cdn.example.com', 'TXT')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('edge addresses from a comma-separated setting: blanks ignored, anything not an address left out', async () => {
    const spaced = authority([zone('example.com', [rec({ Type: 7, Name: 'cdn', PullZoneId: 5 })])], {
      edgeAddresses: ' 198.51.100.7, 2001:db8:e::7 ,not-an-address,,'.split(','),
    });
    expect(data((await ask(spaced, 'cdn.example.com', 'A')).answers)).toEqual(['198.51.100.7']);
    expect(data((await ask(spaced, 'cdn.example.com', 'AAAA')).answers)).toEqual(['2001:db8:e::7']);
  });

  it('without IPv6 edge addresses, AAAA is NODATA', async () => {
    const v4only = authority([zone('example.com', [rec({ Type: 7, Name: 'cdn', PullZoneId: 5 })])], { edgeAddresses: ['198.51.100.7'] });
    expect(await ask(v4only, 'cdn.example.com', 'AAAA')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });
});

const flatten = (name: string, target: string, ttl = 300) => rec({ Type: 6, Name: name, Value: target, Ttl: ttl });

describe('Flatten records', () => {
  it('inside the store: the target addresses (CNAMEs followed), owned by the flattened name', async () => {
    const served = authority([
      zone('example.com', [flatten('', 'www.example.com'), cname('www', 'lb.example.org'), rec({ Type: 3, Name: '', Value: 'apex text' })]),
      zone('example.org', [a('lb', '192.0.2.1'), a('lb', '192.0.2.2', { Ttl: 60 }), aaaa('lb', '2001:db8::1')]),
    ]);
    // Answered at once: no upstream involved.
    expect(served.answer(queryPacket('example.com', 'A'), contextOf())).not.toBeInstanceOf(Promise);
    const a4 = await ask(served, 'example.com', 'A');
    expect(shape(a4.answers)).toEqual([
      ['example.com', 'A', 60],
      ['example.com', 'A', 60],
    ]);
    expect(data(a4.answers)).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(data((await ask(served, 'example.com', 'AAAA')).answers)).toEqual(['2001:db8::1']);
    expect(data((await ask(served, 'example.com', 'TXT')).answers)).toEqual([[Buffer.from('apex text')]]);
  });

  it('inside the store, the TTL is the lower of the record and the target', async () => {
    const served = authority([zone('example.com', [flatten('f', 't.example.com', 30), a('t', '192.0.2.1', { Ttl: 600 })])]);
    expect(shape((await ask(served, 'f.example.com', 'A')).answers)).toEqual([['f.example.com', 'A', 30]]);
  });

  it('to a target without the type, or that does not exist: NODATA at the flattened name', async () => {
    const served = authority([zone('example.com', [flatten('f', 'v4only.example.com'), a('v4only', '192.0.2.1'), flatten('g', 'missing.example.com')])]);
    const nodata = await ask(served, 'f.example.com', 'AAAA');
    expect(nodata).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(shape(nodata.authorities)).toEqual([['example.com', 'SOA', 300]]);
    expect(await ask(served, 'g.example.com', 'A')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('outside the store: the upstream resolver answers, kept for its TTL', async () => {
    const asked: string[] = [];
    const resolveUpstream: UpstreamResolver = async (name, type) => {
      asked.push(`${name} ${type}`);
      if (type === 'AAAA') return [];
      return [
        { name, type: 'CNAME', ttl: 300, class: 'IN', data: 'edge.cdn.example' },
        { name: 'edge.cdn.example', type: 'A', ttl: 120, class: 'IN', data: '203.0.113.5' },
        { name: 'edge.cdn.example', type: 'A', ttl: 90, class: 'IN', data: '203.0.113.6' },
      ] as Answer[];
    };
    let now = Date.parse('2025-01-01T00:00:00Z');
    const served = authority([zone('example.com', [flatten('', 'site.cdn.example', 600)])], { resolveUpstream, clock: () => new Date(now) });
    const first = await ask(served, 'example.com', 'A');
    expect(shape(first.answers)).toEqual([
      ['example.com', 'A', 90],
      ['example.com', 'A', 90],
    ]);
    expect(data(first.answers)).toEqual(['203.0.113.5', '203.0.113.6']);
    now += 30_000;
    expect(shape((await ask(served, 'example.com', 'A')).answers)[0]).toEqual(['example.com', 'A', 60]);
    expect(asked).toEqual(['site.cdn.example A']);
    now += 61_000;
    await ask(served, 'example.com', 'A');
    expect(asked).toEqual(['site.cdn.example A', 'site.cdn.example A']);
    expect(await ask(served, 'example.com', 'AAAA')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('concurrent queries for one upstream name share one upstream question', async () => {
    let calls = 0;
    const resolveUpstream: UpstreamResolver = async (name) => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return [{ name, type: 'A', ttl: 60, class: 'IN', data: '203.0.113.9' }];
    };
    const served = authority([zone('example.com', [flatten('', 'x.cdn.example')])], { resolveUpstream });
    const answers = await Promise.all(Array.from({ length: 5 }, () => ask(served, 'example.com', 'A')));
    expect(answers.map((r) => data(r.answers))).toEqual(Array(5).fill(['203.0.113.9']));
    expect(calls).toBe(1);
  });

  it('SERVFAIL when the target is outside the store and there is no resolver, or it fails, or gives up', async () => {
    const none = authority([zone('example.com', [flatten('', 'elsewhere.example.net')])]);
    expect(await ask(none, 'example.com', 'A')).toMatchObject({ rcode: 'SERVFAIL', flag_aa: false, answers: [], authorities: [] });
    for (const resolveUpstream of [async () => undefined, async () => Promise.reject(new Error('timeout'))] as UpstreamResolver[]) {
      const failing = authority([zone('example.com', [flatten('', 'elsewhere.example.net')])], { resolveUpstream });
      expect((await ask(failing, 'example.com', 'A')).rcode).toBe('SERVFAIL');
    }
  });

  it('a failed upstream question is asked again next time', async () => {
    let calls = 0;
    const resolveUpstream: UpstreamResolver = async (name) => (++calls === 1 ? undefined : [{ name, type: 'A', ttl: 60, class: 'IN', data: '203.0.113.1' }]);
    const served = authority([zone('example.com', [flatten('', 'flaky.example.net')])], { resolveUpstream });
    expect((await ask(served, 'example.com', 'A')).rcode).toBe('SERVFAIL');
    expect(data((await ask(served, 'example.com', 'A')).answers)).toEqual(['203.0.113.1']);
  });

  it('Flattens that lead back to themselves are SERVFAIL, not a hang', async () => {
    const served = authority([
      zone('example.com', [flatten('a', 'b.example.com'), flatten('b', 'a.example.com'), flatten('self', 'c.example.com'), cname('c', 'self.example.com')]),
    ]);
    expect((await ask(served, 'a.example.com', 'A')).rcode).toBe('SERVFAIL');
    expect((await ask(served, 'self.example.com', 'A')).rcode).toBe('SERVFAIL');
  });

  it('Flatten to Flatten resolves through both', async () => {
    const served = authority([zone('example.com', [flatten('a', 'b.example.com'), flatten('b', 'c.example.com'), a('c', '192.0.2.3')])]);
    expect(data((await ask(served, 'a.example.com', 'A')).answers)).toEqual(['192.0.2.3']);
  });

  it('a Flatten target under a delegation is asked upstream', async () => {
    const resolveUpstream: UpstreamResolver = async (name) => [{ name, type: 'A', ttl: 60, class: 'IN', data: '203.0.113.77' }];
    const served = authority([zone('example.com', [flatten('', 'www.sub.example.com'), rec({ Type: 12, Name: 'sub', Value: 'ns.elsewhere.net' })])], {
      resolveUpstream,
    });
    expect(data((await ask(served, 'example.com', 'A')).answers)).toEqual(['203.0.113.77']);
  });
});
