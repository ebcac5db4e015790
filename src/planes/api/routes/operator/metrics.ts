import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export default function operatorMetricsRoute(app: Api) {
  app.get('/metrics', {
    schema: {
      operationId: 'operatorMetrics',
      summary: 'Prometheus metrics of this instance: requests per route, latency, store and job-queue gauges',
      tags: ['Operator'],
      response: {
        200: { description: 'Prometheus text exposition format.', content: { [PROMETHEUS_TEXT]: { schema: Type.String() } } },
        ...errorResponses,
      },
    },
    handler: async (_req, reply) => reply.type(app.metrics.contentType).send(await app.metrics.metrics()),
  });
}
