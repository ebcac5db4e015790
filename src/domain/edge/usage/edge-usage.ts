/**
 * What the edge reports after each answer, turned into what the rest of edgeplane reads: the usage
 * counters (billing, statistics), the access log, the zones whose monthly bandwidth must be
 * brought up to date (bandwidth-limits.ts), and for a video library's pull zone the views and
 * watch time of its videos (videos/plays.ts). Everything here only adds to memory: a request
 * never waits for the store because it was counted.
 */
import { CountersById, hourOf, type SubjectCounters, type UsageRecorder } from '../../usage/recorder.js';
import * as metric from '../../usage/pull-zone-metrics.js';
import type { DdosOutcome } from '../ddos/guard.js';
import type { QueueEvent } from '../shield/concurrency-limit.js';
import type { OriginReport, ServedEvent } from '../types.js';
import type { EdgeAccessLog } from './access-log.js';
import type { BandwidthLimits } from './bandwidth-limits.js';
import type { VideoPlays } from '../../videos/plays.js';

const FROM_CACHE = new Set<ServedEvent['cacheStatus']>(['HIT', 'STALE', 'UPDATING']);
/** Zones whose counters are kept between answers; one forgotten is made again on its next answer. */
const COUNTED_ZONES = 10_000;

/**
 * Each answer adds 5 to 10 figures to its zone's counters, which keep their pending entries: no key
 * built and looked up per figure (as `UsageRecorder.add` does).
 */
export class EdgeUsage {
  private readonly counters: CountersById;

  constructor(
    usage: UsageRecorder,
    private readonly accessLog: EdgeAccessLog,
    private readonly limits: BandwidthLimits,
    private readonly videoPlays: Pick<VideoPlays, 'served'>,
  ) {
    this.counters = new CountersById(usage, metric.pullZoneSubject, COUNTED_ZONES);
  }

  /** The edge's `onServed`: must never throw into the request that was just answered. */
  readonly served = (event: ServedEvent): void => {
    const zone = this.counters.of(event.zoneId);
    const hour = hourOf(event.at);
    // Another instance's request through the origin shield: its client was counted there; here, the shield's bytes and origin request.
    if (event.shielded) {
      zone.of(metric.SHIELD_BANDWIDTH).add(event.bytesSent, hour);
      this.countOrigin(zone, event.origin, hour);
      return;
    }
    zone.of(metric.REQUESTS).add(1, hour);
    zone.of(metric.BANDWIDTH).add(event.bytesSent, hour);
    if (event.status >= 300) zone.of(metric.statusClass(event.status)).add(1, hour);
    if (FROM_CACHE.has(event.cacheStatus)) {
      zone.of(metric.CACHED_REQUESTS).add(1, hour);
      zone.of(metric.CACHED_BANDWIDTH).add(event.bytesSent, hour);
    }
    this.countOrigin(zone, event.origin, hour);
    if (event.webSocket !== undefined) {
      // A WebSocket's traffic is the zone's both ways: what its client sent too.
      zone.of(metric.WEBSOCKET_CONNECTIONS).add(1, hour);
      zone.of(metric.BANDWIDTH).add(event.webSocket.bytesFromClient, hour);
    }
    this.accessLog.add(event);
    this.limits.touched(event.zoneId, event.accountId);
    if (event.zone.VideoLibraryId > 0) this.videoPlays.served(event);
  };

  /** The origin request an answer took, unless the origin shield asked it (and counted it). */
  private countOrigin(zone: SubjectCounters, origin: OriginReport | undefined, hour: number): void {
    if (origin === undefined || origin.viaShield) return;
    zone.of(metric.ORIGIN_REQUESTS).add(1, hour);
    zone.of(metric.ORIGIN_BYTES).add(origin.bytes, hour);
    zone.of(metric.ORIGIN_MS).add(Math.round(origin.responseMs), hour);
    if (origin.attempts > 1) {
      zone.of(metric.ORIGIN_RETRIED).add(origin.attempts - 1, hour);
      if (origin.answered) zone.of(metric.ORIGIN_SAVED).add(1, hour);
    }
  }

  /** A variant the optimizer made (planes/edge/optimize.ts): counted once, when made, whatever number of hits it serves after. */
  readonly optimized = (event: { zoneId: number; originalBytes: number; bytes: number; ms: number }, at = new Date()): void => {
    const zone = this.counters.of(event.zoneId);
    const hour = hourOf(at);
    zone.of(metric.OPTIMIZER_REQUESTS).add(1, hour);
    zone.of(metric.OPTIMIZER_ORIGINAL_BYTES).add(event.originalBytes, hour);
    zone.of(metric.OPTIMIZER_BYTES).add(event.bytes, hour);
    zone.of(metric.OPTIMIZER_MS).add(Math.round(event.ms), hour);
  };

  /**
   * A request the zone's origin shield concurrency limit let through, queued, or refused at once
   * (shield/concurrency-limit.ts): the queue's chart counts the requests above the limit, those
   * that waited and those the full queue turned away, each once.
   */
  readonly shieldQueue = (zoneId: number, event: QueueEvent, at = new Date()): void => {
    this.counters
      .of(zoneId)
      .of(event === 'ran' ? metric.SHIELD_CONCURRENT : metric.SHIELD_QUEUED)
      .add(1, hourOf(at));
  };

  /** A request above its zone's DDoS threshold (ddos/guard.ts), counted by what was done with it. */
  readonly ddos = (zoneId: number, outcome: DdosOutcome, at = new Date()): void => {
    this.counters.of(zoneId).of(metric.ddosRequests(outcome)).add(1, hourOf(at));
  };
}
