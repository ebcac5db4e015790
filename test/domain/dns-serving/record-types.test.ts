/**
 * Every record type the platform stores, answered as DNS data: what each type's fields become on
 * the wire.
 */
import { describe, expect, it } from 'vitest';
import { a, aaaa, ask, authority, cname, data, ns, rec, shape, txt, zone } from './helpers.js';

describe('standard record types', () => {
  const served = authority([
    zone('example.com', [
      a('www', '192.0.2.1'),
      a('www', '192.0.2.2'),
      aaaa('www', '2001:db8::1'),
      cname('alias', 'WWW.Example.COM.'),
      txt('', 'v=spf1 -all'),
      rec({ Type: 4, Name: '', Value: 'mx1.example.com', Priority: 10 }),
      rec({ Type: 4, Name: '', Value: 'mx2.example.net.', Priority: 20 }),
      rec({ Type: 4, Name: 'nomail', Value: '.', Priority: 0 }),
      rec({ Type: 8, Name: '_sip._tcp', Value: 'sip.example.com', Priority: 10, Weight: 60, Port: 5060 }),
      rec({ Type: 9, Name: '', Value: 'ca.example.net', Flags: 0, Tag: 'issue' }),
      rec({ Type: 9, Name: '', Value: 'mailto:security@example.com', Flags: 128, Tag: 'iodef' }),
      rec({ Type: 10, Name: '1.2', Value: 'host.example.com' }),
      rec({ Type: 15, Name: '_443._tcp.www', Value: '3 1 1 0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6' }),
      rec({ Type: 15, Name: '_25._tcp.mail', Value: '3 0 1 0C72AC70B745AC19 998811B131D662C9 AC69DBDBE7CB23E5 B514B56664C5D3D6' }),
      rec({ Type: 13, Name: '_dns', Value: '1 dns.example.com. alpn=dot port=853' }),
      rec({ Type: 14, Name: '', Value: '1 . alpn=h2,h3 ipv4hint=192.0.2.1' }),
    ]),
  ]);

  it('A and AAAA: the addresses, every record of the set, at the record TTL', async () => {
    const answer = await ask(served, 'www.example.com', 'A');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true });
    expect(data(answer.answers)).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(shape(answer.answers)).toEqual([
      ['www.example.com', 'A', 300],
      ['www.example.com', 'A', 300],
    ]);
    expect(data((await ask(served, 'www.example.com', 'AAAA')).answers)).toEqual(['2001:db8::1']);
  });

  it('CNAME: the target in lower case, absolute', async () => {
    const answer = await ask(served, 'alias.example.com', 'CNAME');
    expect(data(answer.answers)).toEqual(['www.example.com']);
  });

  it('MX: priority and exchange; "." is the null MX (RFC 7505)', async () => {
    const answer = await ask(served, 'example.com', 'MX');
    expect(data(answer.answers)).toEqual([
      { preference: 10, exchange: 'mx1.example.com' },
      { preference: 20, exchange: 'mx2.example.net' },
    ]);
    expect(data((await ask(served, 'nomail.example.com', 'MX')).answers)).toEqual([{ preference: 0, exchange: '.' }]);
  });

  it('SRV: priority, weight, port, target', async () => {
    const answer = await ask(served, '_sip._tcp.example.com', 'SRV');
    expect(data(answer.answers)).toEqual([{ priority: 10, weight: 60, port: 5060, target: 'sip.example.com' }]);
  });

  it('CAA: flags, tag, value', async () => {
    const answer = await ask(served, 'example.com', 'CAA');
    expect(data(answer.answers)).toEqual([
      { flags: 0, tag: 'issue', value: 'ca.example.net', issuerCritical: false },
      { flags: 128, tag: 'iodef', value: 'mailto:security@example.com', issuerCritical: true },
    ]);
  });

  it('PTR and TXT', async () => {
    expect(data((await ask(served, '1.2.example.com', 'PTR')).answers)).toEqual(['host.example.com']);
    expect(data((await ask(served, 'example.com', 'TXT')).answers)).toEqual([[Buffer.from('v=spf1 -all')]]);
  });

  it('TLSA: usage, selector, matching type and the association data, blanks in the hex allowed', async () => {
    const digest = Buffer.from('0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6', 'hex');
    const www = await ask(served, '_443._tcp.www.example.com', 'TLSA');
    expect(data(www.answers)).toEqual([{ usage: 3, selector: 1, matchingType: 1, certificate: digest }]);
    const mail = await ask(served, '_25._tcp.mail.example.com', 'TLSA');
    expect(data(mail.answers)).toEqual([{ usage: 3, selector: 0, matchingType: 1, certificate: digest }]);
  });

  it('SVCB (type 64) and HTTPS (type 65), asked by number as resolvers do', async () => {
    const svcb = await ask(served, '_dns.example.com', 'UNKNOWN_64');
    expect(shape(svcb.answers)).toEqual([['_dns.example.com', 'UNKNOWN_64', 300]]);
    expect((data(svcb.answers)[0] as Buffer).toString('hex')).toBe(`0001${'03646e73076578616d706c6503636f6d00'}${'0001000403646f74'}${'000300020355'}`);
    const https = await ask(served, 'example.com', 'UNKNOWN_65');
    expect((data(https.answers)[0] as Buffer).toString('hex')).toBe(`000100${'0001000602683202683300040004c0000201'}`);
  });

  it('NS at the apex: the zone name servers', async () => {
    expect(data((await ask(served, 'example.com', 'NS')).answers)).toEqual(['ns1.edgeplane.test', 'ns2.edgeplane.test']);
  });
});

describe('TXT', () => {
  it('splits a value longer than 255 bytes into character-strings of at most 255 bytes, cut on bytes', async () => {
    const value = `${'é'.repeat(200)}${'x'.repeat(200)}`; // 600 bytes of UTF-8
    const served = authority([zone('example.com', [txt('long', value)])]);
    const strings = data((await ask(served, 'long.example.com', 'TXT')).answers)[0] as Buffer[];
    expect(strings.map((s) => s.length)).toEqual([255, 255, 90]);
    expect(Buffer.concat(strings).toString('utf8')).toBe(value);
  });

  it('does not serve a text too long for any record (over 65535 octets of data)', async () => {
    const served = authority([zone('example.com', [txt('huge', 'x'.repeat(70000)), txt('fits', 'y'.repeat(65000))])]);
    expect(await ask(served, 'huge.example.com', 'TXT', { transport: 'tcp' })).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(data((await ask(served, 'fits.example.com', 'TXT', { transport: 'tcp' })).answers)).toHaveLength(1);
  });

  it('serves an empty text as one empty string, and text with quotes and semicolons as it is', async () => {
    const served = authority([zone('example.com', [rec({ Type: 3, Name: 'e', Value: '' }), txt('q', 'say "hi"; \\o/')])]);
    expect(data((await ask(served, 'e.example.com', 'TXT')).answers)).toEqual([[Buffer.alloc(0)]]);
    expect(data((await ask(served, 'q.example.com', 'TXT')).answers)).toEqual([[Buffer.from('say "hi"; \\o/')]]);
  });
});

describe('values that do not parse are not served', () => {
  it('the name exists (NODATA), the record is left out, its valid siblings are served', async () => {
    const served = authority([
      zone('example.com', [
        rec({ Type: 15, Name: 'bad', Value: '3 1 1 xyz' }),
        rec({ Type: 13, Name: 'bad', Value: '1 svc.example.com. alpn' }),
        rec({ Type: 14, Name: 'bad', Value: '1 svc.example.com. port=99999' }),
        a('bad', 'not-an-address'),
        a('bad', '192.0.2.9'),
      ]),
    ]);
    for (const type of ['TLSA', 'UNKNOWN_64', 'UNKNOWN_65']) {
      const answer = await ask(served, 'bad.example.com', type);
      expect(answer).toMatchObject({ rcode: 'NOERROR', answers: [] });
      expect(shape(answer.authorities)).toEqual([['example.com', 'SOA', 300]]);
    }
    expect(data((await ask(served, 'bad.example.com', 'A')).answers)).toEqual(['192.0.2.9']);
  });
});

describe('disabled records', () => {
  it('are not served; a name with only disabled records does not exist', async () => {
    const served = authority([
      zone('example.com', [a('www', '192.0.2.1'), a('www', '192.0.2.2', { Disabled: true }), a('off', '192.0.2.3', { Disabled: true })]),
    ]);
    expect(data((await ask(served, 'www.example.com', 'A')).answers)).toEqual(['192.0.2.1']);
    expect((await ask(served, 'off.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });
});

describe('NS records', () => {
  it('at the apex are served after the zone name servers, once each, in one RRset at the apex TTL', async () => {
    const served = authority([zone('example.com', [ns('', 'ns1.other-provider.net'), ns('@', 'NS1.edgeplane.test.')])]);
    const answer = await ask(served, 'example.com', 'NS');
    expect(data(answer.answers)).toEqual(['ns1.edgeplane.test', 'ns2.edgeplane.test', 'ns1.other-provider.net']);
    expect(shape(answer.answers).map(([, , ttl]) => ttl)).toEqual([3600, 3600, 3600]);
  });
});
