/**
 * What the edge reports after each answer, turned into what the rest of edgeplane reads: the usage
 * counters (billing, statistics), the access log, and the zones whose monthly bandwidth must be
 * brought up to date (bandwidth-limits.ts). Everything here only adds to memory: a request never
 * waits for the store because it was counted.
 */
import type { UsageRecorder } from '../../usage/recorder.js';
import * as metric from '../../usage/pull-zone-metrics.js';
import type { ServedEvent } from '../types.js';
import type { EdgeAccessLog } from './access-log.js';
import type { BandwidthLimits } from './bandwidth-limits.js';

const FROM_CACHE = new Set<ServedEvent['cacheStatus']>(['HIT', 'STALE', 'UPDATING']);

export class EdgeUsage {
  constructor(
    private readonly usage: UsageRecorder,
    private readonly accessLog: EdgeAccessLog,
    private readonly limits: BandwidthLimits,
  ) {}

  /** The edge's `onServed`: must never throw into the request that was just answered. */
  readonly served = (event: ServedEvent): void => {
    const subject = metric.pullZoneSubject(event.zoneId);
    const at = event.at;
    this.usage.add(subject, metric.REQUESTS, 1, at);
    this.usage.add(subject, metric.BANDWIDTH, event.bytesSent, at);
    if (event.status >= 300) this.usage.add(subject, metric.statusClass(event.status), 1, at);
    if (FROM_CACHE.has(event.cacheStatus)) {
      this.usage.add(subject, metric.CACHED_REQUESTS, 1, at);
      this.usage.add(subject, metric.CACHED_BANDWIDTH, event.bytesSent, at);
    }
    const origin = event.origin;
    if (origin !== undefined) {
      this.usage.add(subject, metric.ORIGIN_REQUESTS, 1, at);
      this.usage.add(subject, metric.ORIGIN_BYTES, origin.bytes, at);
      this.usage.add(subject, metric.ORIGIN_MS, Math.round(origin.responseMs), at);
      if (origin.attempts > 1) {
        this.usage.add(subject, metric.ORIGIN_RETRIED, origin.attempts - 1, at);
        if (origin.answered) this.usage.add(subject, metric.ORIGIN_SAVED, 1, at);
      }
    }
    this.accessLog.add(event);
    this.limits.touched(event.zoneId, event.accountId);
  };
}
