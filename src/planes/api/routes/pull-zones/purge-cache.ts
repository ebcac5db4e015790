import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { PurgeCacheBody } from './bodies.js';

export default function purgePullZoneCache(app: Api) {
  app.post('/pullzone/:id/purgeCache', {
    config: { access: 'write' },
    schema: {
      operationId: 'purgePullZoneCache',
      summary: 'Purge the cache of a pull zone; each purge raises CacheVersion by one',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: PurgeCacheBody,
      response: { 204: Type.Null({ description: 'Purged.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.purgeCache(req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
