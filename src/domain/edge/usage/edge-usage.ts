/**
 * What the edge reports after each answer, turned into what the rest of edgeplane reads: the usage
 * counters (billing, statistics), the access log, and the zones whose monthly bandwidth must be
 * brought up to date (bandwidth-limits.ts). Everything here only adds to memory: a request never
 * waits for the store because it was counted.
 */
import { BoundedMap } from '../../bounded-map.js';
import { hourOf, type UsageCounter, type UsageRecorder } from '../../usage/recorder.js';
import * as metric from '../../usage/pull-zone-metrics.js';
import type { ServedEvent } from '../types.js';
import type { EdgeAccessLog } from './access-log.js';
import type { BandwidthLimits } from './bandwidth-limits.js';

const FROM_CACHE = new Set<ServedEvent['cacheStatus']>(['HIT', 'STALE', 'UPDATING']);
/** Zones whose counters are kept between answers; one forgotten is made again on its next answer. */
const COUNTED_ZONES = 10_000;

/**
 * One zone's usage counters, made on its first answer: each answer adds to them without building
 * a key per metric (5 to 10 of them per answer, through `UsageRecorder.add`, before).
 */
class ZoneCounters {
  readonly requests: UsageCounter;
  readonly bandwidth: UsageCounter;
  readonly cachedRequests: UsageCounter;
  readonly cachedBandwidth: UsageCounter;
  readonly originRequests: UsageCounter;
  readonly originBytes: UsageCounter;
  readonly originMs: UsageCounter;
  readonly originRetried: UsageCounter;
  readonly originSaved: UsageCounter;
  private readonly statusClasses = new Map<number, UsageCounter>();

  constructor(
    private readonly usage: UsageRecorder,
    private readonly subject: string,
  ) {
    this.requests = usage.counter(subject, metric.REQUESTS);
    this.bandwidth = usage.counter(subject, metric.BANDWIDTH);
    this.cachedRequests = usage.counter(subject, metric.CACHED_REQUESTS);
    this.cachedBandwidth = usage.counter(subject, metric.CACHED_BANDWIDTH);
    this.originRequests = usage.counter(subject, metric.ORIGIN_REQUESTS);
    this.originBytes = usage.counter(subject, metric.ORIGIN_BYTES);
    this.originMs = usage.counter(subject, metric.ORIGIN_MS);
    this.originRetried = usage.counter(subject, metric.ORIGIN_RETRIED);
    this.originSaved = usage.counter(subject, metric.ORIGIN_SAVED);
  }

  statusClass(status: number): UsageCounter {
    const hundreds = Math.floor(status / 100);
    let counter = this.statusClasses.get(hundreds);
    if (counter === undefined) {
      counter = this.usage.counter(this.subject, metric.statusClass(status));
      this.statusClasses.set(hundreds, counter);
    }
    return counter;
  }
}

/** As `UsageRecorder.add`, a zero adds nothing (no pending entry, no row). */
function count(counter: UsageCounter, value: number, hour: number): void {
  if (value !== 0) counter.add(value, hour);
}

export class EdgeUsage {
  private readonly zones = new BoundedMap<number, ZoneCounters>(COUNTED_ZONES);

  constructor(
    private readonly usage: UsageRecorder,
    private readonly accessLog: EdgeAccessLog,
    private readonly limits: BandwidthLimits,
  ) {}

  /** The edge's `onServed`: must never throw into the request that was just answered. */
  readonly served = (event: ServedEvent): void => {
    const zone = this.countersOf(event.zoneId);
    const hour = hourOf(event.at);
    count(zone.requests, 1, hour);
    count(zone.bandwidth, event.bytesSent, hour);
    if (event.status >= 300) count(zone.statusClass(event.status), 1, hour);
    if (FROM_CACHE.has(event.cacheStatus)) {
      count(zone.cachedRequests, 1, hour);
      count(zone.cachedBandwidth, event.bytesSent, hour);
    }
    const origin = event.origin;
    if (origin !== undefined) {
      count(zone.originRequests, 1, hour);
      count(zone.originBytes, origin.bytes, hour);
      count(zone.originMs, Math.round(origin.responseMs), hour);
      if (origin.attempts > 1) {
        count(zone.originRetried, origin.attempts - 1, hour);
        if (origin.answered) count(zone.originSaved, 1, hour);
      }
    }
    this.accessLog.add(event);
    this.limits.touched(event.zoneId, event.accountId);
  };

  private countersOf(zoneId: number): ZoneCounters {
    let zone = this.zones.get(zoneId);
    if (zone === undefined) {
      zone = new ZoneCounters(this.usage, metric.pullZoneSubject(zoneId));
      this.zones.set(zoneId, zone);
    }
    return zone;
  }
}
