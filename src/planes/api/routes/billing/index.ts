import type { Api } from '../../api.js';
import getAffiliateDetails from './affiliate.js';
import getBilling from './details.js';
import getInvoicePdf from './invoice-pdf.js';
import listPaymentRequests from './payment-requests.js';
import getStatementPdf from './statement-pdf.js';
import getBillingSummary from './summary.js';

export default function billingRoutes(app: Api) {
  getBilling(app);
  getBillingSummary(app);
  listPaymentRequests(app);
  getAffiliateDetails(app);
  getStatementPdf(app);
  getInvoicePdf(app);
}
