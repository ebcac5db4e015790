/**
 * Wildcards as RFC 4592 defines them, on the example zone of its section 2.2.1 and the answers of
 * section 2.2.2, plus `*.sub` wildcards the platform's names allow.
 */
import { describe, expect, it } from 'vitest';
import { a, ask, authority, cname, data, ns, rec, shape, txt, zone } from './helpers.js';

describe('RFC 4592 §2.2.1 example zone', () => {
  const served = authority([
    zone(
      'example',
      [
        txt('*', 'this is a wildcard'),
        rec({ Type: 4, Name: '*', Value: 'host1.example', Priority: 10 }),
        txt('sub.*', 'this is not a wildcard'),
        a('host1', '192.0.2.1'),
        rec({ Type: 8, Name: '_ssh._tcp.host1', Value: 'host1.example', Priority: 0, Weight: 0, Port: 22 }),
        rec({ Type: 8, Name: '_ssh._tcp.host2', Value: 'host2.example', Priority: 0, Weight: 0, Port: 22 }),
        ns('subdel', 'ns.example.com'),
        ns('subdel', 'ns.example.net'),
      ],
      { nameservers: ['ns.example.com', 'ns.example.net'] },
    ),
  ]);

  it('host3.example. MX is synthesized from *.example, owned by host3.example', async () => {
    const answer = await ask(served, 'host3.example', 'MX');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true });
    expect(shape(answer.answers)).toEqual([['host3.example', 'MX', 300]]);
    expect(data(answer.answers)).toEqual([{ preference: 10, exchange: 'host1.example' }]);
  });

  it('host3.example. A: the wildcard matches but has no A: NODATA', async () => {
    expect(await ask(served, 'host3.example', 'A')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('foo.bar.example. TXT: the wildcard matches names more than one label below', async () => {
    expect(data((await ask(served, 'foo.bar.example', 'TXT')).answers)).toEqual([[Buffer.from('this is a wildcard')]]);
  });

  it('host1.example. MX: the name exists, so the wildcard does not apply: NODATA', async () => {
    expect(await ask(served, 'host1.example', 'MX')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('sub.*.example. MX: the name exists (the * in it is an ordinary label here): NODATA', async () => {
    expect(await ask(served, 'sub.*.example', 'MX')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('_telnet._tcp.host1.example. SRV: closest encloser _tcp.host1.example has no wildcard: NXDOMAIN', async () => {
    expect((await ask(served, '_telnet._tcp.host1.example', 'SRV')).rcode).toBe('NXDOMAIN');
  });

  it('host.subdel.example. A: below a delegation: a referral, not the wildcard', async () => {
    const answer = await ask(served, 'host.subdel.example', 'A');
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: false, answers: [] });
    expect(data(answer.authorities)).toEqual(['ns.example.com', 'ns.example.net']);
  });

  it('ghost.*.example. MX: closest encloser *.example has no wildcard child: NXDOMAIN', async () => {
    expect((await ask(served, 'ghost.*.example', 'MX')).rcode).toBe('NXDOMAIN');
  });

  it('*.example. asked literally is the wildcard node itself', async () => {
    expect(shape((await ask(served, '*.example', 'TXT')).answers)).toEqual([['*.example', 'TXT', 300]]);
  });
});

describe('wildcards below the apex', () => {
  const served = authority([
    zone('example.com', [
      a('*.apps', '192.0.2.10'),
      a('real.apps', '192.0.2.11'),
      a('x.deep.apps', '192.0.2.12'),
      cname('*.alias', 'target.example.com'),
      a('target', '192.0.2.20'),
    ]),
  ]);

  it('*.apps answers names below apps.example.com but not apps.example.com itself', async () => {
    expect(data((await ask(served, 'one.apps.example.com', 'A')).answers)).toEqual(['192.0.2.10']);
    expect(data((await ask(served, 'a.b.apps.example.com', 'A')).answers)).toEqual(['192.0.2.10']);
    expect(await ask(served, 'apps.example.com', 'A')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('an existing name, or an empty non-terminal, hides the wildcard', async () => {
    expect(data((await ask(served, 'real.apps.example.com', 'A')).answers)).toEqual(['192.0.2.11']);
    // deep.apps.example.com exists (it has a child); the closest encloser of y.deep.apps is deep.apps, which has no wildcard.
    expect(await ask(served, 'deep.apps.example.com', 'A')).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect((await ask(served, 'y.deep.apps.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });

  it('a wildcard CNAME is synthesized at the name asked and followed', async () => {
    const answer = await ask(served, 'anything.alias.example.com', 'A');
    expect(shape(answer.answers)).toEqual([
      ['anything.alias.example.com', 'CNAME', 300],
      ['target.example.com', 'A', 300],
    ]);
  });

  it('names beside the wildcard parent do not match', async () => {
    expect((await ask(served, 'one.other.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });
});
