import { IdParams } from '../../../../schemas/ids.js';
import { EgressRange, StatisticsRange, StorageZoneEgressStatistics, StorageZoneStatistics } from '../../../../schemas/statistics.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

export default function storageZoneStatistics(app: Api) {
  app.get('/storagezone/:id/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getStorageZoneStatistics',
      summary: 'Storage used and files stored by a storage zone, day by day',
      tags: ['Storage zones'],
      params: IdParams('storage zone'),
      querystring: StatisticsRange,
      response: { 200: StorageZoneStatistics, ...errorResponses },
    },
    handler: (req) => app.services.storageZoneStatistics.storage(req.principal, req.params.id, req.query),
  });
  app.get('/storagezone/:id/statistics/egress', {
    config: { access: 'read' },
    schema: {
      operationId: 'getStorageZoneEgressStatistics',
      summary: 'Bytes downloaded from a storage zone, per protocol, day by day or hour by hour',
      tags: ['Storage zones'],
      params: IdParams('storage zone'),
      querystring: EgressRange,
      response: { 200: StorageZoneEgressStatistics, ...errorResponses },
    },
    handler: (req) => app.services.storageZoneStatistics.egress(req.principal, req.params.id, req.query),
  });
}
