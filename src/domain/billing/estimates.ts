/**
 * Price estimates (`GET /v1/pricing/{source}/{resourceId}`): the price a resource of the account
 * pays for one billing source — the list price (reference-data/), or the price set on the resource
 * itself — and, given a number of units, what they would cost after the resource's discounts.
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { PriceEstimationT } from '../../schemas/reference-data.js';
import type { StorageZoneT } from '../../schemas/storage-zone.js';
import type { VideoLibraryT } from '../../schemas/video-library.js';
import type { ResourceKind, Store } from '../../store/types.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import { BYTES_PER_GB } from '../reference-data/prices.js';
import { listPrice, type Priced, type PricingSource, pricingSource } from '../reference-data/pricing-sources.js';
import type { PriceGroup } from '../reference-data/regions.js';
import { money } from './charges.js';

const LIST_PRICE = 0;
const RESOURCE_PRICE = 2;

/** What a resource says about its price: a price of its own, and a discount in percent. */
interface Terms {
  override?: number;
  discount: number;
}

const LABELS: Record<string, string> = { pullZone: 'pull zone', storageZone: 'storage zone', videoLibrary: 'video library' };

function trafficDiscount(zone: PullZoneT, group: PriceGroup | null): number {
  if (group === 'ASIA') return zone.AsiaOceaniaDiscount;
  if (group === 'SA') return zone.SouthAmericaDiscount;
  if (group === 'AF') return zone.AfricaDiscount;
  return zone.EUUSDiscount;
}

export class PriceEstimator {
  constructor(private readonly store: Store) {}

  async estimate(principal: Principal, sourceCode: number, resourceId: number, units: number | undefined): Promise<PriceEstimationT> {
    const source = pricingSource(sourceCode);
    if (!source?.resource || !source.priced) {
      throw errors.validation('source', `${source?.description ?? 'This source'} is not priced: edgeplane does not sell it.`, 'pricing.source_not_priced');
    }
    const terms = await this.terms(principal.accountId, source, source.priced, resourceId);
    const perUnit = terms.override ?? listPrice(source.priced);
    const estimate: PriceEstimationT = {
      PricingType: terms.override === undefined ? LIST_PRICE : RESOURCE_PRICE,
      PricePerUnit: perUnit,
      UnitDescription: source.unit,
      EstimatedCost: null,
      Breakdown: null,
    };
    if (units === undefined) return estimate;
    const base = money(units * perUnit);
    const lines = [{ Description: source.description, Units: units, PricePerUnit: perUnit, Cost: base }];
    const discount = Math.min(100, Math.max(0, terms.discount));
    if (discount > 0) {
      lines.push({
        Description: `Discount (${discount}%)`,
        Units: units,
        PricePerUnit: money((-perUnit * discount) / 100),
        Cost: money((-base * discount) / 100),
      });
    }
    return { ...estimate, EstimatedCost: money(lines.reduce((sum, l) => sum + l.Cost, 0)), Breakdown: lines };
  }

  /** The resource's own price and discount for what the source prices; 404 when the account has no such resource. */
  private async terms(accountId: number, source: PricingSource, priced: Priced, id: number): Promise<Terms> {
    const find = async <T>(kind: ResourceKind, resourceId: number): Promise<T> => {
      const found = await this.store.docs.get<T>(kind, accountId, String(resourceId));
      if (!found || (found.doc as { Deleted?: boolean }).Deleted) throw errors.notFound(LABELS[source.resource!]!);
      return found.doc;
    };
    switch (source.resource) {
      case 'pullZone':
        return this.pullZoneTerms(await find<PullZoneT>('pullZone', id), priced);
      case 'storageZone':
        return this.storageZoneTerms(await find<StorageZoneT>('storageZone', id), priced);
      default: {
        const library = await find<VideoLibraryT>('videoLibrary', id);
        switch (priced.kind) {
          case 'traffic':
          case 'volumeTraffic': {
            const zone = await this.store.docs.get<PullZoneT>('pullZone', accountId, String(library.PullZoneId));
            return zone ? this.pullZoneTerms(zone.doc, priced) : { discount: 0 };
          }
          case 'storage': {
            const zone = await this.store.docs.get<StorageZoneT>('storageZone', accountId, String(library.StorageZoneId));
            return zone ? this.storageZoneTerms(zone.doc, priced) : { discount: 0 };
          }
          case 'transcribing':
            return withOverride(library.TranscribingPriceOverride);
          case 'premiumEncoding':
            return withOverride(library.PremiumEncodingPriceOverride);
          case 'drmBase':
            return withOverride(library.DrmBasePriceOverride);
          case 'drmLicense':
            return withOverride(library.DrmCostPerLicenseOverride);
        }
      }
    }
  }

  /** A pull zone's `PriceOverride` is per byte (spec 2.4); estimates count GB. */
  private pullZoneTerms(zone: PullZoneT, priced: Priced): Terms {
    const discount = priced.kind === 'traffic' ? trafficDiscount(zone, priced.group) : 0;
    return zone.PriceOverride > 0 ? { override: zone.PriceOverride * BYTES_PER_GB, discount } : { discount };
  }

  /** A storage zone's `PriceOverride` is per TB-month (spec 2.6) and applies to storage, not downloads. */
  private storageZoneTerms(zone: StorageZoneT, priced: Priced): Terms {
    if (priced.kind !== 'storage') return { discount: 0 };
    return zone.PriceOverride > 0 ? { override: zone.PriceOverride / 1000, discount: zone.Discount } : { discount: zone.Discount };
  }
}

const withOverride = (price: number | null | undefined): Terms => (price != null && price > 0 ? { override: price, discount: 0 } : { discount: 0 });
