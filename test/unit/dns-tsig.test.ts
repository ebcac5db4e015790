/**
 * TSIG (RFC 8945) and the secondaries' settings, as pure code: a signed request checks, and each
 * way it can fail gets its own error; settings that cannot work are refused at start with a
 * message naming the entry, never the secret. A transfer's messages: names compressed, and written
 * as the client makes room for them.
 */
import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.js';
import { systemClock } from '../../src/domain/principal.js';
import { ZoneTransfers } from '../../src/domain/dns/transfer/zone-transfers.js';
import { compressedBodies } from '../../src/planes/dns/transfer/compress.js';
import { TransferServer } from '../../src/planes/dns/transfer/serve-transfer.js';
import { checkTsig, readTsig, TSIG_ERROR, TsigSigner } from '../../src/planes/dns/transfer/tsig.js';
import { parseSecondaries, parseTsigKeys } from '../../src/schemas/dns-secondaries.js';
import { authority, txt, zone } from '../domain/dns-serving/helpers.js';

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

describe('the messages of a transfer', () => {
  const codec = dnsPacket as unknown as { answer: { encode(a: dnsPacket.Answer): Buffer } };
  const apex = 'Example.test';
  const answers: dnsPacket.Answer[] = [
    {
      name: apex,
      type: 'SOA',
      ttl: 3600,
      data: { mname: 'ns1.example.test', rname: 'hostmaster.example.test', serial: 9, refresh: 1, retry: 2, expire: 3, minimum: 4 },
    },
    { name: apex, type: 'NS', ttl: 3600, data: 'ns1.example.test' },
    { name: apex, type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mail.example.net' } },
  ];
  for (let i = 0; i < 400; i++) {
    answers.push({ name: `host${i}.example.test`, type: 'A', ttl: 300, data: `10.0.${i >> 8}.${i & 255}` });
    answers.push({ name: `alias${i}.example.test`, type: 'CNAME', ttl: 300, data: `target${i % 7}.example.net` });
    answers.push({ name: `text${i}.example.test`, type: 'TXT', ttl: 300, data: [`v=${i}`] });
  }
  const records = answers.map((a) => codec.answer.encode(a));
  const plain = records.reduce((sum, r) => sum + r.length, 0);

  it('compresses names and cuts the records into messages that decode to the same records', () => {
    const head = dnsPacket.encode({ type: 'response', id: 1, questions: [{ name: apex, type: 'AXFR' }] });
    const bodies = compressedBodies(records, head.length, 8 * 1024);
    expect(bodies.length).toBeGreaterThan(1);
    expect(bodies.reduce((sum, b) => sum + b.bytes.length, 0)).toBeLessThan(plain * 0.7);
    const decoded = bodies.flatMap((body, i) => {
      const start = i === 0 ? head : head.subarray(0, 12);
      const message = Buffer.concat([start, body.bytes]);
      if (i > 0) message.writeUInt16BE(0, 4);
      message.writeUInt16BE(body.count, 6);
      expect(message.length).toBeLessThanOrEqual(8 * 1024 + head.length);
      return dnsPacket.decode(message).answers!;
    });
    expect(decoded.map((a) => codec.answer.encode(a))).toEqual(records);
  });

  // A pointer to a name past 16 KiB cannot be written: one would decode as another name.
  it('points only within the first 16 KiB of a message', () => {
    const [body] = compressedBodies(records, 12, 64 * 1024);
    expect(body!.count).toBe(records.length);
    expect(body!.bytes.length).toBeGreaterThan(0x4000);
    const message = Buffer.concat([Buffer.from([0, 1, 0x84, 0, 0, 0, body!.count >> 8, body!.count & 255, 0, 0, 0, 0]), body!.bytes]);
    const answersBack = dnsPacket.decode(message).answers!;
    expect(answersBack.map((a) => codec.answer.encode(a))).toEqual(records);
  });
});

describe('a transfer to a client that does not read at once', () => {
  const records = Array.from({ length: 2000 }, (_, i) => txt(`t${i}`, `${'x'.repeat(200)}${i}`));
  const transfers = new ZoneTransfers(authority([zone('big.test', records)]), systemClock);
  const server = new TransferServer({ secondaries: parseSecondaries('127.0.0.1'), keys: [key!], transfers });
  const query = () =>
    new TsigSigner(key!, 9).sign(dnsPacket.encode({ type: 'query', id: 9, questions: [{ name: 'big.test', type: 'AXFR' }] }), Math.floor(Date.now() / 1000));

  it('waits for room between messages, goes on once there is, and stops when the connection closed', async () => {
    for (const open of [true, false]) {
      const sent: Buffer[] = [];
      let release: (open: boolean) => void = () => {};
      const drained = () => (sent.length === 1 ? new Promise<boolean>((resolve) => (release = resolve)) : undefined);
      const message = query();
      const handled = server.handle(message, dnsPacket.decode(message), '127.0.0.1', (bytes) => sent.push(bytes), drained);
      expect(handled).toBeInstanceOf(Promise);
      expect(sent).toHaveLength(1);
      release(open);
      await handled;
      if (!open) {
        expect(sent).toHaveLength(1);
        continue;
      }
      expect(sent.length).toBeGreaterThan(2);
      const answers = sent.flatMap((framed) => dnsPacket.decode(framed.subarray(2)).answers!.filter((a) => (a.type as string) !== 'TSIG'));
      expect(answers).toHaveLength(2000 + 4);
      expect([answers[0]!.type, answers.at(-1)!.type]).toEqual(['SOA', 'SOA']);
    }
  });
});
