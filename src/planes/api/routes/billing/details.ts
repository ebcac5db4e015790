import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Billing } from '../../../../schemas/billing.js';

export default function getBilling(app: Api) {
  app.get('/billing', {
    config: { access: 'read' },
    schema: {
      operationId: 'getBilling',
      summary: "The account's funds, this month's charges by kind, and its ledger",
      description: 'Months that have ended since the last read are closed first: their charges become statements in the ledger.',
      tags: ['Billing'],
      response: { 200: Billing, ...errorResponses },
    },
    handler: (req) => app.services.billing.details(req.principal),
  });
}
