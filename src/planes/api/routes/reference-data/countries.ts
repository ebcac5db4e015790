import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Country } from '../../../../schemas/reference-data.js';

export default function listCountries(app: Api) {
  app.get('/country', {
    config: { access: 'read' },
    schema: {
      operationId: 'listCountries',
      summary: 'List the countries with their VAT rate and edge regions',
      tags: ['Reference data'],
      response: { 200: Type.Array(Country), ...errorResponses },
    },
    handler: () => app.services.referenceData.countries(),
  });
}
