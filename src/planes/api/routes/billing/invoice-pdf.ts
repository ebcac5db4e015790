import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { PdfResponse } from './pdf-response.js';

export default function getInvoicePdf(app: Api) {
  app.get('/billing/payment-request-invoice/:id/pdf', {
    config: { access: 'read' },
    schema: {
      operationId: 'getPaymentRequestInvoicePdf',
      summary: 'The invoice of a payment request (a closed month with charges) as PDF',
      tags: ['Billing'],
      params: IdParams('payment request'),
      produces: ['application/pdf'],
      response: { 200: PdfResponse('The invoice.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      const pdf = await app.services.billing.invoiceDocument(req.principal, req.params.id);
      return reply.type('application/pdf').header('content-disposition', `inline; filename="invoice-${req.params.id}.pdf"`).send(pdf);
    },
  });
}
