/**
 * SVCB/HTTPS presentation text to wire form, against the test vectors of RFC 9460 Appendix D.
 */
import { describe, expect, it } from 'vitest';
import { svcbRdata } from '../../../src/domain/dns/serving/svcb.js';

const hex = (text: string) => text.replace(/\s+/g, '');
const wire = (value: string) => svcbRdata(value)?.toString('hex');

describe('RFC 9460 Appendix D: valid records', () => {
  it('D.1 AliasMode', () => {
    expect(wire('0 foo.example.com.')).toBe(hex('00 00 03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00'));
  });

  it('D.2 ServiceMode: the root target, a port, generic keys, quoted values with \\DDD escapes', () => {
    expect(wire('1 .')).toBe(hex('00 01 00'));
    expect(wire('16 foo.example.com. port=53')).toBe(hex('00 10 03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 00 03 00 02 00 35'));
    expect(wire('1 foo.example.com. key667=hello')).toBe(hex('00 01 03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 02 9b 00 05 68 65 6c 6c 6f'));
    expect(wire('1 foo.example.com. key667="hello\\210qoo"')).toBe(
      hex('00 01 03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 02 9b 00 09 68 65 6c 6c 6f d2 71 6f 6f'),
    );
  });

  it('D.2 ServiceMode: IPv6 hints, with an embedded IPv4 tail', () => {
    expect(wire('1 foo.example.com. ipv6hint="2001:db8::1,2001:db8::53:1"')).toBe(
      hex(`00 01 03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 00 06 00 20
           20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01
           20 01 0d b8 00 00 00 00 00 00 00 00 00 53 00 01`),
    );
    expect(wire('1 example.com. ipv6hint="2001:db8:122:344::192.0.2.33"')).toBe(
      hex('00 01 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 00 06 00 10 20 01 0d b8 01 22 03 44 00 00 00 00 c0 00 02 21'),
    );
  });

  it('D.2 ServiceMode: keys written in any order are sorted; mandatory lists keys by number', () => {
    expect(wire('16 foo.example.org. alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1')).toBe(
      hex(`00 10 03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 6f 72 67 00
           00 00 00 04 00 01 00 04
           00 01 00 09 02 68 32 05 68 33 2d 31 39
           00 04 00 04 c0 00 02 01`),
    );
  });

  it('D.2 ServiceMode: commas and backslashes inside an alpn value, escaped at both levels', () => {
    const expected = hex('00 10 03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 6f 72 67 00 00 01 00 0c 08 66 5c 6f 6f 2c 62 61 72 02 68 32');
    expect(wire('16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"')).toBe(expected);
    expect(wire('16 foo.example.org. alpn=f\\\\\\092oo\\092,bar,h2')).toBe(expected);
  });
});

describe('RFC 9460 Appendix D.3: failure cases are refused', () => {
  it.each([
    ['repeated key', '1 foo.example.com. key123=abc key123=def'],
    ['mandatory without a value', '1 foo.example.com. mandatory'],
    ['alpn without a value', '1 foo.example.com. alpn'],
    ['port without a value', '1 foo.example.com. port'],
    ['ipv4hint without a value', '1 foo.example.com. ipv4hint'],
    ['ipv6hint without a value', '1 foo.example.com. ipv6hint'],
    ['no-default-alpn with a value', '1 foo.example.com. no-default-alpn=abc'],
    ['a mandatory key missing', '1 foo.example.com. mandatory=key123'],
    ['mandatory listing itself', '1 foo.example.com. mandatory=mandatory'],
    ['a key twice in mandatory', '1 foo.example.com. mandatory=key123,key123 key123=abc'],
  ])('%s', (_case, value) => {
    expect(svcbRdata(value)).toBeUndefined();
  });

  it('and other malformed values: bad priority, bad target, unknown key names, bad addresses, key65535', () => {
    for (const value of [
      '',
      '70000 foo.example.com.',
      '1',
      '1 foo..example.com.',
      '1 foo.example.com. color=blue',
      '1 foo.example.com. ipv4hint=192.0.2.300',
      '1 foo.example.com. ipv6hint=192.0.2.1',
      '1 foo.example.com. port=http',
      '1 foo.example.com. key65535=x',
      '1 foo.example.com. no-default-alpn',
      '1 foo.example.com. ech=not*base64',
    ]) {
      expect(svcbRdata(value), value).toBeUndefined();
    }
  });
});

describe('other forms', () => {
  it('no-default-alpn, ech and dohpath', () => {
    expect(wire('1 . alpn=h3 no-default-alpn')).toBe(hex('00 01 00 00 01 00 03 02 68 33 00 02 00 00'));
    expect(wire('1 . ech=AAEC')).toBe(hex('00 01 00 00 05 00 03 00 01 02'));
    expect(wire('1 doh.example. alpn=h2 dohpath=/q{?dns}')).toBe(
      hex(`00 01 03 64 6f 68 07 65 78 61 6d 70 6c 65 00 00 01 00 03 02 68 32 00 07 00 08 ${Buffer.from('/q{?dns}').toString('hex')}`),
    );
  });

  it('the generic form of RFC 3597', () => {
    expect(wire('\\# 3 000100')).toBe('000100');
    expect(wire('\\# 4 000100')).toBeUndefined();
  });
});
