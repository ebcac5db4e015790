import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { PaymentRequest } from '../../../../schemas/billing.js';

export default function listPaymentRequests(app: Api) {
  app.get('/billing/payment-requests', {
    config: { access: 'read' },
    schema: {
      operationId: 'listPaymentRequests',
      summary: "The closed months whose charges the account's funds do not cover yet, oldest first",
      tags: ['Billing'],
      response: { 200: Type.Array(PaymentRequest), ...errorResponses },
    },
    handler: (req) => app.services.billing.paymentRequests(req.principal),
  });
}
