/**
 * The access log of pull zones whose logging is on (`EnableLogging`): each request the edge served,
 * in the platform's raw log line format (logs/line.ts), the newest ACCESS_LOG_SIZE per zone within
 * ACCESS_LOG_DAYS. Lines are gathered in memory and written once a second, each zone's as one chunk
 * (one row), so logging costs a request no store write and a busy zone one row a second; a crash
 * loses at most the last second. Kept in the store, so every instance's lines are in one log,
 * readable by the logging plane, the operator route and `edgeplane pullzones logs` from another
 * process. The same line goes to the zone's log collector (forwarding) and its storage zone, as
 * the zone asks (LineSink: queued in memory, never awaited by the request).
 *
 * A chunk is kept compressed (CHUNK_PREFIX, then base64), on libuv's threads: a busy zone's second
 * of lines (7,000 lines, 1.7 MB) written as it was held the event loop 30–80 ms a second on
 * SQLite, about 9 µs of every request served; compressed it is a tenth of that. Brotli at quality
 * 1 makes chunks as small as gzip's default level for a third of its CPU; the lines wait for it as
 * UTF-8 bytes (logs/line-bytes.ts). Chunks written before (gzipped, or JSON lines, as they were
 * kept then) are read as well.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import type { Store } from '../../../store/types.js';
import { BoundedMap } from '../../bounded-map.js';
import { type Clock, systemClock } from '../../principal.js';
import { type AccessLogLine, ClientAddresses, formatLine, plainLineOf, timestampOf } from '../logs/line.js';
import { LineBytes, SpareBuffers } from '../logs/line-bytes.js';
import type { EdgeZone, ServedEvent } from '../types.js';

/** Lines kept per zone; older ones are removed at the next flush. */
export const ACCESS_LOG_SIZE = 10_000;
/** Lines older than this are removed (the platform keeps its logs three days). */
export const ACCESS_LOG_DAYS = 3;
const DAY_MS = 86_400_000;
const FLUSH_MS = 1000;
/** How often lines past ACCESS_LOG_DAYS are removed. */
const EXPIRE_EVERY_MS = 3_600_000;
/** Lines waiting for a flush beyond which new ones are dropped (counted): a store that is down must not eat the memory. */
const MAX_PENDING = 100_000;
/** What a chunk's entry starts with: Brotli; gzip, as chunks were written before (a chunk of JSON lines starts with a line). */
const CHUNK_PREFIX = 'br:';
const GZIP_PREFIX = 'gz:';
/** One pass on libuv's thread for a second of a busy zone's lines (the default, 16 KiB, took one per 16 KiB written). */
const COMPRESS_CHUNK_BYTES = 1 << 20;

const brotliAsync = promisify(brotliCompress);

/**
 * Where a line goes besides the store, as it is made: the zone's collector (forwarding) and its
 * logs in a storage zone. `add` only queues in memory; the request never waits for either.
 */
export interface LineSink {
  add(zone: EdgeZone, accountId: number, plain: string): void;
  /** A deleted zone's lines still queued go with it. */
  forget(pullZoneId: number): void;
}

export interface AccessLogRead {
  /** Lines to skip from the first in the order asked for. */
  start: number;
  /** Lines to return at most. */
  limit: number;
  /** Newest first (the platform's default) or oldest first. */
  order: 'desc' | 'asc';
}

/** Zones whose last chunk's size is remembered (what the next one's buffer starts at). */
const SIZES_KEPT = 10_000;

/** Chunks read from the store at a time while collecting a page of lines. */
const CHUNKS_PER_READ = 32;

interface PendingChunk {
  accountId: number;
  at: number;
  /** Lines in the platform's format, oldest first. */
  lines: LineBytes;
}

export class EdgeAccessLog {
  private pending = new Map<number, PendingChunk>();
  private pendingLines = 0;
  /** Each zone's last chunk in bytes: the next one starts that large (a busy zone's second is megabytes). */
  private readonly lastChunkBytes = new BoundedMap<number, number>(SIZES_KEPT);
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** The buffers of chunks written, for the next seconds' lines (logs/line-bytes.ts). */
  private readonly spares = new SpareBuffers();
  /** Client addresses anonymised as the zones ask (logs/line.ts). */
  private readonly addresses = new ClientAddresses();
  /** Lines dropped because the store could not take them fast enough. */
  dropped = 0;

  private lastExpiry = 0;

  constructor(
    private readonly store: Store,
    /** What lines past ACCESS_LOG_DAYS are measured against. */
    private readonly clock: Clock = systemClock,
    /** Forwarding and storage: `forwarding` takes the lines of zones with LogForwardingEnabled, `files` those with LoggingSaveToStorage. */
    private readonly sinks: { forwarding?: LineSink | undefined; files?: LineSink | undefined } = {},
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => {}), FLUSH_MS);
    this.timer.unref();
  }

  add(event: ServedEvent): void {
    const zone = event.zone;
    if (!zone.EnableLogging && !zone.LogForwardingEnabled) return;
    const line = plainLineOf(event, this.addresses);
    if (zone.LogForwardingEnabled) this.sinks.forwarding?.add(zone, event.accountId, line);
    if (!zone.EnableLogging) return;
    if (zone.LoggingSaveToStorage) this.sinks.files?.add(zone, event.accountId, line);
    if (this.pendingLines >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    const chunk = this.pending.get(event.zoneId);
    if (chunk) {
      chunk.lines.push(line);
      chunk.at = event.at.getTime();
    } else {
      const lines = new LineBytes(this.lastChunkBytes.get(event.zoneId), this.spares);
      lines.push(line);
      this.pending.set(event.zoneId, { accountId: event.accountId, at: event.at.getTime(), lines });
    }
    this.pendingLines++;
  }

  /** Writes the lines gathered so far and trims the zones they went to; on failure they wait for the next flush. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      this.pendingLines = 0;
      for (const [pullZoneId, chunk] of batch) this.lastChunkBytes.set(pullZoneId, chunk.lines.byteLength);
      try {
        const entries = await Promise.all(
          [...batch].map(async ([pullZoneId, c]) => ({
            accountId: c.accountId,
            pullZoneId,
            at: c.at,
            lines: c.lines.count,
            entry: await packed(c.lines.bytes()),
          })),
        );
        const now = this.clock().getTime();
        const expire = now - this.lastExpiry >= EXPIRE_EVERY_MS;
        await this.store.transaction(async (tx) => {
          await tx.accessLog.append(entries);
          await tx.accessLog.trim([...batch.keys()], ACCESS_LOG_SIZE);
          if (expire) await tx.accessLog.expire(now - ACCESS_LOG_DAYS * DAY_MS);
        });
        if (expire) this.lastExpiry = now;
        for (const chunk of batch.values()) chunk.lines.release();
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
      if (older) chunk.lines.prepend(older.lines);
      batch.set(zoneId, chunk);
    }
    let total = 0;
    for (const chunk of batch.values()) {
      if (total + chunk.lines.count > MAX_PENDING) {
        const over = total + chunk.lines.count - MAX_PENDING;
        chunk.lines.dropOldest(over);
        this.dropped += over;
      }
      total += chunk.lines.count;
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
    for await (const chunk of this.chunksNewestFirst(pullZoneId)) {
      const lines = unpacked(chunk.entry);
      for (let i = lines.length - 1; i >= 0 && newestFirst.length < wanted; i--) newestFirst.push(lines[i]!);
      if (newestFirst.length >= wanted) break;
    }
    const ordered = read.order === 'desc' ? newestFirst : newestFirst.reverse();
    return ordered.slice(read.start, read.start + read.limit);
  }

  /**
   * A zone's lines timed in [from, to) (epoch ms) in time order, as the logging API serves them:
   * every instance's chunks, this one's flushed first. At most the zone's newest ACCESS_LOG_SIZE.
   */
  async readBetween(pullZoneId: number, from: number, to: number, read: AccessLogRead): Promise<string[]> {
    await this.flush().catch(() => {});
    // Newest chunk first; each chunk's lines oldest first.
    const chunksLines: { at: number; line: string }[][] = [];
    for await (const chunk of this.chunksNewestFirst(pullZoneId)) {
      // Chunks are written in time order, give or take the instances' flushes a second apart.
      if (chunk.at < from - FLUSH_MS * 10) break;
      if (chunk.at < from) continue;
      const inDay: { at: number; line: string }[] = [];
      for (const line of unpacked(chunk.entry)) {
        const at = timestampOf(line);
        if (at >= from && at < to) inDay.push({ at, line });
      }
      chunksLines.push(inDay);
    }
    // In the order written, then by time (stable: the lines of one millisecond keep that order).
    const lines = chunksLines.reverse().flat();
    lines.sort((x, y) => x.at - y.at);
    if (read.order === 'desc') lines.reverse();
    return lines.slice(read.start, read.start + read.limit).map((entry) => entry.line);
  }

  /** The zone's chunks in the store, newest first, read a page at a time as they are asked for. */
  private async *chunksNewestFirst(pullZoneId: number) {
    let beforeId: number | undefined;
    for (;;) {
      const chunks = await this.store.accessLog.newest(pullZoneId, { beforeId, limit: CHUNKS_PER_READ });
      yield* chunks;
      if (chunks.length < CHUNKS_PER_READ) return;
      beforeId = chunks[chunks.length - 1]!.id;
    }
  }

  /** A deleted zone's log goes with it (dropQueued, and its chunks in the store). */
  async forget(pullZoneId: number): Promise<void> {
    this.dropQueued(pullZoneId);
    await this.store.accessLog.trim([pullZoneId], 0);
  }

  /** A deleted zone's lines still in this instance's memory go: those waiting for the store, a collector or a storage zone. */
  dropQueued(pullZoneId: number): void {
    this.sinks.forwarding?.forget(pullZoneId);
    this.sinks.files?.forget(pullZoneId);
    const chunk = this.pending.get(pullZoneId);
    this.lastChunkBytes.delete(pullZoneId);
    if (chunk) this.pendingLines -= chunk.lines.count;
    this.pending.delete(pullZoneId);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => {});
  }
}

/** A chunk's lines as its row keeps them: compressed, off the event loop. */
async function packed(lines: Buffer): Promise<string> {
  const params = { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_SIZE_HINT]: lines.length };
  return CHUNK_PREFIX + (await brotliAsync(lines, { chunkSize: COMPRESS_CHUNK_BYTES, params })).toString('base64');
}

/** A chunk's lines in the platform's format, from a compressed chunk or one of JSON lines written before. */
function unpacked(entry: string): string[] {
  const compressed = entry.startsWith(CHUNK_PREFIX) || entry.startsWith(GZIP_PREFIX);
  if (!compressed) return entry.split('\n').map((json) => formatLine(JSON.parse(json) as AccessLogLine));
  const bytes = Buffer.from(entry.slice(CHUNK_PREFIX.length), 'base64');
  return (entry.startsWith(CHUNK_PREFIX) ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString().split('\n');
}
