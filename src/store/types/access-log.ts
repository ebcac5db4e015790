/** The pull zones' access log. */

/**
 * The requests one flush of the edge's access log wrote for a pull zone whose logging is on (see
 * domain/edge/usage/access-log.ts): a chunk of lines, so a busy zone costs one row a second.
 */
export interface AccessLogEntry {
  id: number;
  accountId: number;
  pullZoneId: number;
  /** Epoch milliseconds of the newest line. */
  at: number;
  /** How many lines `entry` holds. */
  lines: number;
  /** One JSON object per line, oldest first, client addresses already anonymized as the zone asks. */
  entry: string;
}

export interface AccessLog {
  append(entries: Omit<AccessLogEntry, 'id'>[]): Promise<void>;
  /** A zone's chunks newest first, from the one before `beforeId` when given. */
  newest(pullZoneId: number, options: { beforeId?: number | undefined; limit: number }): Promise<AccessLogEntry[]>;
  /** Keeps, of each zone listed, the newest chunks that hold its newest `keep` lines (0 removes them all); answers how many chunks went. */
  trim(pullZoneIds: number[], keep: number): Promise<number>;
  /** Removes every zone's chunks whose newest line is older than `before` (epoch ms); answers how many went. */
  expire(before: number): Promise<number>;
}
