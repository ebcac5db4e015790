/**
 * The access log of pull zones whose logging is on (`EnableLogging`): each request the edge served,
 * in the platform's raw log line format, the newest ACCESS_LOG_SIZE per zone. Lines are gathered in
 * memory and written once a second in one transaction, so logging costs a request no store write;
 * a crash loses at most the last second. Kept in the store, so every instance's lines are in one
 * log, readable by the operator route and by `edgeplane pullzones logs` from another process.
 */
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
  return [
    line.cacheStatus,
    line.status,
    line.timestamp,
    line.bytesSent,
    line.pullZoneId,
    line.remoteIp || '-',
    line.referer || '-',
    line.url,
    line.edgeLocation,
    line.userAgent || '-',
    line.requestId,
    line.countryCode || '-',
  ]
    .map((field) => String(field).replaceAll('|', '%7C'))
    .join('|');
}

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

export class EdgeAccessLog {
  private pending: { accountId: number; pullZoneId: number; at: number; entry: string }[] = [];
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
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    const line = lineOf(event);
    this.pending.push({ accountId: event.accountId, pullZoneId: event.zoneId, at: line.timestamp, entry: JSON.stringify(line) });
  }

  /** Writes the lines gathered so far and trims the zones they went to; on failure they wait for the next flush. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      if (this.pending.length === 0) return;
      const batch = this.pending;
      this.pending = [];
      const zones = [...new Set(batch.map((e) => e.pullZoneId))];
      try {
        await this.store.transaction(async (tx) => {
          await tx.accessLog.append(batch);
          await tx.accessLog.trim(zones, ACCESS_LOG_SIZE);
        });
      } catch (error) {
        this.pending = batch.concat(this.pending).slice(-MAX_PENDING);
        throw error;
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }

  /** A zone's lines as the platform's logging API gives them (flushed first, so they are all there). */
  async read(pullZoneId: number, read: AccessLogRead): Promise<string[]> {
    await this.flush().catch(() => {});
    const entries = await this.store.accessLog.list(pullZoneId, { offset: read.start, limit: read.limit, descending: read.order === 'desc' });
    return entries.map((e) => formatLine(JSON.parse(e.entry) as AccessLogLine));
  }

  /** A deleted zone's log goes with it. */
  async forget(pullZoneId: number): Promise<void> {
    this.pending = this.pending.filter((e) => e.pullZoneId !== pullZoneId);
    await this.store.accessLog.trim([pullZoneId], 0);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => {});
  }
}
