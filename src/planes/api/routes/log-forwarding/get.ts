import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { LogForwardingConfiguration, LogForwardingParams } from '../../../../schemas/log-forwarding.js';

export default function getLogForwarding(app: Api) {
  app.get('/log/forwarding/:appId', {
    config: { access: 'read' },
    schema: {
      operationId: 'getLogForwardingConfiguration',
      summary: "Read where an application's logs are forwarded",
      tags: ['Container applications'],
      params: LogForwardingParams,
      response: { 200: LogForwardingConfiguration, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.logForwarding.get(req.principal, req.params.appId),
  });
}
