import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ApplicationReplaceRequest, IdResponse } from '../../../../schemas/containers.js';

export default function replaceApp(app: Api) {
  app.put('/apps/:appId', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateApplication',
      summary: 'Replace the whole configuration of an application',
      description: 'Every setting takes the value sent; containers sent with an `id` are updated, without one are added, and containers left out are removed.',
      tags: ['Container applications'],
      params: Type.Object({ appId: Type.String({ minLength: 1, description: 'Id of the application to update.' }) }),
      body: ApplicationReplaceRequest,
      response: { 200: IdResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.replace(req.principal, req.params.appId, req.body),
  });
}
