import type { Static, TSchema } from 'typebox';
import type { Principal } from '../../../../domain/principal.js';
import {
  CdnStatistics,
  CdnStatisticsQuery,
  DdosStatistics,
  OptimizerStatistics,
  OriginShieldQueueStatistics,
  PullZoneStatisticsParams,
  PullZoneStatisticsQuery,
  type PullZoneStatisticsQueryT,
  SafeHopStatistics,
} from '../../../../schemas/cdn-statistics.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

const tags = ['Pull zones'];

/** The per-zone statistics all take the zone's id and a period, and differ only in what they answer. */
function zoneStatistics<S extends TSchema>(
  app: Api,
  path: string,
  operationId: string,
  summary: string,
  answer: S,
  operation: (principal: Principal, pullZoneId: number, query: PullZoneStatisticsQueryT) => Promise<Static<S>>,
) {
  app.get(`/pullzone/:pullZoneId/${path}`, {
    config: { access: 'read' },
    schema: {
      operationId,
      summary,
      tags,
      params: PullZoneStatisticsParams,
      querystring: PullZoneStatisticsQuery,
      response: { 200: answer, ...errorResponses },
    },
    handler: (req) => operation(req.principal, req.params.pullZoneId, req.query),
  });
}

export default function pullZoneStatistics(app: Api) {
  app.get('/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getStatistics',
      summary: 'What the edge served: requests, bandwidth, cache hit rate, origin traffic, answers by class, over time',
      description:
        "Counted by the edge as it answers each request for the account's pull zones (or the one in `pullZone`), one " +
        'point per day, or per hour with `hourly`. The default period is the 30 days up to now, in whole days.',
      tags,
      querystring: CdnStatisticsQuery,
      response: { 200: CdnStatistics, ...errorResponses },
    },
    handler: (req) => app.services.cdnStatistics.overall(req.principal, req.query),
  });

  zoneStatistics(
    app,
    'optimizer/statistics',
    'getOptimizerStatistics',
    "What a pull zone's optimizer made: variants, bytes saved, time taken",
    OptimizerStatistics,
    (...args) => app.services.cdnStatistics.optimizer(...args),
  );
  zoneStatistics(
    app,
    'originshield/queuestatistics',
    'getOriginShieldQueueStatistics',
    "The origin shield queue's statistics of a pull zone: the requests its concurrency limit let through, and those it queued",
    OriginShieldQueueStatistics,
    (...args) => app.services.cdnStatistics.originShieldQueue(...args),
  );
  zoneStatistics(
    app,
    'safehop/statistics',
    'getSafeHopStatistics',
    'The origin retries the edge made for a pull zone, and the requests they saved',
    SafeHopStatistics,
    (...args) => app.services.cdnStatistics.safeHop(...args),
  );
  zoneStatistics(
    app,
    'ddos/statistics',
    'getDdosStatistics',
    "What a pull zone's DDoS protection did: requests above its threshold logged, verified, challenged and refused (an edgeplane extension)",
    DdosStatistics,
    (...args) => app.services.cdnStatistics.ddos(...args),
  );
}
