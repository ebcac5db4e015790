/** A script's statistics, and rotating its deployment key. */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { EdgeScriptParams, EdgeScriptStatistics, EdgeScriptStatisticsQuery } from '../../../../schemas/edge-scripts.js';
import { TAGS } from './tags.js';

export default function statisticsRoutes(app: Api) {
  app.get('/compute/script/:id/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getEdgeScriptStatistics',
      summary: 'What the script did in a period: requests and CPU time, per day or hour',
      tags: TAGS,
      params: EdgeScriptParams,
      querystring: EdgeScriptStatisticsQuery,
      response: { 200: EdgeScriptStatistics, ...errorResponses },
    },
    handler: (req) => {
      const { statistics, scripts } = app.services.edgeScripts;
      return statistics.of(scripts, req.principal, req.params.id, req.query);
    },
  });
  app.post('/compute/script/:id/deploymentKey/rotate', {
    config: { access: 'write' },
    schema: {
      operationId: 'rotateEdgeScriptDeploymentKey',
      summary: 'Replace the deployment key of a script',
      tags: TAGS,
      params: EdgeScriptParams,
      response: { 204: Type.Null({ description: 'Rotated.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.edgeScripts.scripts.rotateDeploymentKey(req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
