/**
 * The billing sources of `GET /v1/pricing/{source}/{resourceId}` (the platform's
 * PricingEstimationSource codes): what each prices, which kind of resource it applies to, and
 * where its list price is. Sources for what edgeplane does not sell are listed too, unpriced, so
 * the answer can say so.
 */
import { PRICES } from './prices.js';
import { type PriceGroup, TRAFFIC_PRICE_PER_GB } from './regions.js';

export type PricedResource = 'pullZone' | 'videoLibrary' | 'storageZone';

/** What is priced: traffic of a group, the volume network, storage of a tier, or a video feature. */
export type Priced =
  | { kind: 'traffic'; group: PriceGroup | null }
  | { kind: 'volumeTraffic' }
  | { kind: 'storage'; tier: 'standard' | 'ssd' }
  | { kind: 'transcribing' | 'premiumEncoding' | 'drmBase' | 'drmLicense' };

export interface PricingSource {
  code: number;
  description: string;
  /** Null: edgeplane does not sell it. */
  resource: PricedResource | null;
  priced?: Priced;
  unit: string;
}

const traffic = (code: number, resource: PricedResource, what: string, group: PriceGroup | null, where: string): PricingSource => ({
  code,
  description: `${what} traffic, ${where}`,
  resource,
  priced: { kind: 'traffic', group },
  unit: 'GB',
});
const unsold = (code: number, description: string): PricingSource => ({ code, description, resource: null, unit: '' });

const GROUPS: [offset: number, group: PriceGroup | null, where: string][] = [
  [1, 'EU', 'Europe'],
  [2, 'US', 'North America'],
  [3, 'ASIA', 'Asia and Oceania'],
  [4, 'AF', 'Africa'],
  [5, 'SA', 'South America'],
  [6, null, 'uncategorized'],
];

export const PRICING_SOURCES: readonly PricingSource[] = [
  ...GROUPS.map(([i, group, where]) => traffic(1100 + i, 'pullZone', 'CDN', group, where)),
  ...GROUPS.map(([i, group, where]) => traffic(1200 + i, 'videoLibrary', 'Video delivery', group, where)),
  { code: 1300, description: 'CDN traffic, volume network', resource: 'pullZone', priced: { kind: 'volumeTraffic' }, unit: 'GB' },
  { code: 1400, description: 'Video delivery traffic, volume network', resource: 'videoLibrary', priced: { kind: 'volumeTraffic' }, unit: 'GB' },
  ...GROUPS.map(([i, group, where]) => traffic(1500 + i, 'storageZone', 'Storage download', group, where)),
  { code: 1510, description: 'Storage download traffic, volume network', resource: 'storageZone', priced: { kind: 'volumeTraffic' }, unit: 'GB' },
  unsold(1630, 'WebSocket connections'),
  ...[1701, 1702, 1703, 1704, 1705, 1706, 1710].map((code) => unsold(code, 'Container application traffic')),
  ...[1801, 1802, 1803, 1804, 1805, 1806, 1810].map((code) => unsold(code, 'Edge script traffic')),
  { code: 2100, description: 'Storage, standard tier', resource: 'storageZone', priced: { kind: 'storage', tier: 'standard' }, unit: 'GB-month per region' },
  { code: 2200, description: 'Storage, SSD tier', resource: 'storageZone', priced: { kind: 'storage', tier: 'ssd' }, unit: 'GB-month per region' },
  {
    code: 2300,
    description: 'Video storage, standard tier',
    resource: 'videoLibrary',
    priced: { kind: 'storage', tier: 'standard' },
    unit: 'GB-month per region',
  },
  { code: 2400, description: 'Video storage, SSD tier', resource: 'videoLibrary', priced: { kind: 'storage', tier: 'ssd' }, unit: 'GB-month per region' },
  { code: 4100, description: 'Transcription', resource: 'videoLibrary', priced: { kind: 'transcribing' }, unit: 'minute' },
  { code: 4200, description: 'Premium encoding', resource: 'videoLibrary', priced: { kind: 'premiumEncoding' }, unit: 'minute' },
  { code: 4300, description: 'DRM, monthly base', resource: 'videoLibrary', priced: { kind: 'drmBase' }, unit: 'month' },
  { code: 4400, description: 'DRM licenses issued', resource: 'videoLibrary', priced: { kind: 'drmLicense' }, unit: 'license' },
  ...[4501, 4502, 4503].map((code) => unsold(code, 'Live encoding')),
  unsold(5200, 'Edge script requests'),
  unsold(5300, 'Edge script CPU time'),
];

export const PRICING_SOURCE_CODES = PRICING_SOURCES.map((s) => s.code);

const BY_CODE = new Map(PRICING_SOURCES.map((s) => [s.code, s]));
export const pricingSource = (code: number) => BY_CODE.get(code);

/** The list price of what a source prices, per its unit. */
export function listPrice(priced: Priced): number {
  switch (priced.kind) {
    case 'traffic':
      return TRAFFIC_PRICE_PER_GB[priced.group ?? 'EU'];
    case 'volumeTraffic':
      return PRICES.volumeTrafficPerGb;
    case 'storage':
      return PRICES.storagePerGbMonth[priced.tier];
    case 'transcribing':
      return PRICES.transcribingPerMinute;
    case 'premiumEncoding':
      return PRICES.premiumEncodingPerMinute;
    case 'drmBase':
      return PRICES.drmBasePerMonth;
    case 'drmLicense':
      return PRICES.drmPerLicense;
  }
}
