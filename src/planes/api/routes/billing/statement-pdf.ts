import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { BillingRecordParams } from '../../../../schemas/billing.js';
import { PdfResponse } from './pdf-response.js';

export default function getStatementPdf(app: Api) {
  app.get('/billing/summary/:billingRecordId/pdf', {
    config: { access: 'read' },
    schema: {
      operationId: 'getBillingStatementPdf',
      summary: "A closed month's statement as PDF: every charge, line by line",
      description: 'The record must be a month (type 3) of the account; any other id is a 404.',
      tags: ['Billing'],
      params: BillingRecordParams,
      produces: ['application/pdf'],
      response: { 200: PdfResponse('The statement.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      const pdf = await app.services.billing.statementDocument(req.principal, req.params.billingRecordId);
      return reply.type('application/pdf').header('content-disposition', `inline; filename="statement-${req.params.billingRecordId}.pdf"`).send(pdf);
    },
  });
}
