/**
 * What every zone answers at its apex, what a name outside all zones gets, negative answers, the
 * letter case of names, and the header of answers.
 */
import { describe, expect, it } from 'vitest';
import { writeZoneFile } from '../../../src/domain/dns/zone-export.js';
import type { DnsZoneT } from '../../../src/schemas/dns.js';
import { a, ask, authority, cname, data, queryPacket, contextOf, rec, shape, txt, withoutOpt, zone } from './helpers.js';

describe('the apex', () => {
  const served = authority([
    zone('example.com', [a('www', '192.0.2.1')], {
      serial: 1700000000,
      soaEmail: 'john.doe@example.net',
      nameservers: ['NS1.Provider.test.', 'ns2.provider.test'],
    }),
  ]);

  it('SOA: MNAME the first name server, RNAME the mailbox with its dots escaped, the serial, the timers', async () => {
    const answer = await ask(served, 'example.com', 'SOA');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true });
    expect(shape(answer.answers)).toEqual([['example.com', 'SOA', 3600]]);
    expect(data(answer.answers)).toEqual([
      { mname: 'ns1.provider.test', rname: 'john\\.doe.example.net', serial: 1700000000, refresh: 3600, retry: 600, expire: 1209600, minimum: 300 },
    ]);
  });

  it('NS: the zone name servers', async () => {
    expect(data((await ask(served, 'example.com', 'NS')).answers)).toEqual(['ns1.provider.test', 'ns2.provider.test']);
  });

  it('agrees with the zone export: same SOA TTL, timers and NS TTL', async () => {
    const exported: DnsZoneT = {
      Id: 1,
      Domain: 'example.com',
      Records: [],
      DateModified: '2024-01-01T00:00:00Z',
      DateCreated: '2024-01-01T00:00:00Z',
      NameserversDetected: false,
      CustomNameserversEnabled: false,
      Nameserver1: 'ns1.provider.test',
      Nameserver2: 'ns2.provider.test',
      SoaEmail: 'john.doe@example.net',
      NameserversNextCheck: '2024-01-01T00:00:00Z',
      LoggingEnabled: false,
      LoggingIPAnonymizationEnabled: false,
      LogAnonymizationType: 0,
      DnsSecEnabled: false,
      CertificateKeyType: 0,
    };
    const file = writeZoneFile(exported, []);
    const soaTtl = Number(/^@\t(\d+)\tIN\tSOA\t/m.exec(file)![1]);
    const timers = [...file.matchAll(/^\t+(\d+)(?: \))?\t; (refresh|retry|expire|minimum)$/gm)].map((m) => [m[2], Number(m[1])]);
    const nsTtl = Number(/^@\t(\d+)\tIN\tNS\t/m.exec(file)![1]);
    expect(file).toContain('ns1.provider.test. john\\.doe.example.net. (');

    const soa = (await ask(served, 'example.com', 'SOA')).answers![0] as unknown as { ttl: number; data: Record<string, number> };
    expect(soa.ttl).toBe(soaTtl);
    expect(timers).toEqual(['refresh', 'retry', 'expire', 'minimum'].map((t) => [t, soa.data[t]]));
    expect(((await ask(served, 'example.com', 'NS')).answers![0] as { ttl: number }).ttl).toBe(nsTtl);
  });

  it('a zone without name servers names ns.<domain> as MNAME and hostmaster as RNAME', async () => {
    const bare = authority([zone('example.org', [], { nameservers: [], soaEmail: '' })]);
    expect(data((await ask(bare, 'example.org', 'SOA')).answers)[0]).toMatchObject({ mname: 'ns.example.org', rname: 'hostmaster.example.org' });
    expect(await ask(bare, 'example.org', 'NS')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });
});

describe('negative answers', () => {
  const served = authority([zone('example.com', [a('www', '192.0.2.1'), a('deep.a.b', '192.0.2.2'), rec({ Type: 11, Name: 'script', ScriptId: 7 })])]);

  it('NXDOMAIN: authoritative, the SOA in the authority section at the negative TTL (min of SOA minimum and TTL)', async () => {
    const answer = await ask(served, 'nothing.example.com', 'A');
    expect(answer).toMatchObject({ rcode: 'NXDOMAIN', flag_aa: true, answers: [] });
    expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
    expect((data(answer.authorities)[0] as { minimum: number }).minimum).toBe(300);
  });

  it('NODATA: NOERROR with no answer and the same SOA', async () => {
    const answer = await ask(served, 'www.example.com', 'AAAA');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true, answers: [] });
    expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
  });

  it('an empty non-terminal exists: NODATA, not NXDOMAIN', async () => {
    expect(await ask(served, 'a.b.example.com', 'A')).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(await ask(served, 'b.example.com', 'TXT')).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect((await ask(served, 'x.b.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });

  it('a Script record: the name exists but answers nothing (no script runtime)', async () => {
    for (const type of ['A', 'AAAA', 'TXT']) {
      const answer = await ask(served, 'script.example.com', type);
      expect(answer).toMatchObject({ rcode: 'NOERROR', answers: [] });
      expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
    }
  });

  it('types the server has no records of (LOC, DNSKEY of an unsigned zone) are NODATA', async () => {
    expect(await ask(served, 'www.example.com', 'LOC')).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(await ask(served, 'example.com', 'DNSKEY')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });
});

describe('names outside every zone', () => {
  const served = authority([zone('example.com', [a('www', '192.0.2.1')])]);

  it('are REFUSED: no AA, no records', async () => {
    for (const name of ['example.net', 'notexample.com', 'com', '.']) {
      const answer = await ask(served, name, 'A');
      expect(answer, name).toMatchObject({ rcode: 'REFUSED', flag_aa: false, answers: [], authorities: [] });
    }
  });

  it('a removed zone is no longer answered', async () => {
    const z = zone('gone.test', [a('www', '192.0.2.1')]);
    const s = authority([z]);
    expect((await ask(s, 'www.gone.test', 'A')).rcode).toBe('NOERROR');
    s.removeZone(z.id);
    expect((await ask(s, 'www.gone.test', 'A')).rcode).toBe('REFUSED');
  });

  it('the longest matching zone answers; setZone replaces a zone', async () => {
    const parent = zone('example.com', [a('www.sub', '192.0.2.1')]);
    const child = zone('sub.example.com', [a('www', '192.0.2.2')]);
    const s = authority([parent, child]);
    expect(data((await ask(s, 'www.sub.example.com', 'A')).answers)).toEqual(['192.0.2.2']);
    s.setZone({ ...child, records: [a('www', '192.0.2.3')] });
    expect(data((await ask(s, 'www.sub.example.com', 'A')).answers)).toEqual(['192.0.2.3']);
    s.setZone({ ...child, domain: 'renamed.example.com' });
    expect(data((await ask(s, 'www.sub.example.com', 'A')).answers)).toEqual(['192.0.2.1']);
  });
});

describe('letter case', () => {
  const served = authority([zone('Example.COM', [a('WWW', '192.0.2.1'), cname('Alias', 'www.example.com'), txt('*.Wild', 'w')])]);

  it('names match in any case; the question and the records at the name asked keep the asked spelling', async () => {
    const answer = await ask(served, 'wWw.ExAmPlE.cOm', 'A');
    expect(answer.questions).toEqual([{ name: 'wWw.ExAmPlE.cOm', type: 'A', class: 'IN' }]);
    expect(shape(answer.answers)).toEqual([['wWw.ExAmPlE.cOm', 'A', 300]]);
  });

  it('in a CNAME chain, names after the first are the targets as served (lower case)', async () => {
    const answer = await ask(served, 'ALIAS.example.com', 'A');
    expect(shape(answer.answers)).toEqual([
      ['ALIAS.example.com', 'CNAME', 300],
      ['www.example.com', 'A', 300],
    ]);
  });

  it('a wildcard answer is owned by the name asked, as spelled', async () => {
    expect(shape((await ask(served, 'Some.WILD.example.com', 'TXT')).answers)).toEqual([['Some.WILD.example.com', 'TXT', 300]]);
  });

  it('a negative answer names the zone apex in lower case', async () => {
    expect(shape((await ask(served, 'NOPE.EXAMPLE.COM', 'A')).authorities)).toEqual([['example.com', 'SOA', 300]]);
  });
});

describe('the header', () => {
  const served = authority([zone('example.com', [a('www', '192.0.2.1')])]);

  it('keeps the id, RD and CD, sets QR and AA, never RA', async () => {
    const answer = await ask(served, 'www.example.com', 'A', { id: 777, flags: (1 << 8) | (1 << 4) });
    expect(answer).toMatchObject({ id: 777, type: 'response', flag_qr: true, flag_aa: true, flag_rd: true, flag_cd: true, flag_ra: false });
    const noRd = await ask(served, 'www.example.com', 'A', { flags: 0 });
    expect(noRd.flag_rd).toBe(false);
  });

  it('answers other opcodes NOTIMP, other classes and zone transfers REFUSED, a query without one question FORMERR', async () => {
    const notify = await ask(served, 'example.com', 'SOA', { flags: 4 << 11 });
    expect(notify).toMatchObject({ rcode: 'NOTIMP', opcode: 'NOTIFY', flag_aa: false });
    const chaos = queryPacket('version.bind', 'TXT');
    chaos.questions![0]!.class = 'CH';
    expect((await served.answer(chaos, contextOf())).response.flags! & 0xf).toBe(5);
    expect((await ask(served, 'example.com', 'AXFR', { transport: 'tcp' })).rcode).toBe('REFUSED');
    const two = queryPacket('www.example.com', 'A');
    two.questions!.push({ name: 'example.com', type: 'A' });
    expect((await served.answer(two, contextOf())).response.flags! & 0xf).toBe(1);
    const none = { ...queryPacket('www.example.com', 'A'), questions: [] };
    expect((await served.answer(none, contextOf())).response.flags! & 0xf).toBe(1);
  });

  it('carries no OPT when the query had none, and one when it had: size 1232, DO echoed', async () => {
    expect((await ask(served, 'www.example.com', 'A')).additionals).toEqual([]);
    const answer = await ask(served, 'www.example.com', 'A', { dnssec: true });
    expect(answer.additionals).toEqual([
      { name: '.', type: 'OPT', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0x8000, flag_do: true, options: [] },
    ]);
    expect(withoutOpt((await ask(served, 'www.example.com', 'A', { edns: true })).additionals)).toEqual([]);
    expect((await ask(served, 'www.example.com', 'A', { edns: true })).additionals![0]).toMatchObject({ flag_do: false });
  });

  it('answers EDNS versions above 0 BADVERS (extended rcode 16)', async () => {
    const answer = await ask(served, 'www.example.com', 'A', { ednsVersion: 1 });
    expect(answer).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(answer.additionals![0]).toMatchObject({ type: 'OPT', extendedRcode: 1, ednsVersion: 0 });
  });

  it('names the zone that answered, for logs and statistics', async () => {
    const z = zone('logged.test', [a('www', '192.0.2.1')], { logging: true });
    const s = authority([z]);
    expect((await s.answer(queryPacket('www.logged.test', 'A'), contextOf())).zone).toBe(z);
    expect((await s.answer(queryPacket('www.other.test', 'A'), contextOf())).zone).toBeUndefined();
  });
});
