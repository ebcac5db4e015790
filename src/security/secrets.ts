/**
 * Credentials at rest. API keys are found by a keyed hash (HMAC-SHA-256 under a key derived from
 * the master key), so the database alone cannot be used to log in; values the API must show again
 * (key values, passwords) are sealed with AES-256-GCM, which also detects tampering.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const SEALED_PREFIX = 'v1:';

export class Secrets {
  private readonly hashKey: Buffer;
  private readonly sealKey: Buffer;

  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
    // Separate subkeys so a leak of one purpose's output says nothing about the other.
    this.hashKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'edgeplane key lookup', 32));
    this.sealKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'edgeplane sealing', 32));
  }

  /** A key of its own for one purpose (HKDF of the master key): every instance sharing the master key derives the same one. */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.masterKey, Buffer.alloc(0), purpose, 32));
  }

  lookupHash(secret: string): string {
    return createHmac('sha256', this.hashKey).update(secret).digest('base64url');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(sealed: string): string {
    if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('value is not sealed');
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

export function constantTimeEquals(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Random credential in the platform's style: UUID-like groups of hex, long enough to be unguessable. */
export function newCredential(): string {
  const hex = randomBytes(36).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 72)}`;
}
