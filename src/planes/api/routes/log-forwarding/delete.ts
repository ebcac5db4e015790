import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { LogForwardingParams } from '../../../../schemas/log-forwarding.js';
import { NoContent } from '../../../../schemas/containers.js';

export default function deleteLogForwarding(app: Api) {
  app.delete('/log/forwarding/:appId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteLogForwardingConfiguration',
      summary: "Stop forwarding an application's logs",
      tags: ['Container applications'],
      params: LogForwardingParams,
      response: { 204: NoContent('Deleted.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.logForwarding.delete(req.principal, req.params.appId);
      return reply.code(204).send();
    },
  });
}
