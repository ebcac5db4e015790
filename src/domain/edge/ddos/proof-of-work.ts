/**
 * The challenge an active DDoS mode sets a client, and the pass it earns, both stateless: nothing
 * is kept per challenge, so every instance sharing the master key checks a pass another issued.
 *
 * - The token is HMAC-SHA256 under a key derived from the master key, of the zone, the client (its
 *   address, an IPv6 client's /64) and the minute it was issued: no one else can make one, and it
 *   is good for that client of that zone only.
 * - A solution is a decimal nonce such that SHA-256(token + nonce), the two written one after the
 *   other as text, starts with `bits` zero bits.
 * - The pass is the cookie `edgeplane_pass=<minute>.<nonce>`: the edge makes the token again from
 *   the request's zone, client and that minute and checks the hash, until `passSeconds` after the
 *   minute ended. A cookie from another client, zone or minute, or with a nonce that does not
 *   solve it, is no pass.
 */
import { createHash, createHmac } from 'node:crypto';

export const PASS_COOKIE = 'edgeplane_pass';
/** Tokens are issued per minute: one token for all the challenges a client gets in it. */
export const ISSUE_MS = 60_000;

const PASS_VALUE = /^(\d{1,12})\.(\d{1,16})$/;

export interface Challenge {
  token: string;
  /** The minute the token was issued in (minutes since the epoch). */
  issued: number;
  bits: number;
}

export class ProofOfWork {
  constructor(private readonly key: Buffer) {}

  challenge(zoneId: number, client: string, bits: number, now: number): Challenge {
    const issued = Math.floor(now / ISSUE_MS);
    return { token: this.token(zoneId, client, issued), issued, bits };
  }

  /** Whether the cookie's value is a pass for this client of this zone, at `bits`, still valid at `now`. */
  passes(zoneId: number, client: string, cookie: string | undefined, bits: number, passSeconds: number, now: number): boolean {
    const match = cookie === undefined ? null : PASS_VALUE.exec(cookie);
    if (!match) return false;
    const issued = Number(match[1]);
    if (issued * ISSUE_MS > now || (issued + 1) * ISSUE_MS + passSeconds * 1000 <= now) return false;
    return (
      leadingZeroBits(
        createHash('sha256')
          .update(this.token(zoneId, client, issued) + match[2])
          .digest(),
      ) >= bits
    );
  }

  private token(zoneId: number, client: string, issued: number): string {
    return createHmac('sha256', this.key).update(`${zoneId}|${client}|${issued}`).digest('base64url');
  }
}

/** How many zero bits the digest starts with. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}
