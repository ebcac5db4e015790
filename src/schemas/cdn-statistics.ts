/** What the edge served, as the platform's CDN statistics operations answer it. */
import { Type, type Static } from 'typebox';
import { Double, Int32, Int64, Nullable } from './common.js';
import { Chart } from './statistics.js';

const DoubleChart = (description: string) => Nullable(Type.Record(Type.String(), Double()), { description });

const period = {
  dateFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Start of the period (default: 30 days before `dateTo`).' })),
  dateTo: Type.Optional(Type.String({ format: 'date-time', description: 'End of the period (default: now).' })),
  hourly: Type.Optional(Type.Boolean({ default: false, description: 'One point per hour instead of per day.' })),
};

export const CdnStatisticsQuery = Type.Object({
  ...period,
  pullZone: Type.Optional(Int64({ default: -1, description: 'Only this pull zone (-1: every pull zone of the account).' })),
  serverZoneId: Type.Optional(
    Int64({ default: -1, description: 'Only this edge region. edgeplane serves from one location, so every value gives the same figures.' }),
  ),
  loadErrors: Type.Optional(Type.Boolean({ default: false, description: 'Fill the 3xx, 4xx and 5xx answer charts.' })),
  exactRange: Type.Optional(Type.Boolean({ default: false, description: 'With `hourly`, keep the hours of `dateFrom` and `dateTo` instead of whole days.' })),
  loadOriginResponseTimes: Type.Optional(Type.Boolean({ default: false, description: 'Fill the origin response time chart.' })),
  loadOriginTraffic: Type.Optional(Type.Boolean({ default: false, description: 'Fill the origin traffic chart.' })),
  loadRequestsServed: Type.Optional(Type.Boolean({ default: false, description: 'Accepted; the requests charts are always filled.' })),
  loadBandwidthUsed: Type.Optional(Type.Boolean({ default: false, description: 'Accepted; the bandwidth charts are always filled.' })),
  loadOriginShieldBandwidth: Type.Optional(Type.Boolean({ default: false, description: 'Fill the origin shield charts.' })),
  loadGeographicTrafficDistribution: Type.Optional(Type.Boolean({ default: false, description: 'Fill the bytes per edge location.' })),
  loadUserBalanceHistory: Type.Optional(Type.Boolean({ default: false, description: "Fill the account's balance at each point." })),
});
export type CdnStatisticsQueryT = Static<typeof CdnStatisticsQuery>;

export const PullZoneStatisticsQuery = Type.Object(period);
export type PullZoneStatisticsQueryT = Static<typeof PullZoneStatisticsQuery>;

export const PullZoneStatisticsParams = Type.Object({ pullZoneId: Int64({ description: 'Id of the pull zone.' }) });

export const CdnStatistics = Type.Object(
  {
    TotalBandwidthUsed: Int64({ description: 'Bytes served to clients over the period.' }),
    TotalOriginTraffic: Int64({ description: 'Bytes received from origins over the period.' }),
    AverageOriginResponseTime: Int32({ description: "Milliseconds until an origin's response headers, on average." }),
    OriginResponseTimeChart: DoubleChart('Average origin response time per point (with `loadOriginResponseTimes`).'),
    TotalRequestsServed: Int64({ description: 'Requests answered over the period.' }),
    CacheHitRate: Double({ description: "Percentage of requests answered from the edge's cache." }),
    BandwidthUsedChart: DoubleChart('Bytes served per point.'),
    BandwidthCachedChart: DoubleChart('Bytes served from the cache per point.'),
    CacheHitRateChart: DoubleChart('Cache hit percentage per point.'),
    RequestsServedChart: DoubleChart('Requests answered per point.'),
    PullRequestsPulledChart: DoubleChart('Requests that went to the origin per point.'),
    OriginShieldBandwidthUsedChart: DoubleChart('Bytes the origin shield sent the other edge instances per point (with `loadOriginShieldBandwidth`).'),
    OriginShieldInternalBandwidthUsedChart: DoubleChart('Origin shield internal bytes per point (with `loadOriginShieldBandwidth`; not charted: 0).'),
    OriginTrafficChart: DoubleChart('Bytes received from origins per point (with `loadOriginTraffic`).'),
    UserBalanceHistoryChart: DoubleChart("The account's balance at each point (with `loadUserBalanceHistory`)."),
    GeoTrafficDistribution: Nullable(Type.Record(Type.String(), Int64()), {
      description: 'Bytes served per edge location (with `loadGeographicTrafficDistribution`): edgeplane has one, `LOCAL`.',
    }),
    Error3xxChart: DoubleChart('3xx answers per point (with `loadErrors`).'),
    Error4xxChart: DoubleChart('4xx answers per point (with `loadErrors`).'),
    Error5xxChart: DoubleChart('5xx answers per point (with `loadErrors`).'),
  },
  { additionalProperties: false, description: 'What the edge served for the pull zones asked for.' },
);
export type CdnStatisticsT = Static<typeof CdnStatistics>;

export const OptimizerStatistics = Type.Object(
  {
    RequestsOptimizedChart: Chart(
      'Variants the optimizer made per point (an image transformed, a stylesheet or script minified; counted once when made, not per hit).',
    ),
    AverageCompressionChart: Chart("Per point, how much smaller the variants made were than their originals, in percent of the originals' bytes."),
    TrafficSavedChart: Chart('Per point, the bytes the variants made were smaller than their originals.'),
    AverageProcessingTimeChart: Chart('Per point, the average time a variant took to make, in milliseconds.'),
    TotalRequestsOptimized: Double({ description: 'Variants the optimizer made in the period.' }),
    TotalTrafficSaved: Double({ description: 'Bytes the variants made in the period were smaller than their originals.' }),
    AverageProcessingTime: Double({ description: 'Average time a variant took to make, in milliseconds.' }),
    AverageCompressionRatio: Double({ description: "How much smaller the period's variants were than their originals, in percent of the originals' bytes." }),
  },
  { additionalProperties: false, description: "What the zone's optimizer did: the variants it made from originals, their bytes and the time they took." },
);
export type OptimizerStatisticsT = Static<typeof OptimizerStatistics>;

export const OriginShieldQueueStatistics = Type.Object(
  {
    ConcurrentRequestsChart: Chart("Origin requests the zone's origin shield concurrency limit let through per point, at once or after waiting."),
    QueuedRequestsChart: Chart(
      "Requests above the zone's origin shield concurrency limit per point: those that waited in its queue (whether they then went or were refused) and those refused at once because the queue was full.",
    ),
  },
  {
    additionalProperties: false,
    description:
      "The origin shield queue of a pull zone over time, counted by the instance that applies the zone's concurrency limit (OriginShieldEnableConcurrencyLimit): 0 without one.",
  },
);
export type OriginShieldQueueStatisticsT = Static<typeof OriginShieldQueueStatistics>;

export const SafeHopStatistics = Type.Object(
  {
    RequestsRetriedChart: Chart("Origin attempts beyond the first per point (the zone's `OriginRetries…` settings)."),
    RequestsSavedChart: Chart('Requests answered by the origin after a failed attempt, per point.'),
    TotalRequestsRetried: Double({ description: 'Origin attempts beyond the first over the period.' }),
    TotalRequestsSaved: Double({ description: 'Requests a retry saved over the period.' }),
  },
  { additionalProperties: false, description: 'The origin retries of a pull zone, as the edge made them.' },
);
export type SafeHopStatisticsT = Static<typeof SafeHopStatistics>;

export const DdosStatistics = Type.Object(
  {
    LoggedRequestsChart: Chart('Requests above the DDoS threshold served and logged (DetectOnly), per point.'),
    VerifiedRequestsChart: Chart('Requests above the threshold served on a solved challenge, per point.'),
    ChallengedRequestsChart: Chart('Requests above the threshold answered with the challenge, per point.'),
    BlockedRequestsChart: Chart('Requests far above the threshold refused 429, per point.'),
    TotalLoggedRequests: Double({ description: 'Requests logged over the period.' }),
    TotalVerifiedRequests: Double({ description: 'Requests verified over the period.' }),
    TotalChallengedRequests: Double({ description: 'Requests challenged over the period.' }),
    TotalBlockedRequests: Double({ description: 'Requests refused over the period.' }),
  },
  { additionalProperties: false, description: "What a pull zone's DDoS protection did with the requests above its threshold (ShieldDDosProtection…)." },
);
export type DdosStatisticsT = Static<typeof DdosStatistics>;
