import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Availability, AvailabilityBody } from './bodies.js';

export default function checkPullZoneNameAvailability(app: Api) {
  app.post('/pullzone/checkavailability', {
    config: { access: 'read' },
    schema: {
      operationId: 'checkPullZoneNameAvailability',
      summary: 'Tell whether a pull zone name is free; names are unique across all accounts',
      description: 'A name that breaks the naming rule is a 400 naming `Name`, as on creation.',
      tags: ['Pull zones'],
      body: AvailabilityBody,
      response: { 200: Availability, ...errorResponses },
    },
    handler: async (req) => ({ Available: await app.services.pullZones.isNameAvailable(req.body.Name) }),
  });
}
