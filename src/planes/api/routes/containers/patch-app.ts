import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, ApplicationPatchRequest, IdResponse } from '../../../../schemas/containers.js';

export default function patchApp(app: Api) {
  app.patch('/apps/:appId', {
    config: { access: 'write' },
    schema: {
      operationId: 'patchApplication',
      summary: 'Change some settings of an application',
      description: 'Fields left out (or null) keep their value. `containerTemplates`, when sent, lists every container as in a replacement.',
      tags: ['Container applications'],
      params: AppParams,
      body: ApplicationPatchRequest,
      response: { 200: IdResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.patch(req.principal, req.params.appId, req.body),
  });
}
