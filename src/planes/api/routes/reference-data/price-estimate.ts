import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { PriceEstimation, PricingParams, PricingQuery } from '../../../../schemas/reference-data.js';
import { PRICING_SOURCE_CODES } from '../../../../domain/reference-data/pricing-sources.js';

export default function estimatePrice(app: Api) {
  app.get('/v1/pricing/:source/:resourceId', {
    config: { access: 'read' },
    schema: {
      operationId: 'estimatePrice',
      summary: 'The price a resource pays for a billing source, and what a number of units would cost',
      description:
        'Traffic sources (11xx, 12xx, 13xx, 14xx, 15xx) price a pull zone, a video library (its pull zone) or a storage zone; storage sources ' +
        '(2100-2400) a storage zone or a video library; 4100-4400 a video library. Sources of what edgeplane does not sell are a 400 naming `source`.',
      tags: ['Billing'],
      params: PricingParams(PRICING_SOURCE_CODES),
      querystring: PricingQuery,
      response: { 200: PriceEstimation, ...errorResponses },
    },
    handler: (req) => app.services.priceEstimates.estimate(req.principal, req.params.source, req.params.resourceId, req.query.units),
  });
}
