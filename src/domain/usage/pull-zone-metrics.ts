/**
 * What is counted per pull zone (subject `pullZone:<id>`): the edge adds to these as it serves,
 * the operator's usage route adds bytes too, and billing reads them.
 */
export const pullZoneSubject = (id: number | string) => `pullZone:${id}`;

/** Bytes served, every region together. */
export const BANDWIDTH = 'bandwidth';
/** Requests served. */
export const REQUESTS = 'requests';
/** Bytes served from one edge region (`bandwidth.DE`), counted besides `bandwidth`, so billing can price them by region. */
export const regionalBandwidth = (regionCode: string) => `${BANDWIDTH}.${regionCode}`;

/** Requests and bytes answered from the edge's cache (HIT, STALE, UPDATING). */
export const CACHED_REQUESTS = 'cached.requests';
export const CACHED_BANDWIDTH = 'cached.bandwidth';
/** Requests that asked the origin, the bytes it sent, and the time until its headers (summed, for averages). */
export const ORIGIN_REQUESTS = 'origin.requests';
export const ORIGIN_BYTES = 'origin.bytes';
export const ORIGIN_MS = 'origin.ms';
/** Bytes this instance sent, as the origin shield, to the other edge instances that asked it. */
export const SHIELD_BANDWIDTH = 'shield.bandwidth';
/** Under the zone's shield concurrency limit: origin requests let through (at once or after waiting), and requests that waited in its queue. */
export const SHIELD_CONCURRENT = 'shield.concurrent';
export const SHIELD_QUEUED = 'shield.queued';
/** Origin attempts beyond the first (SafeHop's "retried"), and requests a retry saved (answered after a failed attempt). */
export const ORIGIN_RETRIED = 'origin.retried';
export const ORIGIN_SAVED = 'origin.saved';
/** WebSocket connections carried, counted as each closes (their traffic both ways is in `bandwidth`). */
export const WEBSOCKET_CONNECTIONS = 'websocket.connections';
/** Answers by status class: `status.3xx`, `status.4xx`, `status.5xx`. */
export const statusClass = (status: number) => `status.${Math.floor(status / 100)}xx`;
/** Requests above the zone's DDoS threshold, by what was done: `ddos.logged`, `ddos.verified`, `ddos.challenged`, `ddos.blocked`. */
export const ddosRequests = (outcome: 'logged' | 'verified' | 'challenged' | 'blocked') => `ddos.${outcome}`;
/** The optimizer's work: variants made, the originals' and the variants' bytes, and the time it took (summed, for averages). */
export const OPTIMIZER_REQUESTS = 'optimizer.requests';
export const OPTIMIZER_ORIGINAL_BYTES = 'optimizer.original.bytes';
export const OPTIMIZER_BYTES = 'optimizer.bytes';
export const OPTIMIZER_MS = 'optimizer.ms';
