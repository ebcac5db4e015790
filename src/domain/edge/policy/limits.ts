/**
 * Per-client limits of a zone, in memory, per edgeplane process (the platform too applies them per
 * server).
 *
 * Request rate (RequestLimit, BurstSize): a token bucket per (zone, client IP) holding up to
 * RequestLimit + BurstSize requests and refilled at RequestLimit per second. The platform delays
 * requests within the burst; edgeplane serves them at once (it never holds a request back), and
 * refuses what goes beyond with 429 Too Many Requests (RFC 6585), as it refuses a client over its
 * concurrency limit. Buckets live in a bounded map: the least recently seen client is
 * forgotten first, which at worst gives it a full bucket again.
 *
 * Concurrency (ConnectionLimitPerIPCount): edgeplane counts requests in flight per (zone, client
 * IP) rather than TCP connections, since one keep-alive connection may carry requests for several
 * zones and several connections may be idle. An entry exists only while the client has a request
 * in flight, so the map is bounded by the requests being served.
 */
import { fullBucket, type TokenBucket, takeToken } from '../../../security/token-bucket.js';
import { BoundedMap } from '../../bounded-map.js';
import type { Admission } from '../types.js';

export const NO_ADMISSION_NEEDED: Admission = Object.freeze({ release() {} });

export class ClientLimits {
  private readonly buckets: BoundedMap<string, TokenBucket>;
  private readonly inFlight = new Map<string, number>();

  constructor(maxClients: number) {
    this.buckets = new BoundedMap(maxClients);
  }

  /** Takes one request from the client's bucket; false when it is empty. `now` in milliseconds. */
  takeRequest(key: string, perSecond: number, burst: number, now: number): boolean {
    const capacity = perSecond + Math.max(0, burst);
    const bucket = this.buckets.get(key) ?? fullBucket(capacity, now);
    // Set again on every request: the map forgets the clients it heard from least recently.
    this.buckets.set(key, bucket);
    return takeToken(bucket, now, perSecond / 1000, capacity);
  }

  /** A slot among the client's concurrent requests, or undefined when all `limit` are taken. */
  enter(key: string, limit: number): Admission | undefined {
    const current = this.inFlight.get(key) ?? 0;
    if (current >= limit) return undefined;
    this.inFlight.set(key, current + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.inFlight.get(key) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(key);
        else this.inFlight.set(key, left);
      },
    };
  }

  /** Requests in flight for one key (for tests and metrics). */
  inFlightOf(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }
}
