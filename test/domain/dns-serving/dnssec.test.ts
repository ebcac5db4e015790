/**
 * DNSSEC pieces checked one by one: keys, key tags and DS digests against RFC 6605's example,
 * signatures verified here with the public key, compact denial, the signature cache. Whether a
 * real validator accepts the whole is dnssec-validator.test.ts.
 */
import { createPublicKey, verify } from 'node:crypto';
import type { RrsigData } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { dsData, dnskeyRdata, generateZoneSigningKey, keyTag } from '../../../src/domain/dns/serving/dnssec.js';
import { dsRecordModel } from '../../../src/domain/dns/serving/ds-model.js';
import { a, ask, authority, cname, data, ns, queryPacket, contextOf, shape, txt, zone } from './helpers.js';

/** RFC 6605 §6.1: the ECDSA P-256 key of example.net and its DS. */
const RFC6605_KEY = { flags: 257, publicKey: 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==' };

describe('keys and DS', () => {
  it('key tag and SHA-256 DS digest match RFC 6605 §6.1', () => {
    expect(keyTag(dnskeyRdata(RFC6605_KEY))).toBe(55648);
    const ds = dsData('example.net', RFC6605_KEY);
    expect(ds).toMatchObject({ keyTag: 55648, algorithm: 13, digestType: 2 });
    expect(ds.digest.toString('hex')).toBe('b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17');
  });

  it('a generated key: P-256, a 64-octet public point, flags 257, its key tag', () => {
    const key = generateZoneSigningKey();
    expect(Buffer.from(key.publicKey, 'base64')).toHaveLength(64);
    expect(key.flags).toBe(257);
    expect(key.keyTag).toBe(keyTag(dnskeyRdata(key)));
    expect(key.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(generateZoneSigningKey().publicKey).not.toBe(key.publicKey);
  });

  it('the DS record model of the management API', () => {
    expect(dsRecordModel('Example.NET', { ...RFC6605_KEY, keyTag: 55648, privateKeyPem: '' })).toEqual({
      Enabled: true,
      DsRecord: 'example.net. 3600 IN DS 55648 13 2 B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
      Digest: 'B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
      DigestType: 'SHA256',
      Algorithm: 13,
      PublicKey: RFC6605_KEY.publicKey,
      KeyTag: 55648,
      Flags: 257,
      DsConfigured: false,
    });
    expect(dsRecordModel('example.net', undefined)).toMatchObject({ Enabled: false, DsRecord: null, KeyTag: 0, Algorithm: 0 });
  });
});

const key = generateZoneSigningKey();
const NOW = Date.parse('2025-06-01T12:00:00Z');

function signedAuthority(clock = () => new Date(NOW)) {
  const signed = zone(
    'signed.example',
    [
      a('www', '192.0.2.1'),
      a('www', '192.0.2.2'),
      txt('www', 'text'),
      a('*.wild', '192.0.2.3'),
      cname('alias', 'www.signed.example'),
      cname('out', 'www.plain.example'),
      ns('sub', 'ns.sub.signed.example'),
      a('ns.sub', '192.0.2.53'),
    ],
    { dnssec: key },
  );
  const plain = zone('plain.example', [a('www', '192.0.2.9')]);
  return { served: authority([signed, plain], { clock }), signed };
}

type Rr = { name: string; type: string; ttl: number; data: unknown };

/** Verifies an RRSIG over an A RRset, building the canonical form here, independently of the signer. */
function verifyA(owner: string, addresses: string[], sig: RrsigData): boolean {
  const wireName = (name: string) =>
    Buffer.concat([
      ...name
        .toLowerCase()
        .split('.')
        .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
      Buffer.alloc(1),
    ]);
  const head = Buffer.alloc(18);
  head.writeUInt16BE(1, 0);
  head.writeUInt8(sig.algorithm, 2);
  head.writeUInt8(sig.labels, 3);
  head.writeUInt32BE(sig.originalTTL, 4);
  head.writeUInt32BE(sig.expiration, 8);
  head.writeUInt32BE(sig.inception, 12);
  head.writeUInt16BE(sig.keyTag, 16);
  const rrs = addresses
    .map((ip) => Buffer.from(ip.split('.').map(Number)))
    .sort(Buffer.compare)
    .map((rdata) => {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt16BE(1, 0);
      fixed.writeUInt16BE(1, 2);
      fixed.writeUInt32BE(sig.originalTTL, 4);
      fixed.writeUInt16BE(4, 8);
      return Buffer.concat([wireName(owner), fixed, rdata]);
    });
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: Buffer.from(key.publicKey, 'base64').subarray(0, 32).toString('base64url'),
      y: Buffer.from(key.publicKey, 'base64').subarray(32).toString('base64url'),
    },
    format: 'jwk',
  });
  return verify('sha256', Buffer.concat([head, wireName(sig.signersName), ...rrs]), { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig.signature);
}

describe('signed answers', () => {
  it('each RRset is followed by its RRSIG: algorithm 13, the zone as signer, valid an hour back to a week ahead', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'WWW.signed.example', 'A', { dnssec: true });
    expect(shape(answer.answers)).toEqual([
      ['WWW.signed.example', 'A', 300],
      ['WWW.signed.example', 'A', 300],
      ['WWW.signed.example', 'RRSIG', 300],
    ]);
    const sig = data(answer.answers, 'RRSIG')[0] as RrsigData;
    expect(sig).toMatchObject({ typeCovered: 'A', algorithm: 13, labels: 3, originalTTL: 300, keyTag: key.keyTag, signersName: 'signed.example' });
    expect(sig.inception).toBe(NOW / 1000 - 3600);
    expect(sig.expiration).toBe(NOW / 1000 + 7 * 86400);
    expect(sig.signature).toHaveLength(64);
    expect(verifyA('www.signed.example', ['192.0.2.2', '192.0.2.1'], sig)).toBe(true);
    expect(verifyA('www.signed.example', ['192.0.2.1'], sig)).toBe(false);
  });

  it('nothing is signed without the DO bit, nor in zones without a key', async () => {
    const { served } = signedAuthority();
    expect(shape((await ask(served, 'www.signed.example', 'A', { edns: true })).answers).map(([, t]) => t)).toEqual(['A', 'A']);
    expect(shape((await ask(served, 'www.plain.example', 'A', { dnssec: true })).answers).map(([, t]) => t)).toEqual(['A']);
  });

  it('DNSKEY at the apex: flags 257, protocol 3, algorithm 13, signed', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'signed.example', 'DNSKEY', { dnssec: true });
    expect(shape(answer.answers)).toEqual([
      ['signed.example', 'DNSKEY', 3600],
      ['signed.example', 'RRSIG', 3600],
    ]);
    expect(data(answer.answers, 'DNSKEY')[0]).toEqual({ flags: 257, algorithm: 13, key: Buffer.from(key.publicKey, 'base64') });
    expect(data((await ask(served, 'signed.example', 'DNSKEY')).answers)).toHaveLength(1);
  });

  it('a wildcard answer is signed at the name asked, as if it existed (RRSIG labels = its labels)', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'a.b.wild.signed.example', 'A', { dnssec: true });
    const sig = data(answer.answers, 'RRSIG')[0] as RrsigData;
    expect(sig.labels).toBe(5);
    expect(verifyA('a.b.wild.signed.example', ['192.0.2.3'], sig)).toBe(true);
  });

  it('a chain into an unsigned zone: the signed zone part signed, the rest not', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'out.signed.example', 'A', { dnssec: true });
    expect(shape(answer.answers).map(([name, type]) => `${name} ${type}`)).toEqual([
      'out.signed.example CNAME',
      'out.signed.example RRSIG',
      'www.plain.example A',
    ]);
  });
});

describe('compact denial of existence (RFC 9824)', () => {
  it('NXDOMAIN becomes NOERROR with an NSEC at the name: next \\000.<name>, types RRSIG NSEC NXNAME; SOA signed at the negative TTL', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'Nope.signed.example', 'A', { dnssec: true });
    expect(answer).toMatchObject({ rcode: 'NOERROR', flag_aa: true, answers: [] });
    expect(shape(answer.authorities)).toEqual([
      ['signed.example', 'SOA', 300],
      ['signed.example', 'RRSIG', 300],
      ['Nope.signed.example', 'NSEC', 300],
      ['Nope.signed.example', 'RRSIG', 300],
    ]);
    expect(data(answer.authorities, 'NSEC')).toEqual([{ nextDomain: '\u0000.nope.signed.example', rrtypes: ['RRSIG', 'NSEC', 'UNKNOWN_128'] }]);
    const [soaSig, nsecSig] = data(answer.authorities, 'RRSIG') as RrsigData[];
    expect(soaSig).toMatchObject({ typeCovered: 'SOA', originalTTL: 3600, labels: 2 });
    expect(nsecSig).toMatchObject({ typeCovered: 'NSEC', originalTTL: 300, labels: 3 });
  });

  it('with the Compact-answers-OK flag, the rcode is NXDOMAIN and the flag is echoed', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'nope.signed.example', 'A', { dnssec: true, ednsFlags: 0x4000 });
    expect(answer.rcode).toBe('NXDOMAIN');
    expect(answer.additionals!.find((r) => r.type === 'OPT')).toMatchObject({ flags: 0xc000 });
  });

  it('NODATA: an NSEC listing the types that exist at the name, plus RRSIG and NSEC', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'www.signed.example', 'MX', { dnssec: true });
    expect(answer).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(data(answer.authorities, 'NSEC')).toEqual([{ nextDomain: '\u0000.www.signed.example', rrtypes: ['A', 'TXT', 'RRSIG', 'NSEC'] }]);
    const apex = await ask(served, 'signed.example', 'MX', { dnssec: true });
    expect((data(apex.authorities, 'NSEC')[0] as { rrtypes: string[] }).rrtypes).toEqual(['NS', 'SOA', 'RRSIG', 'NSEC', 'DNSKEY']);
    const wild = await ask(served, 'x.wild.signed.example', 'TXT', { dnssec: true });
    expect(data(wild.authorities, 'NSEC')).toEqual([{ nextDomain: '\u0000.x.wild.signed.example', rrtypes: ['A', 'RRSIG', 'NSEC'] }]);
  });

  it('a referral: NS and glue unsigned, an NSEC at the delegation (NS RRSIG NSEC) proves there is no DS', async () => {
    const { served } = signedAuthority();
    const answer = await ask(served, 'host.sub.signed.example', 'A', { dnssec: true });
    expect(answer.flag_aa).toBe(false);
    expect(shape(answer.authorities)).toEqual([
      ['sub.signed.example', 'NS', 300],
      ['sub.signed.example', 'NSEC', 300],
      ['sub.signed.example', 'RRSIG', 300],
    ]);
    expect(data(answer.authorities, 'NSEC')).toEqual([{ nextDomain: '\u0000.sub.signed.example', rrtypes: ['NS', 'RRSIG', 'NSEC'] }]);
    expect(shape(answer.additionals)).toEqual([['ns.sub.signed.example', 'A', 300]]);
  });
});

describe('the signature cache', () => {
  it('answers a repeated query with the same signature, and signs again after a day', async () => {
    let now = NOW;
    const { served } = signedAuthority(() => new Date(now));
    const sigOf = async (name: string) => (data((await ask(served, name, 'A', { dnssec: true })).answers, 'RRSIG')[0] as RrsigData).signature.toString('hex');
    const first = await sigOf('www.signed.example');
    now += 3600_000;
    expect(await sigOf('WWW.Signed.Example')).toBe(first);
    now += 86400_000;
    const renewed = await sigOf('www.signed.example');
    expect(renewed).not.toBe(first);
    const rrsig = data((await ask(served, 'www.signed.example', 'A', { dnssec: true })).answers, 'RRSIG')[0] as RrsigData;
    expect(rrsig.inception).toBe(now / 1000 - 3600);
  });

  it('keeps signatures across zone updates with the same key; a changed RRset is signed anew', async () => {
    const { served, signed } = signedAuthority();
    const sig = (answer: Awaited<ReturnType<typeof ask>>) => (data(answer.answers, 'RRSIG')[0] as RrsigData).signature.toString('hex');
    const before = sig(await ask(served, 'www.signed.example', 'A', { dnssec: true }));
    served.setZone({ ...signed, serial: signed.serial + 1, records: [...signed.records, a('new', '192.0.2.77')] });
    expect(sig(await ask(served, 'www.signed.example', 'A', { dnssec: true }))).toBe(before);
    served.setZone({ ...signed, records: [a('www', '192.0.2.1')] });
    const after = await ask(served, 'www.signed.example', 'A', { dnssec: true });
    expect(sig(after)).not.toBe(before);
    expect(verifyA('www.signed.example', ['192.0.2.1'], data(after.answers, 'RRSIG')[0] as RrsigData)).toBe(true);
  });

  it('a new serial gets a new SOA signature, though the key and the cache stay', async () => {
    const { served, signed } = signedAuthority();
    const soaSig = async () => {
      const answer = await ask(served, 'nope.signed.example', 'A', { dnssec: true });
      return (data(answer.authorities, 'RRSIG') as RrsigData[]).find((s) => s.typeCovered === 'SOA')!.signature.toString('hex');
    };
    const before = await soaSig();
    expect(await soaSig()).toBe(before);
    served.setZone({ ...signed, serial: signed.serial + 1 });
    expect(await soaSig()).not.toBe(before);
  });

  it('answers are synchronous and allocate no new signature for a cached RRset', () => {
    const { served } = signedAuthority();
    const one = served.answer(queryPacket('www.signed.example', 'A', { dnssec: true }), contextOf({ dnssec: true }));
    const two = served.answer(queryPacket('www.signed.example', 'A', { dnssec: true }), contextOf({ dnssec: true }));
    const rrsigOf = (answered: typeof one) => ('response' in answered ? (answered.response.answers as Rr[]).find((r) => r.type === 'RRSIG') : undefined);
    expect(rrsigOf(one)).toBeDefined();
    expect(rrsigOf(one)).toBe(rrsigOf(two));
  });
});
