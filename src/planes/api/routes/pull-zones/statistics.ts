import {
  CdnStatistics,
  CdnStatisticsQuery,
  OptimizerStatistics,
  OriginShieldQueueStatistics,
  PullZoneStatisticsParams,
  PullZoneStatisticsQuery,
  SafeHopStatistics,
} from '../../../../schemas/cdn-statistics.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

const tags = ['Pull zones'];

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

  app.get('/pullzone/:pullZoneId/optimizer/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getOptimizerStatistics',
      summary: "The image optimizer's statistics of a pull zone (edgeplane has no optimizer: zeros)",
      tags,
      params: PullZoneStatisticsParams,
      querystring: PullZoneStatisticsQuery,
      response: { 200: OptimizerStatistics, ...errorResponses },
    },
    handler: (req) => app.services.cdnStatistics.optimizer(req.principal, req.params.pullZoneId, req.query),
  });

  app.get('/pullzone/:pullZoneId/originshield/queuestatistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getOriginShieldQueueStatistics',
      summary: "The origin shield queue's statistics of a pull zone (edgeplane has no origin shield: zeros)",
      tags,
      params: PullZoneStatisticsParams,
      querystring: PullZoneStatisticsQuery,
      response: { 200: OriginShieldQueueStatistics, ...errorResponses },
    },
    handler: (req) => app.services.cdnStatistics.originShieldQueue(req.principal, req.params.pullZoneId, req.query),
  });

  app.get('/pullzone/:pullZoneId/safehop/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getSafeHopStatistics',
      summary: 'The origin retries the edge made for a pull zone, and the requests they saved',
      tags,
      params: PullZoneStatisticsParams,
      querystring: PullZoneStatisticsQuery,
      response: { 200: SafeHopStatistics, ...errorResponses },
    },
    handler: (req) => app.services.cdnStatistics.safeHop(req.principal, req.params.pullZoneId, req.query),
  });
}
