import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Nullable } from '../../../../schemas/common.js';

export default function checkDnsZoneAvailability(app: Api) {
  app.post('/dnszone/checkavailability', {
    config: { access: 'read' },
    schema: {
      operationId: 'checkDnsZoneAvailability',
      summary: 'Tell whether a domain can be added as a DNS zone',
      description: 'A domain is served by one zone on the whole platform, so a domain of another account is not available either.',
      tags: ['DNS zones'],
      body: Type.Object(
        { Name: Type.Optional(Nullable(Type.String(), { description: 'The domain to check, e.g. `example.com`.' })) },
        { additionalProperties: false, description: 'The domain to check.' },
      ),
      response: {
        200: Type.Object(
          { Available: Type.Boolean({ description: 'True when no zone serves the domain yet.' }) },
          { additionalProperties: false, description: 'Whether the domain is free.' },
        ),
        ...errorResponses,
      },
    },
    handler: async (req) => ({ Available: await app.services.dnsZones.isAvailable(req.body.Name) }),
  });
}
