import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ApplicationCreateRequest, IdResponse } from '../../../../schemas/containers.js';

export default function createApp(app: Api) {
  app.post('/apps', {
    config: { access: 'write' },
    schema: {
      operationId: 'addApplication',
      summary: 'Create a container application, optionally with its containers',
      tags: ['Container applications'],
      body: ApplicationCreateRequest,
      response: { 201: IdResponse, ...errorResponses, 409: { $ref: 'ErrorBody#' } },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.containerApps.create(req.principal, req.body)),
  });
}
