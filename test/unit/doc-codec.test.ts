import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeDoc, encodeDoc } from '../../src/store/sqlite/doc-codec.js';
import { DOC_DICTIONARY_1 } from '../../src/store/sqlite/doc-dictionary.js';
import { newPullZone } from '../../src/domain/pull-zones/defaults.js';

const zone = newPullZone({
  id: 42,
  userId: '00000000-0000-4000-8000-00000000002a',
  name: 'images',
  originUrl: 'https://images.example.com',
  type: 0,
  systemHostname: { id: 7, value: 'images.edgeplane.test' },
  storageZoneId: 0,
});

describe('stored document encoding (SQLite)', () => {
  it('stores a pull zone in a small fraction of its JSON and reads back the same text', () => {
    const json = JSON.stringify(zone);
    const stored = encodeDoc('pullZone', json);
    expect(Buffer.isBuffer(stored)).toBe(true);
    expect((stored as Buffer).length).toBeLessThan(json.length / 10);
    expect(decodeDoc(stored)).toBe(json);
  });

  it('round-trips any text, including non-ASCII, and keeps tiny documents as text', () => {
    const odd = JSON.stringify({ Name: 'zoné-✓', Notes: 'x'.repeat(500), Nested: [{ a: null }] });
    expect(decodeDoc(encodeDoc('pullZone', odd))).toBe(odd);
    expect(encodeDoc('pullZone', '{"a":1}')).toBe('{"a":1}');
  });

  it('stores other kinds as text', () => {
    const zoneFile = JSON.stringify({
      Domain: 'example.com',
      Records: Array.from({ length: 50 }, (_, i) => ({ Id: i, Type: 0, Name: `r${i}`, Value: '192.0.2.1' })),
    });
    expect(encodeDoc('dnsZone', zoneFile)).toBe(zoneFile);
  });

  it('reads documents stored as plain JSON text by earlier versions', () => {
    const json = JSON.stringify(zone);
    expect(decodeDoc(json)).toBe(json);
  });

  it('refuses an unknown encoding instead of returning garbage', () => {
    expect(() => decodeDoc(Buffer.of(9, 1, 2, 3))).toThrow(/unknown encoding 9/);
  });

  it('keeps dictionary 1 byte for byte: rows written with it are unreadable without it', () => {
    expect(createHash('sha256').update(DOC_DICTIONARY_1, 'utf8').digest('hex')).toBe('4e9eaedb33eb5693e4415e092d353e356c474c748ffa887f4f594cd67de9843f');
  });
});
