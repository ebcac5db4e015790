/**
 * The billing documents are real PDFs: a month's statement and a payment request's invoice,
 * rendered from the closed month and read back as text with poppler's `pdftotext`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { ensureDebianPackage } from '../../helpers/debian-package.js';
import { ADMIN, operator, pullZone, served } from './support.js';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  await ensureDebianPackage('pdftotext', 'poppler-utils');
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-pdf-'));
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: ADMIN });
});
afterEach(async () => {
  await t.close();
});

async function pdf(url: string, key?: string): Promise<{ bytes: Buffer; text: string }> {
  const res = await t.app.inject({ method: 'GET', url, headers: { accesskey: key ?? t.key } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const bytes = res.rawPayload;
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  return { bytes, text: stdout.replace(/[ \t]+/g, ' ') };
}

/** January with traffic, closed by a read in February. */
async function closedJanuary(): Promise<{ statement: number; zone: number }> {
  const zone = await pullZone(t, 'site');
  served(t, zone.Id, 3_000_000_000, 'DE');
  served(t, zone.Id, 1_000_000_000, 'SG');
  t.clock.advance(40 * 86_400_000);
  const records = (await t.get('/billing')).body.BillingRecords;
  return { statement: records.find((r: { Type: number }) => r.Type === 3).Id, zone: zone.Id };
}

describe('GET /billing/summary/{billingRecordId}/pdf', () => {
  it("renders the month's statement: every charge, the totals, the account", async () => {
    const { statement, zone } = await closedJanuary();
    const { text, bytes } = await pdf(`/billing/summary/${statement}/pdf`);
    expect(text).toContain(`Statement ${statement}: January 2026`);
    expect(text).toContain('Account: test');
    expect(text).toContain(`Pull zone site (${zone}): traffic: 4 GB, $0.06`);
    expect(text).toContain('Traffic, Europe: $0.03');
    expect(text).toContain('Traffic, Asia and Oceania: $0.03');
    expect(text).toContain('Total: $0.06');
    // The same statement always renders to the same bytes.
    expect((await pdf(`/billing/summary/${statement}/pdf`)).bytes.equals(bytes)).toBe(true);
  });

  it("answers 404 for a record that is not a month, an unknown one, another account's", async () => {
    const { statement } = await closedJanuary();
    await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 500 });
    const funds = (await t.get('/billing')).body.BillingRecords.find((r: { Type: number }) => r.Type === 6).Id;
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/billing/summary/${funds}/pdf`), 404, `/billing/summary/${funds}/pdf`);
    expectErrorBody(await t.get('/billing/summary/987654/pdf'), 404);
    expectErrorBody(await t.get(`/billing/summary/${statement}/pdf`, other.key), 404, `/billing/summary/${statement}/pdf`);
    expectErrorBody(await t.get('/billing/summary/abc/pdf'), 400);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await pdf(`/billing/summary/${statement}/pdf`, readOnly)).text).toContain('Total: $0.06');
  });
});

describe('GET /billing/payment-request-invoice/{id}/pdf', () => {
  it('renders the invoice with what is due, and whether it was paid', async () => {
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 0 })).status).toBe(200);
    const { statement } = await closedJanuary();
    const unpaid = (await pdf(`/billing/payment-request-invoice/${statement}/pdf`)).text;
    expect(unpaid).toContain(`Invoice ${statement}`);
    expect(unpaid).toContain('Issued: 2026-02-01');
    expect(unpaid).toContain('Due: 2026-02-15');
    expect(unpaid).toContain(`Reference: EP-${t.accountId}-${statement}`);
    expect(unpaid).toContain('Usage of January 2026: $0.06');
    expect(unpaid).toContain('Amount due: $0.06');
    expect(unpaid).toContain('Not paid yet.');
    await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 10 });
    expect((await pdf(`/billing/payment-request-invoice/${statement}/pdf`)).text).toContain('Paid on 2026-02-10.');
  });

  it("answers 404 for a month without charges, an unknown id, another account's invoice", async () => {
    const { statement } = await closedJanuary();
    t.clock.advance(30 * 86_400_000);
    const records = (await t.get('/billing')).body.BillingRecords;
    const february = records.find((r: { Timestamp: string }) => r.Timestamp === '2026-03-01T00:00:00.000Z');
    expect(february).toMatchObject({ Type: 3, Amount: 0, InvoiceAvailable: false, DocumentDownloadUrl: null });
    expectErrorBody(await t.get(`/billing/payment-request-invoice/${february.Id}/pdf`), 404, `/billing/payment-request-invoice/${february.Id}/pdf`);
    expectErrorBody(await t.get('/billing/payment-request-invoice/987654/pdf'), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/billing/payment-request-invoice/${statement}/pdf`, other.key), 404);
    expect((await pdf(`/billing/payment-request-invoice/${statement}/pdf`)).text).toContain('Paid on 2026-02-01.');
  });
});
