/**
 * What an account owes for a month, from what the planes recorded: bytes its pull zones served
 * (usage counters, by edge region where the edge said which), the days their optimizer worked,
 * what its storage zones kept (each day's closing figures) and what was downloaded from them, and
 * the DNS queries its zones answered. Prices come from reference-data/. Pure arithmetic over those
 * reads: nothing is written.
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { StorageZoneT } from '../../schemas/storage-zone.js';
import type { Store } from '../../store/types.js';
import type { FileService } from '../files/service.js';
import { BYTES_PER_GB, PRICES } from '../reference-data/prices.js';
import { DEFAULT_PRICE_GROUP, PRICE_GROUPS, type PriceGroup, priceGroupOf, REGIONS, TRAFFIC_PRICE_PER_GB } from '../reference-data/regions.js';
import { EGRESS_METRICS } from '../storage-zones/statistics.js';
import { BANDWIDTH, OPTIMIZER_REQUESTS, pullZoneSubject, regionalBandwidth } from '../usage/pull-zone-metrics.js';
import type { UsageRecorder } from '../usage/recorder.js';
import { daysIn, monthStart, nextMonth } from './months.js';
import { DAY_MS, HOUR_MS } from '../durations.js';

export interface ChargeLine {
  description: string;
  quantity: number;
  /** What `quantity` counts: `GB`, `GB-month`, `million queries`. */
  unit: string;
  amount: number;
}

/** A month's charges; stored as is (JSON) in the month's statement once the month is over. */
export interface MonthCharges {
  month: string;
  /** Up to when usage was counted (the month's end, or now for the running month). */
  countedUntil: string;
  /** Traffic charges by price group: pull zones and storage downloads. */
  traffic: Record<PriceGroup, number>;
  bandwidthBytes: number;
  storage: number;
  dns: number;
  /** The pull zones' optimizer (absent from statements closed before it was charged). */
  optimizer?: number;
  dnsNormalQueries: number;
  dnsSmartQueries: number;
  /** The pull zones that served anything, oldest first. */
  pullZones: { id: number; bytes: number; amount: number }[];
  lines: ChargeLine[];
  total: number;
}

/** Money is kept to a millionth of a dollar: cents would round small test charges away. */
export const money = (amount: number) => Math.round(amount * 1e6) / 1e6;

const percentOff = (discount: number) => 1 - Math.min(100, Math.max(0, discount)) / 100;

/** What the DNS plane counts per zone (see dns/statistics.ts). */
const DNS_NORMAL = 'queries.normal';
const DNS_SMART = 'queries.smart';
const REGIONAL_METRICS = REGIONS.map((r) => regionalBandwidth(r.code));

/** Which of the zone's discounts applies to traffic of a group (spec 2.4: per region group, in percent). */
const DISCOUNT_FIELD: Record<PriceGroup, 'EUUSDiscount' | 'AsiaOceaniaDiscount' | 'SouthAmericaDiscount' | 'AfricaDiscount'> = {
  EU: 'EUUSDiscount',
  US: 'EUUSDiscount',
  ASIA: 'AsiaOceaniaDiscount',
  SA: 'SouthAmericaDiscount',
  AF: 'AfricaDiscount',
};
const discountOf = (zone: PullZoneT, group: PriceGroup): number => zone[DISCOUNT_FIELD[group]];

export class ChargeCalculator {
  constructor(
    private readonly store: Store,
    private readonly usage: UsageRecorder,
    private readonly files: FileService,
  ) {}

  /** The account's charges for `month`, counting usage up to `until` (or the month's end, if earlier). */
  async month(accountId: number, month: string, until: Date): Promise<MonthCharges> {
    const from = monthStart(month);
    const end = new Date(monthStart(nextMonth(month)).getTime() - 1);
    const to = until < end ? until : end;
    const charges: MonthCharges = {
      month,
      countedUntil: to.toISOString(),
      traffic: { EU: 0, US: 0, ASIA: 0, SA: 0, AF: 0 },
      bandwidthBytes: 0,
      storage: 0,
      dns: 0,
      optimizer: 0,
      dnsNormalQueries: 0,
      dnsSmartQueries: 0,
      pullZones: [],
      lines: [],
      total: 0,
    };
    if (to < from) return charges;
    await this.pullZones(accountId, from, to, charges);
    await this.optimizer(accountId, month, from, to, charges);
    await this.storageZones(accountId, month, from, to, charges);
    await this.dnsZones(accountId, from, to, charges);
    for (const group of PRICE_GROUPS) charges.traffic[group] = money(charges.traffic[group]);
    charges.storage = money(charges.storage);
    charges.dns = money(charges.dns);
    charges.optimizer = money(charges.optimizer ?? 0);
    charges.total = money(PRICE_GROUPS.reduce((sum, g) => sum + charges.traffic[g], 0) + charges.storage + charges.dns + charges.optimizer);
    return charges;
  }

  /**
   * The account's zones of a kind that counted any of `metrics` in the period, oldest first, with
   * their sums: one read for the usage, then only those zones' documents, so an account's bill
   * costs what its used zones do, not what it holds. `alsoIds`: zones used otherwise (storage zones
   * that held files), included without counted usage.
   */
  private async used<Z>(
    kind: 'pullZone' | 'storageZone' | 'dnsZone',
    accountId: number,
    metrics: string[],
    from: Date,
    to: Date,
    alsoIds: Iterable<string> = [],
  ) {
    const sums = new Map<string, Map<string, number>>();
    for (const id of alsoIds) sums.set(id, new Map());
    for (const t of await this.usage.accountTotals(kind, accountId, metrics, from, to)) {
      let byMetric = sums.get(t.id);
      if (!byMetric) sums.set(t.id, (byMetric = new Map()));
      byMetric.set(t.metric, (byMetric.get(t.metric) ?? 0) + t.value);
    }
    const out: { zone: Z; sums: Map<string, number> }[] = [];
    for (const id of [...sums.keys()].sort((a, b) => Number(a) - Number(b))) {
      const stored = await this.store.docs.get<Z>(kind, accountId, id);
      if (stored) out.push({ zone: stored.doc, sums: sums.get(id)! });
    }
    return out;
  }

  /**
   * Bytes a pull zone served, by price group: bytes the edge attributed to a region are priced
   * there; the rest (recorded without a region, as the operator's usage route does) at the
   * default group's price.
   */
  private async pullZones(accountId: number, from: Date, to: Date, charges: MonthCharges): Promise<void> {
    for (const { zone, sums } of await this.used<PullZoneT>('pullZone', accountId, [BANDWIDTH, ...REGIONAL_METRICS], from, to)) {
      const total = sums.get(BANDWIDTH) ?? 0;
      const byGroup: Record<PriceGroup, number> = { EU: 0, US: 0, ASIA: 0, SA: 0, AF: 0 };
      let attributed = 0;
      for (const [metric, value] of sums) {
        if (metric === BANDWIDTH) continue;
        byGroup[priceGroupOf(metric.slice(BANDWIDTH.length + 1))] += value;
        attributed += value;
      }
      byGroup[DEFAULT_PRICE_GROUP] += Math.max(0, total - attributed);
      const bytes = Math.max(total, attributed);
      if (bytes === 0) continue;
      let amount = 0;
      for (const group of PRICE_GROUPS) {
        const groupBytes = byGroup[group];
        if (groupBytes === 0) continue;
        const base =
          zone.PriceOverride > 0
            ? groupBytes * zone.PriceOverride
            : (groupBytes / BYTES_PER_GB) * (zone.Type === 1 ? PRICES.volumeTrafficPerGb : TRAFFIC_PRICE_PER_GB[group]);
        const charge = base * percentOff(discountOf(zone, group));
        charges.traffic[group] += charge;
        amount += charge;
      }
      charges.bandwidthBytes += bytes;
      charges.pullZones.push({ id: zone.Id, bytes, amount: money(amount) });
      charges.lines.push({
        description: `Pull zone ${zone.Name ?? ''} (${zone.Id}): traffic`,
        quantity: bytes / BYTES_PER_GB,
        unit: 'GB',
        amount: money(amount),
      });
    }
  }

  /**
   * The optimizer is priced per pull zone and month (the zone's `OptimizerPricing` when above 0,
   * else the list price), charged for what it did: pro rata of the month's days from the first to
   * the last on which the zone's optimizer made a variant (both counted; its variants are served
   * from the cache in between). A zone whose optimizer made nothing in the month pays nothing.
   */
  private async optimizer(accountId: number, month: string, from: Date, to: Date, charges: MonthCharges): Promise<void> {
    for (const { zone } of await this.used<PullZoneT>('pullZone', accountId, [OPTIMIZER_REQUESTS], from, to)) {
      const hours = (await this.usage.series(pullZoneSubject(zone.Id), [OPTIMIZER_REQUESTS], from, to)).filter((e) => e.value > 0).map((e) => e.hour);
      if (hours.length === 0) continue;
      const dayOf = (hour: number) => Math.floor((hour * HOUR_MS) / DAY_MS);
      const days = dayOf(Math.max(...hours)) - dayOf(Math.min(...hours)) + 1;
      const price = zone.OptimizerPricing > 0 ? zone.OptimizerPricing : PRICES.optimizerPerMonth;
      const amount = (price * days) / daysIn(month);
      charges.optimizer = (charges.optimizer ?? 0) + amount;
      charges.lines.push({
        description: `Pull zone ${zone.Name ?? ''} (${zone.Id}): optimizer, ${days} of ${daysIn(month)} days`,
        quantity: days / daysIn(month),
        unit: 'month',
        amount: money(amount),
      });
    }
  }

  /**
   * Storage is charged by GB-month: each day's closing bytes, summed, over the days of the month,
   * times the regions holding a copy. Deleted zones count for the days they held files.
   */
  private async storageZones(accountId: number, month: string, from: Date, to: Date, charges: MonthCharges): Promise<void> {
    const daily = await this.files.accountDailyUsage(accountId, from, to);
    const stored = [...daily].filter(([, days]) => days.some((d) => d.bytes > 0)).map(([id]) => id);
    for (const { zone, sums } of await this.used<StorageZoneT>('storageZone', accountId, Object.values(EGRESS_METRICS), from, to, stored)) {
      const days = daily.get(String(zone.Id)) ?? [];
      const gbMonths = days.reduce((sum, d) => sum + d.bytes, 0) / BYTES_PER_GB / daysIn(month);
      const copies = 1 + (zone.ReplicationRegions?.length ?? 0);
      const perGbMonth =
        zone.PriceOverride > 0 ? zone.PriceOverride / 1000 : zone.ZoneTier === 1 ? PRICES.storagePerGbMonth.ssd : PRICES.storagePerGbMonth.standard;
      const storedCharge = gbMonths * copies * perGbMonth * percentOff(zone.Discount);
      if (storedCharge > 0) {
        charges.storage += storedCharge;
        charges.lines.push({
          description: `Storage zone ${zone.Name ?? ''} (${zone.Id}): storage in ${copies} region${copies === 1 ? '' : 's'}`,
          quantity: gbMonths * copies,
          unit: 'GB-month',
          amount: money(storedCharge),
        });
      }
      const bytes = [...sums.values()].reduce((sum, value) => sum + value, 0);
      if (bytes > 0) {
        const group = priceGroupOf(zone.Region ?? '');
        const charge = (bytes / BYTES_PER_GB) * TRAFFIC_PRICE_PER_GB[group];
        charges.traffic[group] += charge;
        charges.bandwidthBytes += bytes;
        charges.lines.push({
          description: `Storage zone ${zone.Name ?? ''} (${zone.Id}): downloads`,
          quantity: bytes / BYTES_PER_GB,
          unit: 'GB',
          amount: money(charge),
        });
      }
    }
  }

  private async dnsZones(accountId: number, from: Date, to: Date, charges: MonthCharges): Promise<void> {
    for (const { zone, sums } of await this.used<{ Id: number; Domain: string | null }>('dnsZone', accountId, [DNS_NORMAL, DNS_SMART], from, to)) {
      const normal = sums.get(DNS_NORMAL) ?? 0;
      const smart = sums.get(DNS_SMART) ?? 0;
      if (normal + smart === 0) continue;
      const amount = (normal / 1e6) * PRICES.dnsQueriesPerMillion.normal + (smart / 1e6) * PRICES.dnsQueriesPerMillion.smart;
      charges.dns += amount;
      charges.dnsNormalQueries += normal;
      charges.dnsSmartQueries += smart;
      charges.lines.push({
        description: `DNS zone ${zone.Domain ?? ''} (${zone.Id}): queries`,
        quantity: (normal + smart) / 1e6,
        unit: 'million queries',
        amount: money(amount),
      });
    }
  }
}
