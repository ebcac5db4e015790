import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerTemplate, ContainerTemplateRequest } from '../../../../schemas/containers.js';

export default function addTemplate(app: Api) {
  app.post('/apps/:appId/containers', {
    config: { access: 'write' },
    schema: {
      operationId: 'addContainerTemplate',
      summary: 'Add a container template to an application',
      tags: ['Container applications'],
      params: Type.Object({ appId: Type.String({ minLength: 1, description: 'Id of the application.' }) }),
      body: ContainerTemplateRequest,
      response: { 201: ContainerTemplate, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.containerApps.containers.add(req.principal, req.params.appId, req.body)),
  });
}
