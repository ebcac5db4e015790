/**
 * The proof that a request reaching the origin shield was sent by another edge instance of the
 * deployment, not by a client: an HMAC-SHA-256, under a key every instance derives from the master
 * key they share, over the zone, the method, the path and query asked, the client's address and
 * scheme as the first edge saw them, and the time. The shield trusts what it proves only within a
 * minute of the time signed; a request whose proof does not hold is a client's like any other.
 */
import { createHmac } from 'node:crypto';
import { constantTimeEquals } from '../../../security/secrets.js';

/** The request header carrying the proof; never passed on to an origin (origin/headers.ts). */
export const SHIELD_HEADER = 'x-edgeplane-shield';

/** How far the signed time may be from the shield's clock (instances keep their clocks in step: NTP). */
const MAX_SKEW_SECONDS = 60;

/** What one hop from an edge to the shield is about. */
export interface HopFields {
  zoneId: number;
  method: string;
  /** The path and query asked of the shield, as sent. */
  target: string;
  /** The client's address, sent as X-Forwarded-For. */
  clientIp: string;
  /** The client's scheme, sent as X-Forwarded-Proto. */
  scheme: 'http' | 'https';
}

export class HopSignatures {
  constructor(private readonly key: Buffer) {}

  /** The header's value for a hop sent at `nowMs`: `<unix seconds>.<mac>`. */
  sign(fields: HopFields, nowMs: number): string {
    const time = Math.floor(nowMs / 1000);
    return `${time}.${this.mac(fields, time)}`;
  }

  /** Whether `value` proves `fields`, signed within a minute of `nowMs`. */
  verify(value: string, fields: HopFields, nowMs: number): boolean {
    const dot = value.indexOf('.');
    const time = Number(value.slice(0, dot));
    if (dot <= 0 || !Number.isSafeInteger(time) || Math.abs(nowMs / 1000 - time) > MAX_SKEW_SECONDS) return false;
    return constantTimeEquals(value.slice(dot + 1), this.mac(fields, time));
  }

  private mac(fields: HopFields, time: number): string {
    const text = ['v1', fields.zoneId, fields.method, fields.target, fields.clientIp, fields.scheme, time].join('\n');
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}
