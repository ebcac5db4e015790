/**
 * The diagnostic headers every answer of the edge carries, as the platform's edge servers send
 * them (those edgeplane has an honest value for):
 *
 * | header | value |
 * |---|---|
 * | `CDN-PullZone` | the id of the zone that answered |
 * | `CDN-Uid` | the zone owner's user id |
 * | `CDN-RequestId` | 32 hex digits naming this request; the origin gets the same id |
 * | `CDN-Cache` | HIT, MISS, EXPIRED (was cached, fetched again), STALE (the origin failed, the old copy was served), UPDATING (an old copy served while one refresh runs), BYPASS (not cacheable) |
 * | `CDN-CachedAt` | when a copy served from the cache was stored: `MM/dd/yyyy HH:mm:ss`, UTC |
 * | `CDN-RequestPullSuccess` | `True`/`False`: whether the origin, when asked, answered |
 * | `CDN-RequestPullCode` | the origin's status, when it was asked and answered |
 * | `CDN-Status` | the status of this answer |
 * | `CDN-ProxyVer` | the edge's version (edgeplane's) |
 * | `Server` | `edgeplane` |
 *
 * Left out: the country of the request (no location database) and the storage server ids of the
 * platform's own network.
 */
import { randomBytes } from 'node:crypto';

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `03/21/2026 10:12:34`: the platform's way of writing when a copy was cached (UTC). */
export function cachedAtHeader(at: number): string {
  const d = new Date(at);
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * Request ids: a random prefix per process and a counter, 32 hex digits in all. Unique without a
 * random draw per request, which the hit path cannot afford.
 */
export class RequestIds {
  private readonly prefix = randomBytes(8).toString('hex');
  private counter = 0;

  next(): string {
    this.counter = (this.counter + 1) % 0x1_0000_0000_0000;
    return this.prefix + this.counter.toString(16).padStart(16, '0');
  }
}
