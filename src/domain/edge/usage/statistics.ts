/**
 * The CDN statistics operations, from what the edge counted as it served (edge-usage.ts): requests,
 * bytes, cache hits, origin traffic and response times, answer classes, origin retries, what the
 * origin shield sent other instances, its concurrency limit's queue, what the optimizer made.
 */
import type {
  CdnStatisticsQueryT,
  CdnStatisticsT,
  DdosStatisticsT,
  OptimizerStatisticsT,
  OriginShieldQueueStatisticsT,
  PullZoneStatisticsQueryT,
  SafeHopStatisticsT,
} from '../../../schemas/cdn-statistics.js';
import type { Store, UsageEntry } from '../../../store/types.js';
import { INITIAL_BALANCE } from '../../accounts/service.js';
import { RECORD_TYPE } from '../../billing/service.js';
import type { Clock, Principal } from '../../principal.js';
import type { PullZoneService } from '../../pull-zones/service.js';
import { chartOf, metricChart, type Period, periodOf, pointName, points, total } from '../../usage/charts.js';
import * as metric from '../../usage/pull-zone-metrics.js';
import type { UsageRecorder } from '../../usage/recorder.js';
import { EDGE_LOCATION } from '../logs/line.js';
import { DAY_MS } from '../../durations.js';

const STATUS_3XX = metric.statusClass(300);
const STATUS_4XX = metric.statusClass(400);
const STATUS_5XX = metric.statusClass(500);
const OPTIMIZER_METRICS = [metric.OPTIMIZER_REQUESTS, metric.OPTIMIZER_ORIGINAL_BYTES, metric.OPTIMIZER_BYTES, metric.OPTIMIZER_MS];
const METRICS = [
  metric.BANDWIDTH,
  metric.REQUESTS,
  metric.CACHED_BANDWIDTH,
  metric.CACHED_REQUESTS,
  metric.ORIGIN_BYTES,
  metric.ORIGIN_MS,
  metric.ORIGIN_REQUESTS,
  metric.SHIELD_BANDWIDTH,
  STATUS_3XX,
  STATUS_4XX,
  STATUS_5XX,
];

/** One value per point of the period, from a per-point function of the charts. */
function combine(period: Period, charts: Record<string, number>[], value: (...values: number[]) => number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const at of points(period)) {
    const name = pointName(at);
    out[name] = value(...charts.map((c) => c[name] ?? 0));
  }
  return out;
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

export class CdnStatistics {
  constructor(
    private readonly store: Store,
    private readonly pullZones: PullZoneService,
    private readonly usage: UsageRecorder,
    private readonly clock: Clock,
  ) {}

  /** `GET /statistics`: every pull zone of the account, or the one asked for. */
  async overall(principal: Principal, query: CdnStatisticsQueryT): Promise<CdnStatisticsT> {
    const zoneIds = await this.zonesOf(principal, query.pullZone ?? -1);
    const period = this.periodOf(query);
    const entries = await this.entriesOf(zoneIds, METRICS, period);
    const chart = (name: string) => metricChart(entries, period, name);
    const bandwidth = chart(metric.BANDWIDTH);
    const requests = chart(metric.REQUESTS);
    const cachedRequests = chart(metric.CACHED_REQUESTS);
    const originRequests = chart(metric.ORIGIN_REQUESTS);
    const originMs = chart(metric.ORIGIN_MS);
    const originBytes = chart(metric.ORIGIN_BYTES);
    const zeros = combine(period, [], () => 0);
    return {
      TotalBandwidthUsed: total(bandwidth),
      TotalOriginTraffic: total(originBytes),
      AverageOriginResponseTime: total(originRequests) === 0 ? 0 : Math.round(total(originMs) / total(originRequests)),
      OriginResponseTimeChart: query.loadOriginResponseTimes ? combine(period, [originMs, originRequests], (ms, n) => (n === 0 ? 0 : ms / n)) : null,
      TotalRequestsServed: total(requests),
      CacheHitRate: rate(total(cachedRequests), total(requests)),
      BandwidthUsedChart: bandwidth,
      BandwidthCachedChart: chart(metric.CACHED_BANDWIDTH),
      CacheHitRateChart: combine(period, [cachedRequests, requests], rate),
      RequestsServedChart: requests,
      PullRequestsPulledChart: originRequests,
      OriginShieldBandwidthUsedChart: query.loadOriginShieldBandwidth ? chart(metric.SHIELD_BANDWIDTH) : null,
      OriginShieldInternalBandwidthUsedChart: query.loadOriginShieldBandwidth ? zeros : null,
      OriginTrafficChart: query.loadOriginTraffic ? originBytes : null,
      UserBalanceHistoryChart: query.loadUserBalanceHistory ? await this.balanceHistory(principal.accountId, period) : null,
      GeoTrafficDistribution: query.loadGeographicTrafficDistribution ? { [EDGE_LOCATION]: total(bandwidth) } : null,
      Error3xxChart: query.loadErrors ? chart(STATUS_3XX) : null,
      Error4xxChart: query.loadErrors ? chart(STATUS_4XX) : null,
      Error5xxChart: query.loadErrors ? chart(STATUS_5XX) : null,
    };
  }

  /** What the zone's optimizer made (edge-usage.ts `optimized`): variants, bytes saved, time taken. */
  async optimizer(principal: Principal, pullZoneId: number, query: PullZoneStatisticsQueryT): Promise<OptimizerStatisticsT> {
    await this.pullZones.get(principal, pullZoneId, false);
    const period = this.periodOf(query);
    const entries = await this.entriesOf([pullZoneId], OPTIMIZER_METRICS, period);
    const chart = (name: string) => metricChart(entries, period, name);
    const made = chart(metric.OPTIMIZER_REQUESTS);
    const originals = chart(metric.OPTIMIZER_ORIGINAL_BYTES);
    const variants = chart(metric.OPTIMIZER_BYTES);
    const ms = chart(metric.OPTIMIZER_MS);
    const saved = (original: number, variant: number) => Math.max(0, original - variant);
    return {
      RequestsOptimizedChart: made,
      AverageCompressionChart: combine(period, [originals, variants], (o, v) => rate(saved(o, v), o)),
      TrafficSavedChart: combine(period, [originals, variants], saved),
      AverageProcessingTimeChart: combine(period, [ms, made], (m, n) => (n === 0 ? 0 : m / n)),
      TotalRequestsOptimized: total(made),
      TotalTrafficSaved: saved(total(originals), total(variants)),
      AverageProcessingTime: total(made) === 0 ? 0 : total(ms) / total(made),
      AverageCompressionRatio: rate(saved(total(originals), total(variants)), total(originals)),
    };
  }

  async originShieldQueue(principal: Principal, pullZoneId: number, query: PullZoneStatisticsQueryT): Promise<OriginShieldQueueStatisticsT> {
    await this.pullZones.get(principal, pullZoneId, false);
    const period = this.periodOf(query);
    const entries = await this.entriesOf([pullZoneId], [metric.SHIELD_CONCURRENT, metric.SHIELD_QUEUED], period);
    return {
      ConcurrentRequestsChart: metricChart(entries, period, metric.SHIELD_CONCURRENT),
      QueuedRequestsChart: metricChart(entries, period, metric.SHIELD_QUEUED),
    };
  }

  async safeHop(principal: Principal, pullZoneId: number, query: PullZoneStatisticsQueryT): Promise<SafeHopStatisticsT> {
    await this.pullZones.get(principal, pullZoneId, false);
    const period = this.periodOf(query);
    const entries = await this.entriesOf([pullZoneId], [metric.ORIGIN_RETRIED, metric.ORIGIN_SAVED], period);
    const retried = chartOf(
      entries.filter((e) => e.metric === metric.ORIGIN_RETRIED),
      period,
    );
    const saved = chartOf(
      entries.filter((e) => e.metric === metric.ORIGIN_SAVED),
      period,
    );
    return { RequestsRetriedChart: retried, RequestsSavedChart: saved, TotalRequestsRetried: total(retried), TotalRequestsSaved: total(saved) };
  }

  /** What the zone's DDoS protection did with the requests above its threshold, counted by every instance. */
  async ddos(principal: Principal, pullZoneId: number, query: PullZoneStatisticsQueryT): Promise<DdosStatisticsT> {
    await this.pullZones.get(principal, pullZoneId, false);
    const period = this.periodOf(query);
    const outcomes = ['logged', 'verified', 'challenged', 'blocked'] as const;
    const entries = await this.entriesOf([pullZoneId], outcomes.map(metric.ddosRequests), period);
    const chart = (outcome: (typeof outcomes)[number]) => metricChart(entries, period, metric.ddosRequests(outcome));
    const [logged, verified, challenged, blocked] = [chart('logged'), chart('verified'), chart('challenged'), chart('blocked')];
    return {
      LoggedRequestsChart: logged,
      VerifiedRequestsChart: verified,
      ChallengedRequestsChart: challenged,
      BlockedRequestsChart: blocked,
      TotalLoggedRequests: total(logged),
      TotalVerifiedRequests: total(verified),
      TotalChallengedRequests: total(challenged),
      TotalBlockedRequests: total(blocked),
    };
  }

  /** The 30 days up to now by default; whole days unless hourly with `exactRange`. */
  private periodOf(query: PullZoneStatisticsQueryT & { exactRange?: boolean }): Period {
    const asked = periodOf(query.dateFrom, query.dateTo, this.clock(), query.hourly ?? false);
    if (asked.hourly && query.exactRange) return asked;
    const from = new Date(Math.floor(asked.from.getTime() / DAY_MS) * DAY_MS);
    const to = new Date(Math.floor(asked.to.getTime() / DAY_MS) * DAY_MS + DAY_MS - 1);
    return { from, to, hourly: asked.hourly };
  }

  private async zonesOf(principal: Principal, pullZone: number): Promise<number[]> {
    if (pullZone >= 0) {
      await this.pullZones.get(principal, pullZone, false);
      return [pullZone];
    }
    const page = await this.store.docs.list<{ Id: number }>('pullZone', principal.accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return page.items.map((d) => d.doc.Id);
  }

  private async entriesOf(zoneIds: number[], metrics: string[], period: Period): Promise<UsageEntry[]> {
    const all: UsageEntry[] = [];
    for (const id of zoneIds) all.push(...(await this.usage.series(metric.pullZoneSubject(id), metrics, period.from, period.to)));
    return all;
  }

  /** The balance at the end of each point: the opening funds and every movement the operator made up to then. */
  private async balanceHistory(accountId: number, period: Period): Promise<Record<string, number>> {
    const account = await this.store.accounts.get(accountId);
    const records = (await this.store.billing.list(accountId)).filter((r) => r.recordType !== RECORD_TYPE.month);
    const step = period.hourly ? 3_600_000 : DAY_MS;
    const out: Record<string, number> = {};
    for (const at of points(period)) {
      const end = at.getTime() + step;
      const created = account ? Date.parse(account.createdAt) : 0;
      out[pointName(at)] = created >= end ? 0 : records.filter((r) => Date.parse(r.at) < end).reduce((sum, r) => sum + r.amount, INITIAL_BALANCE);
    }
    return out;
  }
}
