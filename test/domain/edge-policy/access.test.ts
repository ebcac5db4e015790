/** The zone's access settings, one by one: each refuses what it names, and nothing once turned off. */
import { describe, expect, it } from 'vitest';
import { CONTINUE, get, refused, request, verdictOf, zoneWith } from './helpers.js';

describe('BlockedIps', () => {
  const zone = zoneWith({
    BlockedIps: ['192.0.2.1', '198.51.100.0/24', '2001:db8::1', '2001:db8:abcd::/48', 'not-an-address', ' 203.0.113.200 '],
  });
  const from = (clientIp: string) => verdictOf(zone, request({ clientIp }));

  it('refuses listed IPv4 addresses and addresses inside a listed IPv4 block', () => {
    expect(from('192.0.2.1')).toEqual(refused('blocked-ip'));
    expect(from('198.51.100.0')).toEqual(refused('blocked-ip'));
    expect(from('198.51.100.255')).toEqual(refused('blocked-ip'));
    expect(from('203.0.113.200')).toEqual(refused('blocked-ip'));
  });

  it('lets neighbouring IPv4 addresses through', () => {
    expect(from('192.0.2.2')).toEqual(CONTINUE);
    expect(from('198.51.101.0')).toEqual(CONTINUE);
    expect(from('198.51.99.255')).toEqual(CONTINUE);
  });

  it('treats an IPv4-mapped IPv6 client (a dual-stack socket) as the IPv4 address', () => {
    expect(from('::ffff:192.0.2.1')).toEqual(refused('blocked-ip'));
    expect(from('::ffff:198.51.100.9')).toEqual(refused('blocked-ip'));
    expect(from('::ffff:192.0.2.2')).toEqual(CONTINUE);
  });

  it('refuses listed IPv6 addresses whatever their notation, and addresses inside a listed IPv6 block', () => {
    expect(from('2001:db8::1')).toEqual(refused('blocked-ip'));
    expect(from('2001:0DB8:0000:0000:0000:0000:0000:0001')).toEqual(refused('blocked-ip'));
    expect(from('2001:db8:abcd::')).toEqual(refused('blocked-ip'));
    expect(from('2001:db8:abcd:ffff:ffff:ffff:ffff:ffff')).toEqual(refused('blocked-ip'));
    expect(from('2001:db8:abcd:12::5%eth0')).toEqual(refused('blocked-ip'));
  });

  it('lets other IPv6 addresses through', () => {
    expect(from('2001:db8::2')).toEqual(CONTINUE);
    expect(from('2001:db8:abce::1')).toEqual(CONTINUE);
    expect(from('2001:db8:abcc:ffff::1')).toEqual(CONTINUE);
  });

  it('an IPv4 block never matches IPv6 clients, nor an IPv6 block IPv4 clients', () => {
    const v4all = zoneWith({ BlockedIps: ['0.0.0.0/0'] });
    expect(verdictOf(v4all, request({ clientIp: '8.8.8.8' }))).toEqual(refused('blocked-ip'));
    expect(verdictOf(v4all, request({ clientIp: '2001:db8::1' }))).toEqual(CONTINUE);
    const v6all = zoneWith({ BlockedIps: ['::/0'] });
    expect(verdictOf(v6all, request({ clientIp: '2001:db8::1' }))).toEqual(refused('blocked-ip'));
    expect(verdictOf(v6all, request({ clientIp: '8.8.8.8' }))).toEqual(CONTINUE);
  });

  it('an IPv4-mapped block names the IPv4 block', () => {
    const mapped = zoneWith({ BlockedIps: ['::ffff:192.0.2.0/120'] });
    expect(verdictOf(mapped, request({ clientIp: '192.0.2.77' }))).toEqual(refused('blocked-ip'));
    expect(verdictOf(mapped, request({ clientIp: '192.0.3.1' }))).toEqual(CONTINUE);
  });

  it('stops refusing once the list is emptied', () => {
    const open = { ...zone, BlockedIps: [] };
    for (const ip of ['192.0.2.1', '198.51.100.7', '2001:db8::1', '2001:db8:abcd::9']) expect(verdictOf(open, request({ clientIp: ip }))).toEqual(CONTINUE);
    expect(verdictOf({ ...zone, BlockedIps: null }, request({ clientIp: '192.0.2.1' }))).toEqual(CONTINUE);
  });
});

describe('AllowedReferrers', () => {
  const zone = zoneWith({ AllowedReferrers: ['example.com', '*.partner.org'] });
  const withReferer = (referer: string) => verdictOf(zone, request({ headers: { referer } }));

  it('serves requests whose Referer host is listed (any scheme, port, path, letter case)', () => {
    expect(withReferer('https://example.com/page')).toEqual(CONTINUE);
    expect(withReferer('http://EXAMPLE.com:8080/a?b#c')).toEqual(CONTINUE);
    expect(withReferer('https://user:pw@example.com/')).toEqual(CONTINUE);
    expect(withReferer('https://www.partner.org/x')).toEqual(CONTINUE);
    expect(withReferer('https://a.b.partner.org/x')).toEqual(CONTINUE);
  });

  it('refuses a Referer host that is not listed; the wildcard does not cover the bare domain', () => {
    expect(withReferer('https://evil.test/')).toEqual(refused('referrer-not-allowed'));
    expect(withReferer('https://example.com.evil.test/')).toEqual(refused('referrer-not-allowed'));
    expect(withReferer('https://partner.org/')).toEqual(refused('referrer-not-allowed'));
    expect(withReferer('https://notexample.com/')).toEqual(refused('referrer-not-allowed'));
  });

  it('reads the host as a browser does: `\\` ends it in http(s), credentials are not it, a Referer naming no host matches nothing', () => {
    expect(withReferer('http://evil.test\\@example.com/')).toEqual(refused('referrer-not-allowed'));
    expect(withReferer('http://evil.test\\x@www.partner.org/')).toEqual(refused('referrer-not-allowed'));
    expect(withReferer('https://example.com\\@evil.test/')).toEqual(CONTINUE);
    expect(withReferer('http://exa%6Dple.com/')).toEqual(CONTINUE);
    expect(withReferer('https://example.com./')).toEqual(CONTINUE);
    expect(withReferer('example.com/page')).toEqual(refused('referrer-not-allowed'));
    expect(withReferer('about:blank')).toEqual(refused('referrer-not-allowed'));
  });

  it('leaves requests without a Referer to BlockNoneReferrer', () => {
    expect(verdictOf(zone, request())).toEqual(CONTINUE);
    expect(verdictOf({ ...zone, BlockNoneReferrer: true }, request())).toEqual(refused('no-referrer'));
  });

  it('stops refusing once the list is emptied', () => {
    expect(verdictOf({ ...zone, AllowedReferrers: [] }, request({ headers: { referer: 'https://evil.test/' } }))).toEqual(CONTINUE);
    expect(verdictOf({ ...zone, AllowedReferrers: ['  '] }, request({ headers: { referer: 'https://evil.test/' } }))).toEqual(CONTINUE);
  });
});

describe('BlockedReferrers', () => {
  const zone = zoneWith({ BlockedReferrers: ['hotlinker.test', '*.spam.test'] });
  const withReferer = (referer: string) => verdictOf(zone, request({ headers: { referer } }));

  it('refuses listed Referer hosts', () => {
    expect(withReferer('https://hotlinker.test/gallery')).toEqual(refused('referrer-blocked'));
    expect(withReferer('https://cdn.spam.test/')).toEqual(refused('referrer-blocked'));
  });

  it('reads the host as AllowedReferrers does', () => {
    expect(withReferer('http://hotlinker.test\\@fine.test/')).toEqual(refused('referrer-blocked'));
    expect(withReferer('http://HOTLINKER.test.:8080/')).toEqual(refused('referrer-blocked'));
    expect(withReferer('http://fine.test\\@hotlinker.test/')).toEqual(CONTINUE);
  });

  it('serves other Referers and requests without one', () => {
    expect(withReferer('https://fine.test/')).toEqual(CONTINUE);
    expect(withReferer('https://hotlinker.test.fine.test/')).toEqual(CONTINUE);
    expect(verdictOf(zone, request())).toEqual(CONTINUE);
  });

  it('wins over AllowedReferrers for a host on both lists', () => {
    const both = zoneWith({ AllowedReferrers: ['*.example.com'], BlockedReferrers: ['bad.example.com'] });
    expect(verdictOf(both, request({ headers: { referer: 'https://bad.example.com/' } }))).toEqual(refused('referrer-blocked'));
    expect(verdictOf(both, request({ headers: { referer: 'https://good.example.com/' } }))).toEqual(CONTINUE);
  });

  it('stops refusing once the list is emptied', () => {
    expect(verdictOf({ ...zone, BlockedReferrers: [] }, request({ headers: { referer: 'https://hotlinker.test/' } }))).toEqual(CONTINUE);
  });
});

describe('BlockNoneReferrer', () => {
  const zone = zoneWith({ BlockNoneReferrer: true });

  it('refuses requests without a Referer, or with an empty one', () => {
    expect(verdictOf(zone, request())).toEqual(refused('no-referrer'));
    expect(verdictOf(zone, request({ headers: { referer: '' } }))).toEqual(refused('no-referrer'));
  });

  it('serves requests that carry a Referer', () => {
    expect(verdictOf(zone, request({ headers: { referer: 'https://anything.test/' } }))).toEqual(CONTINUE);
  });

  it('stops refusing when turned off', () => {
    expect(verdictOf({ ...zone, BlockNoneReferrer: false }, request())).toEqual(CONTINUE);
  });
});

describe('BlockRootPathAccess', () => {
  const zone = zoneWith({ BlockRootPathAccess: true });

  it('refuses the root path, with or without a query', () => {
    expect(verdictOf(zone, get('/'))).toEqual(refused('root-path-blocked'));
    expect(verdictOf(zone, get('/?page=1'))).toEqual(refused('root-path-blocked'));
  });

  it('serves every other path', () => {
    expect(verdictOf(zone, get('/index.html'))).toEqual(CONTINUE);
    expect(verdictOf(zone, get('/dir/'))).toEqual(CONTINUE);
  });

  it('stops refusing when turned off', () => {
    expect(verdictOf({ ...zone, BlockRootPathAccess: false }, get('/'))).toEqual(CONTINUE);
  });
});

describe('BlockPostRequests', () => {
  const zone = zoneWith({ BlockPostRequests: true });

  it('refuses POST', () => {
    expect(verdictOf(zone, request({ method: 'POST' }))).toEqual(refused('post-blocked'));
  });

  it('serves the other methods', () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) expect(verdictOf(zone, request({ method }))).toEqual(CONTINUE);
  });

  it('stops refusing when turned off', () => {
    expect(verdictOf({ ...zone, BlockPostRequests: false }, request({ method: 'POST' }))).toEqual(CONTINUE);
  });
});

describe('a zone with every access setting off', () => {
  it('serves anything', () => {
    const zone = zoneWith();
    expect(verdictOf(zone, request({ method: 'POST', path: '/', clientIp: '192.0.2.1' }))).toEqual(CONTINUE);
  });
});
