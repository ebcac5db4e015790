/**
 * The billing documents as PDF: a month's statement (every charge, line by line) and the invoice
 * of a month's payment request. Made with pdfkit in its built-in Helvetica, so any PDF reader
 * (and `pdftotext`) gets the text back. The same statement always gives the same bytes: the
 * document's dates are the statement's, not the time it was drawn. pdfkit is loaded on the first
 * document, not at start-up, which it would slow for every server that never draws one.
 */
import { CURRENCY } from '../reference-data/prices.js';
import type { MonthCharges } from './charges.js';
import { monthName } from './months.js';

export interface DocumentParty {
  accountName: string;
  userId: string;
  email: string;
}

export interface InvoiceFacts {
  id: number;
  month: string;
  amount: number;
  taxRate: number;
  issued: Date;
  due: Date;
  paidAt: Date | null;
  reference: string;
}

const dollars = (amount: number) => `${amount < 0 ? '-' : ''}$${Math.abs(amount).toFixed(amount !== 0 && Math.abs(amount) < 0.01 ? 6 : 2)}`;
const quantity = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 1 ? 6 : 3));
const day = (at: Date) => at.toISOString().slice(0, 10);

async function render(title: string, at: Date, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Author: 'edgeplane', CreationDate: at, ModDate: at } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  return done;
}

function header(doc: PDFKit.PDFDocument, title: string, party: DocumentParty): void {
  doc.font('Helvetica-Bold').fontSize(18).text(title);
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(10);
  doc.text(`Account: ${party.accountName}`);
  doc.text(`User id: ${party.userId}`);
  doc.text(`Email: ${party.email}`);
  doc.moveDown();
}

/** One line per charge, then the totals by kind; amounts in US dollars. */
export function statementPdf(id: number, charges: MonthCharges, party: DocumentParty, closedAt: Date): Promise<Buffer> {
  const title = `Statement ${id}: ${monthName(charges.month)}`;
  return render(title, closedAt, (doc) => {
    header(doc, title, party);
    doc.text(`Usage counted from ${charges.month}-01 to ${charges.countedUntil.slice(0, 10)} (UTC). Amounts in ${CURRENCY}.`);
    doc.moveDown();
    doc.font('Helvetica-Bold').text('Charges');
    doc.font('Helvetica');
    if (charges.lines.length === 0) doc.text('No usage was recorded this month.');
    for (const line of charges.lines) doc.text(`${line.description}: ${quantity(line.quantity)} ${line.unit}, ${dollars(line.amount)}`);
    doc.moveDown();
    doc.font('Helvetica-Bold').text('Totals');
    doc.font('Helvetica');
    doc.text(`Traffic, Europe: ${dollars(charges.traffic.EU)}`);
    doc.text(`Traffic, North America: ${dollars(charges.traffic.US)}`);
    doc.text(`Traffic, Asia and Oceania: ${dollars(charges.traffic.ASIA)}`);
    doc.text(`Traffic, South America: ${dollars(charges.traffic.SA)}`);
    doc.text(`Traffic, Africa: ${dollars(charges.traffic.AF)}`);
    doc.text(`Storage: ${dollars(charges.storage)}`);
    doc.text(`DNS: ${dollars(charges.dns)}`);
    if (charges.optimizer) doc.text(`Optimizer: ${dollars(charges.optimizer)}`);
    doc.moveDown(0.5);
    doc.font('Helvetica-Bold').text(`Total: ${dollars(charges.total)}`);
  });
}

export function invoicePdf(invoice: InvoiceFacts, party: DocumentParty): Promise<Buffer> {
  const title = `Invoice ${invoice.id}`;
  const tax = (invoice.amount * invoice.taxRate) / 100;
  return render(title, invoice.issued, (doc) => {
    header(doc, title, party);
    doc.text(`Issued: ${day(invoice.issued)}`);
    doc.text(`Due: ${day(invoice.due)}`);
    doc.text(`Reference: ${invoice.reference}`);
    doc.moveDown();
    doc.text(`Usage of ${monthName(invoice.month)}: ${dollars(invoice.amount)}`);
    doc.text(`VAT (${invoice.taxRate}%): ${dollars(tax)}`);
    doc.font('Helvetica-Bold').text(`Amount due: ${dollars(invoice.amount + tax)}`);
    doc.font('Helvetica');
    doc.moveDown();
    doc.text(invoice.paidAt ? `Paid on ${day(invoice.paidAt)}.` : 'Not paid yet.');
  });
}
