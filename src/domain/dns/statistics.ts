/**
 * What DNS zones answered, counted by the DNS plane as it answers (per zone, per hour, per query
 * type) and charted for `GET /dnszone/{id}/statistics`; and the bounded query log of zones whose
 * logging is on.
 */
import type { Static } from 'typebox';
import type { DnsZoneStatistics as Schema } from '../../schemas/dns.js';
import { BoundedMap } from '../bounded-map.js';
import type { Clock, Principal } from '../principal.js';
import { metricChart, periodOf, total } from '../usage/charts.js';
import { CountersById, hourOf, type UsageCounter, type UsageRecorder } from '../usage/recorder.js';
import type { DnsZoneService } from './service.js';

type DnsZoneStatisticsT = Static<typeof Schema>;

/** The query types charted by name; any other is counted as `OTHER`. */
export const CHARTED_TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'SRV', 'CAA', 'PTR', 'NS', 'SOA', 'SVCB', 'HTTPS', 'TLSA', 'DNSKEY', 'DS', 'ANY', 'OTHER'];
const NORMAL = 'queries.normal';
const SMART = 'queries.smart';
const byType = (type: string) => `queries.type.${CHARTED_TYPES.includes(type) ? type : 'OTHER'}`;
/** Zones whose counters are kept ready; beyond, the least recent are made again when they answer. */
const COUNTED_ZONES = 65_536;

export const zoneSubject = (zoneId: number) => `dnsZone:${zoneId}`;

export interface StatisticsQuery {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

/**
 * The hour the clock says, read once per turn of the event loop: a busy DNS plane answers dozens
 * of queries a turn, and making a Date for each was a large share of what counting a cached answer
 * cost. A query is counted in the hour its turn began (one turn late, at most, across an hour's end).
 */
class HourOfTurn {
  private hour = -1;
  private readonly forget = () => {
    this.hour = -1;
  };

  constructor(private readonly clock: Clock) {}

  now(): number {
    if (this.hour < 0) {
      this.hour = hourOf(this.clock());
      setImmediate(this.forget);
    }
    return this.hour;
  }
}

/** One query counted: as normal or smart, and by its type, in the hour the clock says. */
export class QueryTally {
  constructor(
    private readonly hours: HourOfTurn,
    private readonly kind: UsageCounter,
    private readonly type: UsageCounter,
  ) {}

  count(): void {
    const hour = this.hours.now();
    this.kind.add(1, hour);
    this.type.add(1, hour);
  }
}

export class DnsStatistics {
  private readonly counters: CountersById;
  private readonly hours: HourOfTurn;
  /**
   * One tally per zone, kind and type, shared by every answer counted with it: the DNS plane keeps
   * a tally with each cached answer, and 10,000 answers reading 10,000 tallies missed the CPU's
   * caches where a few shared ones stay in them.
   */
  private readonly tallies = new BoundedMap<string, QueryTally>(COUNTED_ZONES);

  constructor(
    private readonly zones: DnsZoneService,
    private readonly usage: UsageRecorder,
    private readonly clock: Clock,
  ) {
    this.counters = new CountersById(usage, zoneSubject, COUNTED_ZONES);
    this.hours = new HourOfTurn(clock);
  }

  /**
   * What counting one answered query of a zone takes: the DNS plane asks once per distinct answer
   * and counts the tally every time it sends that answer.
   */
  tally(zoneId: number, queryType: string, smart: boolean): QueryTally {
    const kind = smart ? SMART : NORMAL;
    const type = byType(queryType);
    const key = `${zoneId} ${kind} ${type}`;
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      const zone = this.counters.of(zoneId);
      tally = new QueryTally(this.hours, zone.of(kind), zone.of(type));
      this.tallies.set(key, tally);
    }
    return tally;
  }

  async zone(principal: Principal, id: number, query: StatisticsQuery): Promise<DnsZoneStatisticsT> {
    await this.zones.get(principal, id);
    const period = periodOf(query.dateFrom, query.dateTo, this.clock());
    const entries = await this.usage.series(zoneSubject(id), [NORMAL, SMART, ...CHARTED_TYPES.map(byType)], period.from, period.to);
    const normal = metricChart(entries, period, NORMAL);
    const smart = metricChart(entries, period, SMART);
    const all = metricChart(entries, period, NORMAL, SMART);
    const types: Record<string, number> = {};
    for (const e of entries) if (e.metric.startsWith('queries.type.')) types[e.metric.slice(13)] = (types[e.metric.slice(13)] ?? 0) + e.value;
    return {
      TotalQueriesServed: total(all),
      QueriesServedChart: all,
      NormalQueriesServedChart: normal,
      SmartQueriesServedChart: smart,
      QueriesByTypeChart: types,
    };
  }
}
