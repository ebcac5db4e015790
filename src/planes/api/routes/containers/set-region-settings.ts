import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, NoContent, RegionSettingsRequest } from '../../../../schemas/containers.js';

export default function setRegionSettings(app: Api) {
  app.put('/apps/:appId/region-settings', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateApplicationRegionSettings',
      summary: 'Replace the region settings of an application',
      description: 'Members left out are cleared. Endpoints get addresses in the new regions and keep those they had in regions that stay.',
      tags: ['Container applications'],
      params: AppParams,
      body: RegionSettingsRequest,
      response: { 200: NoContent('Updated.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.settings.setRegionSettings(req.principal, req.params.appId, req.body);
      return reply.code(200).send();
    },
  });
}
