/** The pull zones' origin errors. */

/** One request the edge could not get from a pull zone's origin (see domain/edge/origin/origin-errors.ts). */
export interface OriginErrorEntry {
  accountId: number;
  pullZoneId: number;
  /** Epoch milliseconds of the failure. */
  at: number;
  /** A UUID naming the entry (the API's `logId`). */
  logId: string;
  /** The platform's error code (`dns_lookup`, `http_timeout`, `network_socket_exception`, ...). */
  code: string;
  /** The status the edge answered the client with (502, 504). */
  status: number;
  message: string;
  /** The path (and query) the client asked for. */
  url: string;
  /** Labels as JSON text: a flat object of strings. */
  labels: string;
}

export interface OriginErrors {
  append(entries: OriginErrorEntry[]): Promise<void>;
  /** A zone's entries timed in [from, to) (epoch ms), oldest first, at most `limit`. */
  between(pullZoneId: number, from: number, to: number, limit: number): Promise<OriginErrorEntry[]>;
  /** Keeps the newest `keep` entries of the zone's UTC day `day` (epoch days); answers how many went. */
  trimDay(pullZoneId: number, day: number, keep: number): Promise<number>;
  /** Removes a zone's entries (a deleted zone). */
  removeZone(pullZoneId: number): Promise<number>;
  /** Removes every zone's entries older than `before` (epoch ms). */
  expire(before: number): Promise<number>;
}
