import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { UserLimits } from '../../../../schemas/container-platform.js';

export default function getLimits(app: Api) {
  app.get('/limits', {
    config: { access: 'read' },
    schema: {
      operationId: 'getContainerLimits',
      summary: "The account's container limits, and how many applications it has",
      tags: ['Container applications'],
      response: { 200: UserLimits, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.platform.limits(req.principal),
  });
}
