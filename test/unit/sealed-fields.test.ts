import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SealedFields } from '../../src/security/sealed-fields.js';
import { Secrets } from '../../src/security/secrets.js';

interface Doc {
  Name: string;
  Key: string;
  Empty: string;
  Hostnames: { Value: string; CertificateKey: string }[];
  Other: { Deep: string };
}

const fields = new SealedFields<Doc>(new Secrets(randomBytes(32)), ['Key', 'Empty', 'Hostnames.*.CertificateKey', 'Missing.*.Key']);
const doc = (): Doc => ({
  Name: 'zone',
  Key: 'secret-key-value',
  Empty: '',
  Hostnames: [
    { Value: 'a.example', CertificateKey: 'private-a' },
    { Value: 'b.example', CertificateKey: '' },
  ],
  Other: { Deep: 'kept' },
});

describe('SealedFields', () => {
  it("seals every credential path, leaves the caller's document exactly as it was, and opens back to it", () => {
    const original = doc();
    const sealed = fields.seal(original);
    expect(original).toEqual(doc());
    expect(sealed.Key).not.toBe('secret-key-value');
    expect(sealed.Hostnames[0]!.CertificateKey).not.toBe('private-a');
    expect(JSON.stringify(sealed)).not.toMatch(/secret-key-value|private-a/);
    expect(sealed.Empty).toBe('');
    expect(sealed.Hostnames[1]!.CertificateKey).toBe('');
    expect(fields.open(JSON.parse(JSON.stringify(sealed)) as Doc)).toEqual(doc());
  });

  it('copies only what it changes: untouched parts are shared, untouched documents returned as they are', () => {
    const original = doc();
    const sealed = fields.seal(original);
    expect(sealed).not.toBe(original);
    expect(sealed.Other).toBe(original.Other);
    expect(sealed.Hostnames).not.toBe(original.Hostnames);
    expect(sealed.Hostnames[1]).toBe(original.Hostnames[1]);
    const nothingToSeal = { ...doc(), Key: '', Hostnames: [] };
    expect(fields.seal(nothingToSeal)).toBe(nothingToSeal);
  });
});
