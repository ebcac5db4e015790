/**
 * What DNS zones answered, counted by the DNS plane as it answers (per zone, per hour, per query
 * type) and charted for `GET /dnszone/{id}/statistics`; and the bounded query log of zones whose
 * logging is on.
 */
import type { Static } from 'typebox';
import type { DnsZoneStatistics as Schema } from '../../schemas/dns.js';
import type { Clock, Principal } from '../principal.js';
import { chartOf, periodOf, total } from '../usage/charts.js';
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

/** One query counted: as normal or smart, and by its type, in the hour the clock says. */
export class QueryTally {
  constructor(
    private readonly clock: Clock,
    private readonly kind: UsageCounter,
    private readonly type: UsageCounter,
  ) {}

  count(): void {
    const hour = hourOf(this.clock());
    this.kind.add(1, hour);
    this.type.add(1, hour);
  }
}

export class DnsStatistics {
  private readonly counters: CountersById;

  constructor(
    private readonly zones: DnsZoneService,
    private readonly usage: UsageRecorder,
    private readonly clock: Clock,
  ) {
    this.counters = new CountersById(usage, zoneSubject, COUNTED_ZONES);
  }

  /**
   * What counting one answered query of a zone takes: the DNS plane asks once per distinct answer
   * and counts the tally every time it sends that answer.
   */
  tally(zoneId: number, queryType: string, smart: boolean): QueryTally {
    const zone = this.counters.of(zoneId);
    return new QueryTally(this.clock, zone.of(smart ? SMART : NORMAL), zone.of(byType(queryType)));
  }

  async zone(principal: Principal, id: number, query: StatisticsQuery): Promise<DnsZoneStatisticsT> {
    await this.zones.get(principal, id);
    const period = periodOf(query.dateFrom, query.dateTo, this.clock());
    const entries = await this.usage.series(zoneSubject(id), [NORMAL, SMART, ...CHARTED_TYPES.map(byType)], period.from, period.to);
    const normal = chartOf(
      entries.filter((e) => e.metric === NORMAL),
      period,
    );
    const smart = chartOf(
      entries.filter((e) => e.metric === SMART),
      period,
    );
    const all = chartOf(
      entries.filter((e) => e.metric === NORMAL || e.metric === SMART),
      period,
    );
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
