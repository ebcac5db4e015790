/** The platform's reference data: edge regions, countries, storage regions, and price estimates. */
import { Type, type Static } from 'typebox';
import { Decimal, Double, Int64, IntEnum, Nullable } from './common.js';

export const Region = Type.Object(
  {
    Id: Int64({ description: 'Identifier of the region.' }),
    Name: Nullable(Type.String(), { description: 'City the region serves from.' }),
    PricePerGigabyte: Decimal({ description: 'US dollars per GB (10^9 bytes) served from the region on the standard network.' }),
    RegionCode: Nullable(Type.String(), { description: 'Short code of the region (`DE`, `NY`, `SYD`).' }),
    ContinentCode: Nullable(Type.String(), { description: 'Continent: EU, NA, AS, OC, SA or AF.' }),
    CountryCode: Nullable(Type.String(), { description: 'ISO 3166-1 alpha-2 code of the country it is in.' }),
    Latitude: Double({ description: 'Latitude of the region, in degrees.' }),
    Longitude: Double({ description: 'Longitude of the region, in degrees.' }),
    AllowLatencyRouting: Type.Boolean({ description: 'Whether DNS latency routing can send clients here.' }),
  },
  { additionalProperties: false },
);
export type RegionT = Static<typeof Region>;

export const Country = Type.Object(
  {
    Name: Nullable(Type.String(), { description: 'English name of the country.' }),
    IsoCode: Nullable(Type.String(), { description: 'ISO 3166-1 alpha-2 code.' }),
    IsEU: Type.Boolean({ description: 'True for a member state of the European Union.' }),
    TaxRate: Decimal({ description: 'VAT charged to consumers there, in percent (the standard rate in EU member states, 0 elsewhere).' }),
    TaxPrefix: Nullable(Type.String(), { description: 'How VAT numbers of the country begin; null outside the EU.' }),
    FlagUrl: Nullable(Type.String(), { description: 'edgeplane serves no flag images: null.' }),
    PopList: Nullable(Type.Array(Type.String()), { description: 'Codes of the edge regions in the country.' }),
  },
  { additionalProperties: false },
);
export type CountryT = Static<typeof Country>;

export const StorageRegion = Type.Object(
  {
    Id: Nullable(Type.String(), { description: 'Region code, as storage zones name it in `Region` and `ReplicationRegions`.' }),
    Name: Nullable(Type.String(), { description: 'City of the region.' }),
    Url: Nullable(Type.String(), { description: "The file API's address for zones of the region (its host is the zones' `StorageHostname`)." }),
  },
  { additionalProperties: false },
);
export type StorageRegionT = Static<typeof StorageRegion>;

export const PricingParams = (codes: readonly number[]) =>
  Type.Object({
    source: IntEnum(codes, { description: 'What to price: a billing source code (see the README).' }),
    resourceId: Int64({ minimum: 1, description: 'The pull zone, storage zone or video library the source applies to.' }),
  });

export const PricingQuery = Type.Object({
  units: Type.Optional(Int64({ minimum: 0, description: 'Units to estimate the cost of (GB, GB-months, minutes…, as `UnitDescription` says).' })),
});

const BreakdownLine = Type.Object(
  {
    Description: Nullable(Type.String(), { description: 'What the line is.' }),
    Units: Int64({ description: 'Units it counts.' }),
    PricePerUnit: Decimal({ description: 'US dollars per unit (negative for a discount).' }),
    Cost: Decimal({ description: 'US dollars.' }),
  },
  { additionalProperties: false },
);

export const PriceEstimation = Type.Object(
  {
    PricingType: IntEnum([0, 1, 2] as const, {
      description: '0: the list price; 2: a price set on the resource (`PriceOverride` and the like). Account-wide prices (1) do not exist in edgeplane.',
    }),
    PricePerUnit: Decimal({ description: 'US dollars per unit, before discounts.' }),
    UnitDescription: Nullable(Type.String(), { description: 'What a unit is.' }),
    EstimatedCost: Nullable(Decimal(), { description: 'The cost of `units`, discounts included; null when no `units` were given.' }),
    Breakdown: Nullable(Type.Array(BreakdownLine), { description: 'How the estimate adds up; null without `units`.' }),
  },
  { additionalProperties: false },
);
export type PriceEstimationT = Static<typeof PriceEstimation>;
