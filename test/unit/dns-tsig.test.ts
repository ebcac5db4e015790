/**
 * TSIG (RFC 8945) and the secondaries' settings, as pure code: a signed request checks, and each
 * way it can fail gets its own error; settings that cannot work are refused at start with a
 * message naming the entry, never the secret.
 */
import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.js';
import { checkTsig, readTsig, TSIG_ERROR, TsigSigner } from '../../src/planes/dns/transfer/tsig.js';
import { parseSecondaries, parseTsigKeys } from '../../src/schemas/dns-secondaries.js';

const SECRET = Buffer.alloc(32, 5).toString('base64');
const [key] = parseTsigKeys(`hmac-sha256:Xfr.Key.:${SECRET}`);
const keys = new Map([[key!.name, key!]]);
const NOW = 1_800_000_000;
const request = (id = 7) => dnsPacket.encode({ type: 'query', id, questions: [{ name: 'example.test', type: 'AXFR' }] });

describe('TSIG', () => {
  it('checks a request signed with the key, and reads its record back', () => {
    const signed = new TsigSigner(key!, 7).sign(request(), NOW);
    const check = checkTsig(signed, keys, NOW + 10);
    expect(check.kind).toBe('valid');
    const record = readTsig(signed);
    expect(record).toMatchObject({ keyName: 'xfr.key', algorithm: 'hmac-sha256', timeSigned: NOW, fudge: 300, originalId: 7, error: 0 });
  });

  it('answers BADSIG for a changed message or another secret, BADKEY for an unknown key, BADTIME out of the fudge', () => {
    const signed = new TsigSigner(key!, 7).sign(request(), NOW);
    const changed = Buffer.from(signed);
    changed[13] = changed[13]! ^ 1;
    expect(checkTsig(changed, keys, NOW)).toMatchObject({ kind: 'invalid', error: TSIG_ERROR.BADSIG });
    const [other] = parseTsigKeys(`hmac-sha256:xfr.key:${Buffer.alloc(32, 6).toString('base64')}`);
    expect(checkTsig(new TsigSigner(other!, 7).sign(request(), NOW), keys, NOW)).toMatchObject({ kind: 'invalid', error: TSIG_ERROR.BADSIG });
    const [stranger] = parseTsigKeys(`hmac-sha256:another:${SECRET}`);
    expect(checkTsig(new TsigSigner(stranger!, 7).sign(request(), NOW), keys, NOW)).toMatchObject({ kind: 'invalid', error: TSIG_ERROR.BADKEY });
    const [sha512] = parseTsigKeys(`hmac-sha512:xfr.key:${SECRET}`);
    expect(checkTsig(new TsigSigner(sha512!, 7).sign(request(), NOW), keys, NOW)).toMatchObject({ kind: 'invalid', error: TSIG_ERROR.BADKEY });
    expect(checkTsig(signed, keys, NOW + 301)).toMatchObject({ kind: 'invalid', error: TSIG_ERROR.BADTIME });
    expect(checkTsig(request(), keys, NOW)).toEqual({ kind: 'none' });
    expect(checkTsig(signed.subarray(0, signed.length - 3), keys, NOW)).toEqual({ kind: 'malformed' });
  });
});

describe('the secondaries settings', () => {
  it('reads addresses with and without ports, and keys as dig -y writes them', () => {
    expect(parseSecondaries(' 192.0.2.1, 192.0.2.2:5353,[2001:DB8::1]:53 ,2001:db8::2')).toEqual([
      { address: '192.0.2.1', port: 53 },
      { address: '192.0.2.2', port: 5353 },
      { address: '2001:db8::1', port: 53 },
      { address: '2001:db8::2', port: 53 },
    ]);
    expect(key).toMatchObject({ name: 'xfr.key', algorithm: 'hmac-sha256' });
  });

  it('refuses what cannot work, naming the entry and never the secret', () => {
    const problems: [string, string, RegExp][] = [
      ['EDGEPLANE_DNS_SECONDARIES', 'ns1.example.net', /entry 1 .* not an IP address/],
      ['EDGEPLANE_DNS_SECONDARIES', '192.0.2.1,192.0.2.2:70000', /entry 2 .* port outside/],
      ['EDGEPLANE_DNS_TSIG_KEYS', `hmac-md5:k:${SECRET}`, /algorithm "hmac-md5"/],
      ['EDGEPLANE_DNS_TSIG_KEYS', 'hmac-sha256:k:not base64!', /secret is not base64/],
      ['EDGEPLANE_DNS_TSIG_KEYS', 'hmac-sha256:k:c2hvcnQ=', /has 5 bytes; at least 16/],
      ['EDGEPLANE_DNS_TSIG_KEYS', `hmac-sha256:k:${SECRET},hmac-sha256:K.:${SECRET}`, /entry 2: the key name k is given twice/],
      ['EDGEPLANE_DNS_TSIG_KEYS', 'hmac-sha256:k', /entry 1 is not algorithm:name:base64-secret/],
    ];
    for (const [variable, value, message] of problems) {
      let error: unknown;
      try {
        readConfig({ [variable]: value });
      } catch (caught) {
        error = caught;
      }
      expect(String(error)).toMatch(new RegExp(`${variable}: .*${message.source}`));
      expect(String(error)).not.toContain(SECRET);
    }
  });
});
