/**
 * The token bucket every limit of edgeplane counts with (the API's per-key rate, the edge's
 * per-client `RequestLimit`, the DNS plane's per-source rate): `capacity` tokens at most, refilled
 * continuously at `perMs` tokens a millisecond, one taken per request. Each limit keeps its buckets
 * in its own map, with its own policy for what a refusal means.
 */
export interface TokenBucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms, on the limit's clock). */
  at: number;
}

/** A bucket seen for the first time: full. */
export const fullBucket = (capacity: number, now: number): TokenBucket => ({ tokens: capacity, at: now });

/**
 * Brings the bucket up to `now`, then takes one token if a whole one is there; whether it did. A
 * clock that steps back (a test, an NTP correction) neither mints nor drains tokens.
 */
export function takeToken(bucket: TokenBucket, now: number, perMs: number, capacity: number): boolean {
  if (now > bucket.at) {
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
  }
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}
