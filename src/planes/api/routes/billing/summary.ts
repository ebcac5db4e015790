import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { BillingSummaryItem } from '../../../../schemas/billing.js';

export default function getBillingSummary(app: Api) {
  app.get('/billing/summary', {
    config: { access: 'read' },
    schema: {
      operationId: 'getBillingSummary',
      summary: 'What each pull zone served and cost this month',
      tags: ['Billing'],
      response: { 200: Type.Array(BillingSummaryItem), ...errorResponses },
    },
    handler: (req) => app.services.billing.summary(req.principal),
  });
}
