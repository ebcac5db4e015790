/** The access log's line: plain and JSON, the extended fields, parsing back, anonymised addresses, the syslog message around it. */
import { describe, expect, it } from 'vitest';
import { octetCounted, syslogMessage } from '../../src/domain/edge/logs/forwarding/syslog.js';
import { ClientAddresses, formatLine, inFormat, lineOf, parseLine, plainLineOf, timestampOf } from '../../src/domain/edge/logs/line.js';
import type { EdgeZone, ServedEvent } from '../../src/domain/edge/types.js';
import { anonymized } from '../../src/domain/usage/anonymize.js';

const AT = Date.parse('2026-03-04T05:06:07.089Z');

function event(zone: Partial<EdgeZone>, clientIp = '203.0.113.77', headers: Record<string, string> = {}): ServedEvent {
  return {
    zoneId: 7,
    accountId: 1,
    zone: { LoggingIPAnonymizationEnabled: true, LogAnonymizationType: 0, EnableExtendedLogging: false, ...zone } as EdgeZone,
    request: { method: 'GET', scheme: 'https', host: 'site.test', path: '/a|b.css', query: 'v=1', headers, clientIp },
    status: 206,
    bytesSent: 4,
    cacheStatus: 'STALE',
    requestId: 'r1',
    durationMs: 1,
    at: new Date(AT),
  };
}

describe('the access log line', () => {
  it('writes the platform’s twelve fields, and three more with extended logging, never the credential', () => {
    const plain = formatLine(lineOf(event({}, '203.0.113.77', { 'user-agent': 'ua', referer: 'https://r.test/' })));
    expect(plain).toBe(`HIT|206|${AT}|4|7|203.0.113.0|https://r.test/|https://site.test/a%7Cb.css?v=1|LOCAL|ua|r1|-`);
    const extended = formatLine(
      lineOf(
        event({ EnableExtendedLogging: true, LoggingIPAnonymizationEnabled: false }, '2001:db8::1', { range: 'bytes=0-3', authorization: 'Bearer s3cret' }),
      ),
    );
    expect(extended).toBe(`HIT|206|${AT}|4|7|2001:db8::1|-|https://site.test/a%7Cb.css?v=1|LOCAL|-|r1|-|4|bytes=0-3|Bearer`);
    expect(formatLine(lineOf(event({ EnableExtendedLogging: true }, '::1', { authorization: 's3cret' })))).toMatch(/\|Redacted$/);
    expect(timestampOf(extended)).toBe(AT);
    expect(formatLine(parseLine(extended)!)).toBe(extended);
    expect(JSON.parse(inFormat(extended, 1))).toEqual({
      CacheStatus: 'HIT',
      Status: 206,
      Timestamp: AT,
      BytesSent: 4,
      PullZoneId: 7,
      RemoteIp: '2001:db8::1',
      Referer: '',
      Url: 'https://site.test/a%7Cb.css?v=1',
      EdgeLocation: 'LOCAL',
      UserAgent: '',
      RequestId: 'r1',
      CountryCode: '',
      BodyBytesSent: 4,
      Range: 'bytes=0-3',
      Authorization: 'Bearer',
    });
    expect(inFormat(plain, 0)).toBe(plain);
  });

  it('the edge makes the same line at once, its client addresses anonymised once per address', () => {
    const addresses = new ClientAddresses();
    const cases: ServedEvent[] = [
      event({}, '203.0.113.77', { 'user-agent': 'ua|x', referer: 'https://r.test/' }),
      event({}, '203.0.113.77'),
      event({ LogAnonymizationType: 1 }, '203.0.113.77'),
      event({ LoggingIPAnonymizationEnabled: false }, '2001:db8::1'),
      event({}, '2001:db8:1:2:3:4:5:6'),
      event({ EnableExtendedLogging: true }, '::1', { range: 'bytes=0-3', authorization: 'Bearer s3cret' }),
      event({ EnableExtendedLogging: true }, 'not an address', { authorization: 's3cret' }),
      { ...event({}), cacheStatus: 'MISS', status: 502, request: { ...event({}).request, query: '' } },
    ];
    for (const served of [...cases, ...cases]) expect(plainLineOf(served, addresses)).toBe(formatLine(lineOf(served)));
  });

  it('anonymises IPv4 to its last octet, IPv6 to its /64, or drops the address', () => {
    const one = { enabled: true, type: 0 };
    expect(anonymized('198.51.100.23', one)).toBe('198.51.100.0');
    expect(anonymized('2001:db8:1:2:3:4:5:6', one)).toBe('2001:db8:1:2::');
    expect(anonymized('2001:db8::5', one)).toBe('2001:db8:0:0::');
    expect(anonymized('::ffff:192.0.2.1', one)).toBe('0:0:0:0::');
    expect(anonymized('198.51.100.23', { enabled: true, type: 1 }, '0.0.0.0')).toBe('0.0.0.0');
    expect(anonymized('198.51.100.23', { enabled: false, type: 1 })).toBe('198.51.100.23');
    expect(formatLine(lineOf(event({ LogAnonymizationType: 1 })))).toContain('|0.0.0.0|');
  });

  it('wraps a line in an RFC 5424 message, the token escaped in its element, octet-counted for streams', () => {
    const message = syslogMessage('MISS|200', 'a"b\\c]d', new Date(AT), 'edge-1');
    expect(message).toBe('<134>1 2026-03-04T05:06:07.089Z edge-1 edgeplane - access [edgeplane@32473 token="a\\"b\\\\c\\]d"] MISS|200');
    expect(syslogMessage('x', null, new Date(AT), 'h')).toBe('<134>1 2026-03-04T05:06:07.089Z h edgeplane - access - x');
    expect(octetCounted('é')).toBe('2 é');
  });
});
