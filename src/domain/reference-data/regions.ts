/**
 * The edge regions of the platform, with what a gigabyte served from each costs. This table is the
 * one place traffic prices live: `GET /region` shows it, billing charges by it, and the edge prices
 * the bytes it serves with `bandwidthPricePerGb`. Prices are in US dollars per 10^9 bytes, by the
 * group of continents the region belongs to (see README, "Prices and charges").
 */

/** Groups of continents priced alike; the same groups as a pull zone's `EnableGeoZone*` switches and discounts. */
export type PriceGroup = 'EU' | 'US' | 'ASIA' | 'SA' | 'AF';

/** Standard network, per GB served from a region of the group. */
export const TRAFFIC_PRICE_PER_GB: Readonly<Record<PriceGroup, number>> = { EU: 0.01, US: 0.01, ASIA: 0.03, SA: 0.045, AF: 0.06 };

/** What bytes whose region nobody recorded cost: the cheapest group's price, so a charge is never overstated. */
export const DEFAULT_PRICE_GROUP: PriceGroup = 'EU';

export const PRICE_GROUPS: readonly PriceGroup[] = ['EU', 'US', 'ASIA', 'SA', 'AF'];

export interface Region {
  id: number;
  code: string;
  name: string;
  /** EU, NA, AS, OC, SA or AF. */
  continent: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  latitude: number;
  longitude: number;
}

const CONTINENT_GROUP: Record<string, PriceGroup> = { EU: 'EU', NA: 'US', AS: 'ASIA', OC: 'ASIA', SA: 'SA', AF: 'AF' };

type Row = [code: string, name: string, continent: string, country: string, latitude: number, longitude: number];

const ROWS: Row[] = [
  ['DE', 'Frankfurt', 'EU', 'DE', 50.11, 8.68],
  ['UK', 'London', 'EU', 'GB', 51.51, -0.13],
  ['FR', 'Paris', 'EU', 'FR', 48.86, 2.35],
  ['NL', 'Amsterdam', 'EU', 'NL', 52.37, 4.9],
  ['SE', 'Stockholm', 'EU', 'SE', 59.33, 18.07],
  ['ES', 'Madrid', 'EU', 'ES', 40.42, -3.7],
  ['IT', 'Milan', 'EU', 'IT', 45.46, 9.19],
  ['PL', 'Warsaw', 'EU', 'PL', 52.23, 21.01],
  ['CZ', 'Prague', 'EU', 'CZ', 50.08, 14.44],
  ['NY', 'New York', 'NA', 'US', 40.71, -74.01],
  ['LA', 'Los Angeles', 'NA', 'US', 34.05, -118.24],
  ['CHI', 'Chicago', 'NA', 'US', 41.88, -87.63],
  ['DA', 'Dallas', 'NA', 'US', 32.78, -96.8],
  ['MI', 'Miami', 'NA', 'US', 25.76, -80.19],
  ['SEA', 'Seattle', 'NA', 'US', 47.61, -122.33],
  ['TOR', 'Toronto', 'NA', 'CA', 43.65, -79.38],
  ['SG', 'Singapore', 'AS', 'SG', 1.35, 103.82],
  ['HK', 'Hong Kong', 'AS', 'HK', 22.32, 114.17],
  ['TK', 'Tokyo', 'AS', 'JP', 35.68, 139.69],
  ['MUM', 'Mumbai', 'AS', 'IN', 19.08, 72.88],
  ['SYD', 'Sydney', 'OC', 'AU', -33.87, 151.21],
  ['AKL', 'Auckland', 'OC', 'NZ', -36.85, 174.76],
  ['BR', 'Sao Paulo', 'SA', 'BR', -23.55, -46.63],
  ['SCL', 'Santiago', 'SA', 'CL', -33.45, -70.67],
  ['BOG', 'Bogota', 'SA', 'CO', 4.71, -74.07],
  ['JH', 'Johannesburg', 'AF', 'ZA', -26.2, 28.05],
  ['LOS', 'Lagos', 'AF', 'NG', 6.52, 3.38],
  ['NBO', 'Nairobi', 'AF', 'KE', -1.29, 36.82],
];

export const REGIONS: readonly Region[] = ROWS.map(([code, name, continent, country, latitude, longitude], i) => ({
  id: i + 1,
  code,
  name,
  continent,
  country,
  latitude,
  longitude,
}));

const BY_CODE = new Map(REGIONS.map((r) => [r.code, r]));

export const regionByCode = (code: string): Region | undefined => BY_CODE.get(code.toUpperCase());

/** The price group of a region; an unknown code falls in the default group. */
export function priceGroupOf(regionCode: string): PriceGroup {
  const region = regionByCode(regionCode);
  return region ? CONTINENT_GROUP[region.continent]! : DEFAULT_PRICE_GROUP;
}

/** US dollars per GB (10^9 bytes) served from `regionCode` on the standard network, before any discount. */
export function bandwidthPricePerGb(regionCode: string): number {
  return TRAFFIC_PRICE_PER_GB[priceGroupOf(regionCode)];
}
