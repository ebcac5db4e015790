import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { NodeAddresses } from '../../../../schemas/container-platform.js';

export default function listNodeAddresses(app: Api) {
  app.get('/nodes/plain', {
    config: { access: 'read' },
    schema: {
      operationId: 'listContainerNodeAddresses',
      summary: "The IP addresses of the nodes the account's running instances are on, as one list",
      tags: ['Container applications'],
      response: { 200: NodeAddresses, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.platform.nodeAddresses(req.principal),
  });
}
