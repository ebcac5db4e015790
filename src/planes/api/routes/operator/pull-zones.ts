import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Int32, Int64 } from '../../../../schemas/common.js';
import { errors } from '../../../../domain/errors.js';
import { OperatorUsage } from '../../../../schemas/operator.js';
import { PullZone } from '../../../../schemas/pull-zone.js';

const tags = ['Operator'];
const params = Type.Object({ id: Int64({ minimum: 1, description: 'Pull zone id (any account).' }) });

export default function operatorPullZoneRoutes(app: Api) {
  app.post('/pullzones/:id/usage', {
    schema: {
      operationId: 'operatorAddUsage',
      summary: 'Record bandwidth served by a pull zone (adds to MonthlyBandwidthUsed)',
      tags,
      params,
      body: OperatorUsage,
      response: { 200: PullZone, ...errorResponses },
    },
    handler: (req) => app.services.operator.addUsage(req.params.id, req.body.Bytes),
  });

  for (const [path, suspended] of [
    ['suspend', true],
    ['unsuspend', false],
  ] as const) {
    app.post(`/pullzones/:id/${path}`, {
      schema: {
        operationId: suspended ? 'operatorSuspendPullZone' : 'operatorUnsuspendPullZone',
        summary: suspended ? 'Suspend a pull zone' : "Lift a pull zone's suspension",
        tags,
        params,
        response: { 200: PullZone, ...errorResponses },
      },
      handler: (req) => app.services.operator.setSuspended(req.params.id, suspended),
    });
  }

  app.get('/pullzones/:id/accesslog', {
    schema: {
      operationId: 'operatorPullZoneAccessLog',
      summary: "A pull zone's access log (zones with EnableLogging): the platform's raw log lines, newest first by default",
      description:
        "One line per request the edge served, as the platform's logging API writes them: " +
        '`CacheStatus|Status|TimestampMs|BytesSent|PullZoneId|RemoteIp|Referer|Url|EdgeLocation|UserAgent|RequestId|CountryCode`. ' +
        'Every instance writes to the store, so the log holds them all; the newest 10,000 lines of each zone are kept.',
      tags,
      params,
      querystring: Type.Object({
        start: Type.Optional(Int32({ minimum: 0, default: 0, description: 'Lines to skip from the first in the order asked for.' })),
        end: Type.Optional(Int32({ minimum: 0, maximum: 10_000, default: 1000, description: 'Index past the last line to return.' })),
        order: Type.Optional(
          Type.Union([Type.Literal('desc'), Type.Literal('asc')], { default: 'desc', description: 'Newest first (`desc`) or oldest first.' }),
        ),
      }),
      produces: ['text/plain'],
      response: {
        200: { description: 'The lines, one per request.', content: { 'text/plain': { schema: Type.String() } } },
        ...errorResponses,
      },
    },
    handler: async (req, reply) => {
      if (!(await app.services.pullZones.zones.findAnyAccount(app.services.store, req.params.id))) throw errors.notFound('pull zone');
      const start = req.query.start ?? 0;
      const end = req.query.end ?? 1000;
      const lines = await app.services.edgeAccessLog.read(req.params.id, { start, limit: Math.max(0, end - start), order: req.query.order ?? 'desc' });
      return reply.type('text/plain; charset=utf-8').send(lines.map((line) => `${line}\n`).join(''));
    },
  });
}
