/**
 * Billing: charges computed from what the planes recorded (traffic by region, storage by day,
 * downloads, DNS queries), months closed into statements, funds the operator moves, payment requests.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { createStorageZone, files, startStoragePlane } from '../../helpers/storage-plane.js';
import { within } from '../../helpers/within.js';
import { ADMIN, operator, pullZone, served, setZonePricing } from './support.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: ADMIN });
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;
const billing = async (key?: string) => {
  const res = await t.get('/billing', key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /billing', () => {
  it("shows a new account's funds, no charges and an empty ledger", async () => {
    const body = await billing();
    expect(body).toMatchObject({
      Balance: 100,
      AvailableBalance: 100,
      ThisMonthCharges: 0,
      LastRechargeBalance: 0,
      BillingRecords: [],
      BillingHistoryChart: { '2026-01-01T00:00:00Z': 0 },
      MonthlyChargesEUTraffic: 0,
      MonthlyChargesStorage: 0,
      MonthlyBandwidthUsed: 0,
      BillingEnabled: true,
      VATRate: 0,
      OptimizerMonthlyPrice: 9.5,
      DrmBaseMonthlyPrice: 99,
      DrmCostPerLicense: 0.001,
      SavedPaymentMethods: [],
      MonthlyMcCpu: null,
    });
  });

  it('charges traffic by the region it was served from; bytes of no region at the European price', async () => {
    const zone = await pullZone(t, 'site');
    expect((await operator(t, `/pullzones/${zone.Id}/usage`, { Bytes: 2_000_000_000 })).status).toBe(200);
    served(t, zone.Id, 1_000_000_000, 'SYD');
    served(t, zone.Id, 1_000_000_000, 'BR');
    served(t, zone.Id, 500_000_000, 'JH');
    served(t, zone.Id, 1_000_000_000, 'NY');
    const body = await billing();
    expect(body).toMatchObject({
      MonthlyChargesEUTraffic: 0.02,
      MonthlyChargesUSTraffic: 0.01,
      MonthlyChargesASIATraffic: 0.03,
      MonthlyChargesSATraffic: 0.045,
      MonthlyChargesAFTraffic: 0.03,
      ThisMonthCharges: 0.135,
      MonthlyBandwidthUsed: 5_500_000_000,
      BillingHistoryChart: { '2026-01-01T00:00:00Z': 14 },
    });
    expect((await t.get('/billing/summary')).body).toEqual([{ PullZoneId: zone.Id, MonthlyUsage: 0.135, MonthlyBandwidthUsed: 5_500_000_000 }]);
  });

  it("applies a zone's network, its own price and its discounts", async () => {
    const volume = await pullZone(t, 'bulk', { Type: 1 });
    const priced = await pullZone(t, 'priced');
    const discounted = await pullZone(t, 'discounted');
    await setZonePricing(t, t.accountId, priced.Id, { PriceOverride: 0.00000000002 });
    await setZonePricing(t, t.accountId, discounted.Id, { EUUSDiscount: 50, AsiaOceaniaDiscount: 10 });
    for (const zone of [volume, priced, discounted]) served(t, zone.Id, 10_000_000_000, 'SG');
    served(t, discounted.Id, 10_000_000_000, 'DE');
    const summary = (await t.get('/billing/summary')).body;
    expect(summary).toEqual([
      { PullZoneId: volume.Id, MonthlyUsage: 0.05, MonthlyBandwidthUsed: 10_000_000_000 },
      { PullZoneId: priced.Id, MonthlyUsage: 0.2, MonthlyBandwidthUsed: 10_000_000_000 },
      { PullZoneId: discounted.Id, MonthlyUsage: 0.32, MonthlyBandwidthUsed: 20_000_000_000 },
    ]);
    expect((await billing()).ThisMonthCharges).toBe(0.57);
  });

  it('charges storage by GB-month in every region holding a copy, and downloads as traffic of its region', async () => {
    const plane = await startStoragePlane(t);
    try {
      const zone = await createStorageZone(t, 'files', { ReplicationRegions: ['NY'] });
      const bytes = Buffer.alloc(3_100_000, 7);
      expect((await files(plane, zone).put('big.bin', bytes)).status).toBe(201);
      for (let i = 0; i < 2; i++) expect((await (await files(plane, zone).get('big.bin')).arrayBuffer()).byteLength).toBe(bytes.length);
      // The plane counts a download once its response has finished, which can be just after the client has the bytes.
      const downloaded = async () => (await t.app.services.usage.series(`storageZone:${zone.Id}`, ['egress.http'], new Date(0), t.clock.read()))[0]?.value;
      await within(2000, async () => (await downloaded()) === 2 * bytes.length);
      t.clock.advance(15 * DAY);
      // 3.1 MB kept 16 days of 31, in 2 regions, at $0.01 per GB-month; 6.2 MB downloaded from DE at $0.01 per GB.
      const body = await billing();
      expect(body.MonthlyChargesStorage).toBe(0.000032);
      expect(body.MonthlyChargesEUTraffic).toBe(0.000062);
      expect(body.MonthlyBandwidthUsed).toBe(6_200_000);
    } finally {
      await plane.close();
    }
  });

  it("counts only the account's own zones and this month's usage; the summary lists idle zones too", async () => {
    const idle = await pullZone(t, 'idle');
    const busy = await pullZone(t, 'busy');
    served(t, busy.Id, 1_000_000_000, 'DE', new Date(t.clock.read().getTime() - DAY));
    served(t, busy.Id, 2_000_000_000, 'DE');
    const other = await t.newAccount();
    const theirs = await pullZone(t, 'theirs', {}, other.key);
    served(t, theirs.Id, 7_000_000_000, 'DE');
    const dns = (await t.post('/dnszone', { Domain: 'theirs.example' }, other.key)).body;
    t.app.services.usage.add(`dnsZone:${dns.Id}`, 'queries.normal', 5_000_000);
    expect(await billing()).toMatchObject({ ThisMonthCharges: 0.02, MonthlyBandwidthUsed: 2_000_000_000, MonthlyChargesDNS: 0 });
    expect((await t.get('/billing/summary')).body).toEqual([
      { PullZoneId: idle.Id, MonthlyUsage: 0, MonthlyBandwidthUsed: 0 },
      { PullZoneId: busy.Id, MonthlyUsage: 0.02, MonthlyBandwidthUsed: 2_000_000_000 },
    ]);
    expect(await billing(other.key)).toMatchObject({ ThisMonthCharges: 0.57, MonthlyChargesDNS: 0.5, MonthlyBandwidthUsed: 7_000_000_000 });
  });

  it('carries the files a zone kept into the next month, charging every day they stayed', async () => {
    const plane = await startStoragePlane(t);
    try {
      const kept = await createStorageZone(t, 'kept');
      await createStorageZone(t, 'empty');
      expect((await files(plane, kept).put('a.bin', Buffer.alloc(31_000_000, 1))).status).toBe(201);
      t.clock.advance(40 * DAY);
      // February: 31 MB on each of its 10 days so far, of 28, at $0.01 per GB-month.
      expect((await billing()).MonthlyChargesStorage).toBe(0.000111);
    } finally {
      await plane.close();
    }
  });

  it("charges a zone's optimizer from the first to the last day it made variants, at its own price or the list price", async () => {
    const busy = await pullZone(t, 'busy', { OptimizerEnabled: true });
    const priced = await pullZone(t, 'priced', { OptimizerEnabled: true });
    await pullZone(t, 'idle', { OptimizerEnabled: true });
    await setZonePricing(t, t.accountId, priced.Id, { OptimizerPricing: 31 });
    const january = (day: number) => new Date(Date.UTC(2026, 0, day, 12));
    // What the edge counts per variant made (edge-usage.ts): days 2 and 11 of 31, the days between served from the cache.
    for (const day of [2, 11]) t.app.services.usage.add(`pullZone:${busy.Id}`, 'optimizer.requests', 3, january(day));
    t.app.services.usage.add(`pullZone:${priced.Id}`, 'optimizer.requests', 1, january(5));
    t.clock.advance(15 * DAY);
    const body = await billing();
    // 9.50 x 10/31 + 31 x 1/31.
    expect(body).toMatchObject({ MonthlyChargesOptimizer: 4.064516, ThisMonthCharges: 4.064516, OptimizerMonthlyPrice: 9.5 });
    // Closed into January's statement with the rest; February starts at nothing.
    t.clock.advance(31 * DAY);
    const next = await billing();
    expect(next).toMatchObject({ MonthlyChargesOptimizer: 0, ThisMonthCharges: 0 });
    expect(next.BillingRecords[0]).toMatchObject({ Amount: 4.064516 });
  });

  it('charges DNS queries per million, smart ones more', async () => {
    const zone = (await t.post('/dnszone', { Domain: 'example.com' })).body;
    t.app.services.usage.add(`dnsZone:${zone.Id}`, 'queries.normal', 2_000_000);
    t.app.services.usage.add(`dnsZone:${zone.Id}`, 'queries.smart', 1_000_000);
    expect(await billing()).toMatchObject({ MonthlyChargesDNS: 0.7, MonthlyDnsNormalQueriesServed: 2_000_000, MonthlyDnsSmartQueriesServed: 1_000_000 });
  });
});

describe('closing months', () => {
  it('turns an ended month into a statement that later changes cannot alter', async () => {
    const zone = await pullZone(t, 'site');
    served(t, zone.Id, 3_000_000_000);
    t.clock.advance(32 * DAY);
    served(t, zone.Id, 1_000_000_000);
    const body = await billing();
    expect(body.ThisMonthCharges).toBe(0.01);
    expect(body.BillingRecords).toEqual([
      {
        Id: expect.any(Number),
        PaymentId: null,
        Amount: 0.03,
        Payer: null,
        Timestamp: '2026-02-01T00:00:00.000Z',
        Type: 3,
        InvoiceAvailable: true,
        DocumentDownloadUrl: `/billing/payment-request-invoice/${body.BillingRecords[0].Id}/pdf`,
        DetailedDocumentDownloadUrl: `/billing/summary/${body.BillingRecords[0].Id}/pdf`,
      },
    ]);
    expect(body.BillingHistoryChart).toEqual({ '2026-01-01T00:00:00Z': 3, '2026-02-01T00:00:00Z': 1 });
    expect((await t.del(`/pullzone/${zone.Id}`)).status).toBe(204);
    const after = await billing();
    expect(after.BillingRecords).toEqual(body.BillingRecords);
    expect(after.ThisMonthCharges).toBe(0);
  });

  it('closes each month once, also when reads race', async () => {
    t.clock.advance(70 * DAY);
    await Promise.all([billing(), billing(), t.get('/billing/payment-requests')]);
    const months = (await billing()).BillingRecords.map((r: { Timestamp: string; Amount: number }) => [r.Timestamp, r.Amount]);
    expect(months).toEqual([
      ['2026-03-01T00:00:00.000Z', 0],
      ['2026-02-01T00:00:00.000Z', 0],
    ]);
  });
});

describe('funds and payment requests', () => {
  it('records every change of funds the operator makes', async () => {
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 150 })).status).toBe(200);
    t.clock.advance(1000);
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 120 })).status).toBe(200);
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 120 })).status).toBe(200);
    const body = await billing();
    expect(body.Balance).toBe(120);
    expect(body.LastRechargeBalance).toBe(50);
    expect(body.BillingRecords.map((r: Record<string, unknown>) => [r.Type, r.Amount, r.Payer, r.Timestamp, r.InvoiceAvailable])).toEqual([
      [4, -30, 'operator', '2026-01-01T00:00:01.000Z', false],
      [6, 50, 'operator', '2026-01-01T00:00:00.000Z', false],
    ]);
  });

  it("makes a closed month a payment request until the account's funds cover it", async () => {
    const zone = await pullZone(t, 'site');
    served(t, zone.Id, 3_000_000_000);
    // The opening funds (100) are taken back: January's bill finds nothing to pay it.
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 0 })).status).toBe(200);
    t.clock.advance(40 * DAY);
    const pending = await t.get('/billing/payment-requests');
    expect(pending.status).toBe(200);
    const statement = (await billing()).BillingRecords.find((r: { Type: number }) => r.Type === 3);
    expect(pending.body).toEqual([
      {
        Id: statement.Id,
        Amount: 0.03,
        DateGenerated: '2026-02-01T00:00:00.000Z',
        DateDue: '2026-02-15T00:00:00.000Z',
        Description: 'Usage of January 2026',
        Paid: false,
        DatePaid: null,
        BillingInvoiceId: statement.Id,
        BillingInvoiceDownloadLink: `/billing/payment-request-invoice/${statement.Id}/pdf`,
        BankTransferReference: `EP-${t.accountId}-${statement.Id}`,
        TaxRate: 0,
        TaxedAmount: 0.03,
      },
    ]);
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 0.01 })).status).toBe(200);
    expect((await t.get('/billing/payment-requests')).body).toHaveLength(1);
    expect((await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 0.05 })).status).toBe(200);
    expect((await t.get('/billing/payment-requests')).body).toEqual([]);
  });

  it('pays a month from the funds the account already had', async () => {
    const zone = await pullZone(t, 'site');
    served(t, zone.Id, 3_000_000_000);
    t.clock.advance(40 * DAY);
    expect((await t.get('/billing/payment-requests')).body).toEqual([]);
  });
});

describe('GET /billing/affiliate', () => {
  it("gives the account's referral link and a month of zero counts", async () => {
    const res = await t.get('/billing/affiliate');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      AffiliateBalance: 0,
      AffiliateUrl: `https://edgeplane.test/?ref=${(await t.get('/user')).body.Id}`,
      ClaimBonusPercentage: 10,
      MinimumPayoutAmount: 100,
    });
    const clicks = res.body.AffiliateClicksChart;
    expect(Object.keys(clicks)).toHaveLength(30);
    expect(Object.keys(clicks).at(-1)).toBe('2026-01-01T00:00:00Z');
    expect(Object.values(clicks).every((v) => v === 0)).toBe(true);
  });
});

describe('billing and the account wall', () => {
  it('shows each account its own charges and ledger only; a read-only key reads them', async () => {
    const zone = await pullZone(t, 'site');
    served(t, zone.Id, 3_000_000_000);
    await operator(t, `/accounts/${t.accountId}/balance`, { Balance: 200 });
    const other = await t.newAccount();
    const theirs = await billing(other.key);
    expect(theirs).toMatchObject({ ThisMonthCharges: 0, BillingRecords: [], Balance: 100 });
    expect((await t.get('/billing/summary', other.key)).body).toEqual([]);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await billing(readOnly)).ThisMonthCharges).toBe(0.03);
    for (const url of ['/billing', '/billing/summary', '/billing/payment-requests', '/billing/affiliate']) expectErrorBody(await t.get(url, null), 401, url);
  });
});
