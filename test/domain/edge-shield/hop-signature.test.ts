/** The proof a hop to the origin shield carries: it holds for what was signed, within a minute, under the deployment's key only. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type HopFields, HopSignatures } from '../../../src/domain/edge/shield/hop-signature.js';

const key = randomBytes(32);
const signatures = new HopSignatures(key);
const fields: HopFields = { zoneId: 7, method: 'GET', target: '/a.txt?v=1', clientIp: '192.0.2.9', scheme: 'https' };
const now = Date.parse('2026-03-01T12:00:00Z');

describe('HopSignatures', () => {
  it('verifies what it signed, under the same key (another instance sharing the master key)', () => {
    const proof = signatures.sign(fields, now);
    expect(proof).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(new HopSignatures(Buffer.from(key)).verify(proof, fields, now + 5_000)).toBe(true);
  });

  it('refuses a proof for anything else: another zone, method, path, query, client, scheme', () => {
    const proof = signatures.sign(fields, now);
    const others: Partial<HopFields>[] = [
      { zoneId: 8 },
      { method: 'POST' },
      { target: '/b.txt?v=1' },
      { target: '/a.txt?v=2' },
      { clientIp: '192.0.2.10' },
      { scheme: 'http' },
    ];
    for (const other of others) expect(signatures.verify(proof, { ...fields, ...other }, now)).toBe(false);
  });

  it('refuses a proof signed more than a minute away from now, either way', () => {
    expect(signatures.verify(signatures.sign(fields, now - 61_000), fields, now)).toBe(false);
    expect(signatures.verify(signatures.sign(fields, now + 61_000), fields, now)).toBe(false);
    expect(signatures.verify(signatures.sign(fields, now - 59_000), fields, now)).toBe(true);
  });

  it('refuses another key, a changed time, and values of no shape', () => {
    const proof = signatures.sign(fields, now);
    expect(new HopSignatures(randomBytes(32)).verify(proof, fields, now)).toBe(false);
    const [time, mac] = proof.split('.') as [string, string];
    expect(signatures.verify(`${Number(time) - 1}.${mac}`, fields, now)).toBe(false);
    for (const junk of ['', '.', `${time}.`, `.${mac}`, mac, `x${time}.${mac}`, `${time}.${mac}x`]) expect(signatures.verify(junk, fields, now)).toBe(false);
  });
});
