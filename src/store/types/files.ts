/** The metadata of storage zones' files and their counters; the bytes are in the files backend (src/files/). */

/** One stretch of a file's bytes in the files backend; a file is its segments in order. */
export interface BlobSegment {
  key: string;
  size: number;
}

/**
 * A file or directory of a storage zone. Paths are relative to the zone's root, without a leading
 * slash; a directory's path ends with `/` (`images/2024/`), a file's does not (`images/2024/a.jpg`).
 */
export interface FileRecord {
  zoneId: string;
  accountId: number;
  path: string;
  /** The directory holding it: `images/2024/`, or `` at the root. */
  parent: string;
  isDirectory: boolean;
  size: number;
  /** Lowercase hex; null for directories. */
  sha256: string | null;
  md5: string | null;
  contentType: string | null;
  /** Stable identity of this version of the object (the platform's `Guid`). */
  guid: string;
  blobs: BlobSegment[];
  /** User metadata (S3 `x-amz-meta-*`), lowercase names. */
  metadata: Record<string, string> | null;
  createdAt: string;
  changedAt: string;
}

export interface FileUsage {
  files: number;
  bytes: number;
}

/** A zone's closing figures of one day (YYYY-MM-DD). */
export interface DailyFileUsage extends FileUsage {
  day: string;
}

export interface FileRange {
  /** Only paths that start with this. */
  prefix: string;
  /** Only paths after this one (exclusive), in byte order. */
  after?: string;
  limit: number;
  /** Leave directory entries out. */
  filesOnly?: boolean;
}

/** File metadata of storage zones; the bytes are in the files backend (src/files/). */
export interface Files {
  get(zoneId: string, path: string): Promise<FileRecord | undefined>;
  /** The entries directly inside `parent`, in name order. */
  children(zoneId: string, parent: string): Promise<FileRecord[]>;
  /** Entries in path order (byte order), for paged listings. */
  range(zoneId: string, range: FileRange): Promise<FileRecord[]>;
  /** The entries at these paths that exist, in no particular order. */
  getMany(zoneId: string, paths: string[]): Promise<FileRecord[]>;
  /** Whether an entry of the zone with this guid has the blob `key` among its segments (blob keys carry the guid: see the files sweeper). */
  usesBlob(zoneId: string, guid: string, key: string): Promise<boolean>;
  /** Creates or replaces the entry at `record.path`. */
  put(record: FileRecord): Promise<void>;
  /** Adds the directory entries that are missing (each path ends with `/`); answers how many. */
  ensureDirectories(zoneId: string, accountId: number, paths: string[], now: string): Promise<number>;
  remove(zoneId: string, path: string): Promise<FileRecord | undefined>;
  /** Removes up to `limit` entries whose path starts with `prefix` (`` = the whole zone); answers them. */
  removeUnder(zoneId: string, prefix: string, limit: number): Promise<FileRecord[]>;
  usage(zoneIds: string[]): Promise<Map<string, FileUsage>>;
  /** Adds to a zone's counters, and records the day's closing figures for its statistics. */
  changeUsage(zoneId: string, accountId: number, delta: FileUsage, day: string): Promise<void>;
  /** The closing figures of each day on which the zone changed, from `fromDay` to `toDay` (YYYY-MM-DD). */
  dailyUsage(zoneId: string, fromDay: string, toDay: string): Promise<DailyFileUsage[]>;
  /** The last closing figures before `day` (what a chart starts from). */
  usageBefore(zoneId: string, day: string): Promise<FileUsage | undefined>;
  /**
   * `dailyUsage` and `usageBefore` of every storage zone an account holds, in one read: for each
   * zone with figures, its last closing figures before `fromDay` and those from `fromDay` to
   * `toDay`, by zone then day. Billing reads it: an account's cost must not grow with its idle zones.
   */
  accountDailyUsage(accountId: number, fromDay: string, toDay: string): Promise<(DailyFileUsage & { zoneId: string })[]>;
}

/**
 * Blobs no file points at any more (replaced, deleted), removed from the backend after a grace
 * period so that reads already streaming them finish. A key ending in `/` stands for every blob under it.
 */
export interface DeadBlobs {
  add(keys: string[], deadAt: number): Promise<void>;
  due(before: number, limit: number): Promise<string[]>;
  forget(keys: string[]): Promise<void>;
}
