import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ListLogForwardingResponse } from '../../../../schemas/log-forwarding.js';

export default function listLogForwarding(app: Api) {
  app.get('/log/forwarding', {
    config: { access: 'read' },
    schema: {
      operationId: 'listLogForwardingConfigurations',
      summary: "List where the logs of the account's applications are forwarded",
      tags: ['Container applications'],
      response: { 200: ListLogForwardingResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.logForwarding.list(req.principal),
  });
}
