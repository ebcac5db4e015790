/**
 * Brings what the edge served into the pull zones themselves: `MonthlyBandwidthUsed` is the month's
 * bytes as the usage counters hold them, and a zone over its `MonthlyBandwidthLimit`, or of an
 * account with no funds left (billing: the balance less what it owes), stops serving through the
 * state transition of pull-zones/state.ts — and starts again once that is no longer true.
 *
 * Zones are settled every few seconds, only those the edge touched since (a refused request for a
 * stopped zone touches it too, so a new month or new funds bring it back on its next request), and
 * every zone when a month begins. Between two settlements a zone may serve a few seconds past its
 * limit: the price of never making a request wait for the store.
 */
import type { PullZoneT } from '../../../schemas/pull-zone.js';
import type { Store } from '../../../store/types.js';
import type { BillingService } from '../../billing/service.js';
import { monthOf, monthStart } from '../../billing/months.js';
import type { DocumentRepo } from '../../documents.js';
import type { Clock } from '../../principal.js';
import { shouldBeEnabled } from '../../pull-zones/state.js';
import { BANDWIDTH, pullZoneSubject } from '../../usage/pull-zone-metrics.js';
import type { UsageRecorder } from '../../usage/recorder.js';

export const SETTLE_MS = 5000;
const SCAN_PAGE = 500;

export class BandwidthLimits {
  /** Zone id → account id, touched since the last settlement. */
  private touchedZones = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private settling: Promise<void> = Promise.resolve();
  private month: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly zones: DocumentRepo<PullZoneT>,
    private readonly usage: UsageRecorder,
    private readonly billing: BillingService,
    private readonly clock: Clock,
    private readonly logError: (error: unknown) => void = () => {},
  ) {}

  touched(zoneId: number, accountId: number): void {
    this.touchedZones.set(zoneId, accountId);
  }

  start(): void {
    this.month ??= monthOf(this.clock());
    this.timer ??= setInterval(() => void this.settle().catch(this.logError), SETTLE_MS);
    this.timer.unref();
  }

  /** Settles the zones touched since the last time (and every zone when a new month has begun). */
  settle(): Promise<void> {
    const run = this.settling.then(async () => {
      const now = this.clock();
      const month = monthOf(now);
      if (this.month !== undefined && this.month !== month) await this.scanAll();
      this.month = month;
      const batch = this.touchedZones;
      this.touchedZones = new Map();
      const funds = new Map<number, number>();
      for (const [zoneId, accountId] of batch) {
        try {
          await this.settleZone(zoneId, accountId, funds);
        } catch (error) {
          // A write that lost a race with an API change: next time.
          this.touched(zoneId, accountId);
          this.logError(error);
        }
      }
    });
    this.settling = run.catch(() => {});
    return run;
  }

  private async scanAll(): Promise<void> {
    for (let offset = 0; ; offset += SCAN_PAGE) {
      const page = await this.zones.scan(this.store, offset, SCAN_PAGE);
      for (const { id, accountId, doc } of page) if (doc.MonthlyBandwidthUsed > 0 || !doc.Enabled) this.touched(Number(id), accountId);
      if (page.length < SCAN_PAGE) return;
    }
  }

  private async settleZone(zoneId: number, accountId: number, funds: Map<number, number>): Promise<void> {
    const now = this.clock();
    const entries = await this.usage.series(pullZoneSubject(zoneId), [BANDWIDTH], monthStart(monthOf(now)), now);
    const used = entries.reduce((sum, e) => sum + e.value, 0);
    let available = funds.get(accountId);
    if (available === undefined) {
      available = await this.billing.availableFunds(accountId);
      funds.set(accountId, available);
    }
    const left = available;
    await this.store.transaction(async (tx) => {
      const stored = await this.zones.find(tx, accountId, zoneId);
      if (!stored) return;
      const next = { ...stored.doc, MonthlyBandwidthUsed: used };
      next.Enabled = shouldBeEnabled(next, left);
      if (next.MonthlyBandwidthUsed === stored.doc.MonthlyBandwidthUsed && next.Enabled === stored.doc.Enabled) return;
      await this.zones.update(tx, accountId, stored, next);
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.settle().catch(() => {});
  }
}
