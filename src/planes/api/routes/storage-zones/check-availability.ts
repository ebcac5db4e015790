import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

const ZoneAvailabilityRequest = Type.Object(
  { Name: Type.String({ minLength: 1, description: 'The storage zone name to check.' }) },
  { additionalProperties: false },
);

const ZoneAvailability = Type.Object({
  Available: Type.Boolean({ description: 'True when no storage zone on the platform uses the name.' }),
});

export default function checkStorageZoneAvailability(app: Api) {
  app.post('/storagezone/checkavailability', {
    config: { access: 'read' },
    schema: {
      operationId: 'checkStorageZoneAvailability',
      summary: 'Tell whether a storage zone name is still free (names are unique platform-wide)',
      tags: ['Storage zones'],
      body: ZoneAvailabilityRequest,
      response: { 200: ZoneAvailability, ...errorResponses },
    },
    handler: (req) => app.services.storageZones.checkAvailability(req.body.Name),
  });
}
