import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { LogForwardingConfiguration, LogForwardingParams, LogForwardingRequest } from '../../../../schemas/log-forwarding.js';

export default function updateLogForwarding(app: Api) {
  app.put('/log/forwarding/:appId', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateLogForwardingConfiguration',
      summary: "Replace where an application's logs are forwarded (a token left out is removed)",
      tags: ['Container applications'],
      params: LogForwardingParams,
      body: LogForwardingRequest,
      response: { 200: LogForwardingConfiguration, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.logForwarding.update(req.principal, req.params.appId, req.body),
  });
}
