import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Application } from '../../../../schemas/containers.js';

export default function getApp(app: Api) {
  app.get('/apps/:appId', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplication',
      summary: 'Read a container application with its containers and endpoints',
      tags: ['Container applications'],
      params: Type.Object({ appId: Type.String({ minLength: 1, description: 'Id of the application.' }) }),
      response: { 200: Application, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.get(req.principal, req.params.appId),
  });
}
