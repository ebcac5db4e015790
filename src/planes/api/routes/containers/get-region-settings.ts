import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, RegionSettings } from '../../../../schemas/containers.js';

export default function getRegionSettings(app: Api) {
  app.get('/apps/:appId/region-settings', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplicationRegionSettings',
      summary: 'Read where an application runs',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: RegionSettings, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.settings.regionSettings(req.principal, req.params.appId),
  });
}
