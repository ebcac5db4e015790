/**
 * The access log of pull zones whose logging is on (`EnableLogging`): each request the edge served,
 * in the platform's raw log line format, the newest ACCESS_LOG_SIZE per zone. Lines are gathered in
 * memory and written once a second, each zone's as one chunk (one row), so logging costs a request
 * no store write and a busy zone one row a second; a crash loses at most the last second. Kept in
 * the store, so every instance's lines are in one log, readable by the operator route and by
 * `edgeplane pullzones logs` from another process.
 *
 * A chunk is kept gzipped (CHUNK_PREFIX, then base64), compressed on libuv's threads: a busy zone's
 * second of lines (7,000 lines, 1.7 MB) written as it was held the event loop 30–80 ms a second on
 * SQLite, about 9 µs of every request served; gzipped it is a tenth of that. Chunks written before
 * (JSON lines, as they were kept then) are read as well.
 */
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { Store } from '../../../store/types.js';
import { anonymized } from '../../usage/anonymize.js';
import type { ServedEvent } from '../types.js';

/** Lines kept per zone; older ones are removed at the next flush. */
export const ACCESS_LOG_SIZE = 10_000;
const FLUSH_MS = 1000;
/** Lines waiting for a flush beyond which new ones are dropped (counted): a store that is down must not eat the memory. */
const MAX_PENDING = 100_000;
/** The edge's location in the lines: edgeplane serves from one place. */
export const EDGE_LOCATION = 'LOCAL';
/** What a gzipped chunk's entry starts with (a chunk of plain lines starts with a line). */
const CHUNK_PREFIX = 'gz:';

const gzipAsync = promisify(gzip);

/** The fields of one line, in the platform's order. */
export interface AccessLogLine {
  cacheStatus: 'HIT' | 'MISS';
  status: number;
  /** Epoch milliseconds. */
  timestamp: number;
  bytesSent: number;
  pullZoneId: number;
  remoteIp: string;
  referer: string;
  url: string;
  edgeLocation: string;
  userAgent: string;
  requestId: string;
  countryCode: string;
}

/** `HIT|200|1507167062421|412|390|163.172.53.0|-|https://…|LOCAL|Mozilla/5.0…|322b68…|-`: fields cannot hold a `|`. */
export function formatLine(line: AccessLogLine): string {
  return `${line.cacheStatus}|${line.status}|${line.timestamp}|${line.bytesSent}|${line.pullZoneId}|${text(line.remoteIp)}|${text(line.referer)}|${text(line.url)}|${text(line.edgeLocation)}|${text(line.userAgent)}|${text(line.requestId)}|${text(line.countryCode)}`;
}

/** A text field of a line: `-` when empty, a `|` in it written `%7C` (the numbers and the cache status cannot hold one). */
const text = (field: string) => (field === '' ? '-' : field.includes('|') ? field.replaceAll('|', '%7C') : field);

export function lineOf(event: ServedEvent): AccessLogLine {
  const { request, zone } = event;
  const query = request.query === '' ? '' : `?${request.query}`;
  return {
    cacheStatus: event.cacheStatus === 'HIT' || event.cacheStatus === 'STALE' || event.cacheStatus === 'UPDATING' ? 'HIT' : 'MISS',
    status: event.status,
    timestamp: event.at.getTime(),
    bytesSent: event.bytesSent,
    pullZoneId: event.zoneId,
    remoteIp: anonymized(request.clientIp, { enabled: zone.LoggingIPAnonymizationEnabled, type: zone.LogAnonymizationType }),
    referer: request.headers['referer'] ?? '',
    url: `${request.scheme}://${request.host}${request.path}${query}`,
    edgeLocation: EDGE_LOCATION,
    userAgent: request.headers['user-agent'] ?? '',
    requestId: event.requestId,
    // No location database: the country is unknown.
    countryCode: '',
  };
}

export interface AccessLogRead {
  /** Lines to skip from the first in the order asked for. */
  start: number;
  /** Lines to return at most. */
  limit: number;
  /** Newest first (the platform's default) or oldest first. */
  order: 'desc' | 'asc';
}

/** Chunks read from the store at a time while collecting a page of lines. */
const CHUNKS_PER_READ = 32;

interface PendingChunk {
  accountId: number;
  at: number;
  /** Lines in the platform's format, oldest first. */
  lines: string[];
}

export class EdgeAccessLog {
  private pending = new Map<number, PendingChunk>();
  private pendingLines = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Lines dropped because the store could not take them fast enough. */
  dropped = 0;

  constructor(private readonly store: Store) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => {}), FLUSH_MS);
    this.timer.unref();
  }

  add(event: ServedEvent): void {
    if (!event.zone.EnableLogging) return;
    if (this.pendingLines >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    const line = formatLine(lineOf(event));
    const chunk = this.pending.get(event.zoneId);
    if (chunk) {
      chunk.lines.push(line);
      chunk.at = event.at.getTime();
    } else this.pending.set(event.zoneId, { accountId: event.accountId, at: event.at.getTime(), lines: [line] });
    this.pendingLines++;
  }

  /** Writes the lines gathered so far and trims the zones they went to; on failure they wait for the next flush. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      this.pendingLines = 0;
      try {
        const entries = await Promise.all(
          [...batch].map(async ([pullZoneId, c]) => ({ accountId: c.accountId, pullZoneId, at: c.at, lines: c.lines.length, entry: await packed(c.lines) })),
        );
        await this.store.transaction(async (tx) => {
          await tx.accessLog.append(entries);
          await tx.accessLog.trim([...batch.keys()], ACCESS_LOG_SIZE);
        });
      } catch (error) {
        this.requeue(batch);
        throw error;
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }

  /** A failed batch goes back before what came since, within the bound. */
  private requeue(batch: Map<number, PendingChunk>): void {
    for (const [zoneId, chunk] of this.pending) {
      const older = batch.get(zoneId);
      if (older) {
        older.lines.push(...chunk.lines);
        older.at = chunk.at;
      } else batch.set(zoneId, chunk);
    }
    let total = 0;
    for (const chunk of batch.values()) {
      if (total + chunk.lines.length > MAX_PENDING) {
        const over = total + chunk.lines.length - MAX_PENDING;
        chunk.lines.splice(0, over);
        this.dropped += over;
      }
      total += chunk.lines.length;
    }
    this.pending = batch;
    this.pendingLines = total;
  }

  /** A zone's lines as the platform's logging API gives them (flushed first, so they are all there). */
  async read(pullZoneId: number, read: AccessLogRead): Promise<string[]> {
    await this.flush().catch(() => {});
    // Newest first; an ascending read needs every line kept to know which is the oldest.
    const wanted = read.order === 'desc' ? Math.min(read.start + read.limit, ACCESS_LOG_SIZE) : ACCESS_LOG_SIZE;
    const newestFirst: string[] = [];
    let beforeId: number | undefined;
    while (newestFirst.length < wanted) {
      const chunks = await this.store.accessLog.newest(pullZoneId, { beforeId, limit: CHUNKS_PER_READ });
      for (const chunk of chunks) {
        const lines = unpacked(chunk.entry);
        for (let i = lines.length - 1; i >= 0 && newestFirst.length < wanted; i--) newestFirst.push(lines[i]!);
      }
      if (chunks.length < CHUNKS_PER_READ) break;
      beforeId = chunks[chunks.length - 1]!.id;
    }
    const ordered = read.order === 'desc' ? newestFirst : newestFirst.reverse();
    return ordered.slice(read.start, read.start + read.limit);
  }

  /** A deleted zone's log goes with it. */
  async forget(pullZoneId: number): Promise<void> {
    const chunk = this.pending.get(pullZoneId);
    if (chunk) this.pendingLines -= chunk.lines.length;
    this.pending.delete(pullZoneId);
    await this.store.accessLog.trim([pullZoneId], 0);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => {});
  }
}

/** A chunk's lines as its row keeps them: gzipped, off the event loop. */
async function packed(lines: string[]): Promise<string> {
  return CHUNK_PREFIX + (await gzipAsync(lines.join('\n'))).toString('base64');
}

/** A chunk's lines in the platform's format, from a gzipped chunk or one of JSON lines written before. */
function unpacked(entry: string): string[] {
  if (!entry.startsWith(CHUNK_PREFIX)) return entry.split('\n').map((json) => formatLine(JSON.parse(json) as AccessLogLine));
  const text = gunzipSync(Buffer.from(entry.slice(CHUNK_PREFIX.length), 'base64')).toString();
  return text.split('\n');
}
