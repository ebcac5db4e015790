import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AffiliateDetails } from '../../../../schemas/billing.js';

export default function getAffiliateDetails(app: Api) {
  app.get('/billing/affiliate', {
    config: { access: 'read' },
    schema: {
      operationId: 'getAffiliateDetails',
      summary: "The account's referral link and programme terms (edgeplane tracks no referrals: every count is 0)",
      tags: ['Billing'],
      response: { 200: AffiliateDetails, ...errorResponses },
    },
    handler: (req) => app.services.billing.affiliate(req.principal),
  });
}
