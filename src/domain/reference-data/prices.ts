/**
 * Every price that is not a region's traffic price (those are in regions.ts), in US dollars. One
 * table, read by billing, by the price estimates of `GET /v1/pricing/…` and by the README. GB is
 * 10^9 bytes; a month is a calendar month (UTC).
 */

export const CURRENCY = 'USD';

export const PRICES = {
  /** The volume network (pull zone `Type` 1): one price wherever the bytes are served. */
  volumeTrafficPerGb: 0.005,
  /** Storage per GB-month and per region the zone keeps a copy in (its main region and each replica), by `ZoneTier`. */
  storagePerGbMonth: { standard: 0.01, ssd: 0.08 },
  /** DNS queries answered, per million. */
  dnsQueriesPerMillion: { normal: 0.1, smart: 0.5 },
  /** Image optimizer, per pull zone and month (a list price: edgeplane bills usage only, see README). */
  optimizerPerMonth: 9.5,
  /** Video libraries: list prices, overridable per library (`…PriceOverride`). */
  transcribingPerMinute: 0.1,
  premiumEncodingPerMinute: 0.02,
  drmBasePerMonth: 99,
  drmPerLicense: 0.001,
  /** Referral programme terms, shown by `GET /billing/affiliate`. */
  affiliateClaimBonusPercent: 10,
  affiliateMinimumPayout: 100,
  /** Days a payment request may wait before it is due. */
  paymentTermDays: 14,
} as const;

export const BYTES_PER_GB = 1e9;
