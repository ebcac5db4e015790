/**
 * The origin errors of pull zones, as the platform's origin errors API serves them: each request
 * the edge could not get from a zone's HTTP origin (the name did not resolve, the connection
 * failed or was refused, the origin did not answer in time), with the platform's error code, the
 * status the client got, a message and labels. Recorded in memory as the failure happens (the
 * request never waits for the store) and written once a second in one transaction, as the access
 * log is; a zone keeps at most ORIGIN_ERRORS_PER_DAY a UTC day (the newest), and days older than
 * the access log's retention go.
 */
import { randomUUID } from 'node:crypto';
import type { OriginErrorEntry, Store } from '../../../store/types.js';
import { type Clock, systemClock } from '../../principal.js';
import { EDGE_LOCATION } from '../logs/line.js';
import { ACCESS_LOG_DAYS } from '../usage/access-log.js';
import type { OriginFailureCause } from './fetch.js';

/** Entries a zone keeps per UTC day: the newest. */
export const ORIGIN_ERRORS_PER_DAY = 10_000;
const DAY_MS = 86_400_000;
const FLUSH_MS = 1000;
const EXPIRE_EVERY_MS = 3_600_000;
/** Entries waiting for a flush beyond which new ones are dropped (counted): an origin down for every zone at once, or a store down, must not eat the memory. */
const MAX_PENDING = 20_000;
/** Flushes an entry is part of before it is dropped (counted): one the store refuses for good (its account gone in an operator's reset) must not hold back the others for ever. */
const MAX_TRIES = 3;

/** The platform's codes edgeplane gives (its documentation lists more, for failures edgeplane does not have). */
export type OriginErrorCode = 'dns_lookup' | 'http_timeout' | 'network_socket_exception' | 'http_request_failure' | 'http_request_exception';

/** Errors of a name lookup (getaddrinfo's and the resolver's). */
const LOOKUP_ERRORS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL', 'ETIMEOUT']);

/** The platform's code for a failure of the edge's request to the origin. */
export function originErrorCode(cause: OriginFailureCause): OriginErrorCode {
  if (cause.errno !== undefined && LOOKUP_ERRORS.has(cause.errno)) return 'dns_lookup';
  switch (cause.failure) {
    case 'connect-timeout':
    case 'response-timeout':
      return 'http_timeout';
    case 'refused':
      // The origin address policy refused the address: the request was never sent.
      return 'http_request_failure';
    case 'unreachable':
      // No errno: node:http would not make the request (a header or path it refuses).
      return cause.errno === undefined ? 'http_request_exception' : 'network_socket_exception';
  }
}

/** One failure as the edge saw it. */
export interface OriginFailure {
  accountId: number;
  pullZoneId: number;
  /** The origin asked (its scheme, host and port). */
  origin: URL;
  /** The path and query the client asked for. */
  requestUrl: string;
  /** The status the client is answered with. */
  status: number;
  message: string;
  cause: OriginFailureCause;
}

export class OriginErrorLog {
  private pending: OriginErrorEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private lastExpiry = 0;
  /** Failed flushes each entry was part of. */
  private readonly tries = new WeakMap<OriginErrorEntry, number>();
  /** Entries dropped: past MAX_PENDING, or after MAX_TRIES failed flushes. */
  dropped = 0;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock = systemClock,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => {}), FLUSH_MS);
    this.timer.unref();
  }

  record(failure: OriginFailure): void {
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    const code = originErrorCode(failure.cause);
    const labels = { ErrorCode: code, StatusCode: String(failure.status), ServerZone: EDGE_LOCATION, OriginHost: failure.origin.host };
    this.pending.push({
      accountId: failure.accountId,
      pullZoneId: failure.pullZoneId,
      at: this.clock().getTime(),
      logId: randomUUID(),
      code,
      status: failure.status,
      message: failure.message,
      url: failure.requestUrl,
      labels: JSON.stringify(labels),
    });
  }

  /** Writes what was recorded, trims the zone-days written to; on failure the entries wait for the next flush. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      if (this.pending.length === 0) return;
      const batch = this.pending;
      this.pending = [];
      const days = new Map<string, { pullZoneId: number; day: number }>();
      for (const e of batch) {
        const day = Math.floor(e.at / DAY_MS);
        days.set(`${e.pullZoneId}:${day}`, { pullZoneId: e.pullZoneId, day });
      }
      const now = this.clock().getTime();
      const expire = now - this.lastExpiry >= EXPIRE_EVERY_MS;
      try {
        await this.store.transaction(async (tx) => {
          await tx.originErrors.append(batch);
          for (const { pullZoneId, day } of days.values()) await tx.originErrors.trimDay(pullZoneId, day, ORIGIN_ERRORS_PER_DAY);
          if (expire) await tx.originErrors.expire(now - ACCESS_LOG_DAYS * DAY_MS);
        });
        if (expire) this.lastExpiry = now;
      } catch (error) {
        const retried = batch.filter((entry) => {
          const tries = (this.tries.get(entry) ?? 0) + 1;
          this.tries.set(entry, tries);
          return tries < MAX_TRIES;
        });
        this.dropped += batch.length - retried.length;
        const back = [...retried, ...this.pending];
        this.dropped += Math.max(0, back.length - MAX_PENDING);
        this.pending = back.slice(-MAX_PENDING);
        throw error;
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }

  /** A zone's entries of the UTC day starting at `from` (epoch ms), oldest first; this instance's flushed first. */
  async day(pullZoneId: number, from: number): Promise<OriginErrorEntry[]> {
    await this.flush().catch(() => {});
    return this.store.originErrors.between(pullZoneId, from, from + DAY_MS, ORIGIN_ERRORS_PER_DAY);
  }

  /** A deleted zone's entries still waiting here go with it (its rows go in the deleting transaction). */
  dropQueued(pullZoneId: number): void {
    this.pending = this.pending.filter((e) => e.pullZoneId !== pullZoneId);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => {});
  }
}
