/** `GET /user`: the account's details in the shape of the platform's user record. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userIdOf } from '../../../src/domain/principal.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

const ADMIN = 'operator-token-for-user-tests-0123456789';
let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: ADMIN, cdnDomain: 'cdn.example.test' });
});
afterEach(async () => {
  await t.close();
});

const operator = (method: 'POST', url: string, body: unknown) => t.request(method, `/_edgeplane${url}`, body, null, { authorization: `Bearer ${ADMIN}` });

describe('GET /user', () => {
  it("answers the account's details: ids its resources show, an email made from its name, its funds", async () => {
    const res = await t.get('/user');
    expect(res.status).toBe(200);
    const zone = (await t.post('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' })).body;
    expect(res.body).toEqual({
      Id: userIdOf(t.accountId),
      AccountId: userIdOf(t.accountId),
      Email: `test-${t.accountId}@cdn.example.test`,
      BillingEmail: `test-${t.accountId}@cdn.example.test`,
      FirstName: 'test',
      LastName: '',
      StreetAddress: null,
      City: null,
      ZipCode: null,
      Country: null,
      CompanyName: null,
      VATNumber: null,
      ReceiveNotificationEmails: false,
      ReceivePromotionalEmails: false,
      Roles: ['FullAccess'],
      Balance: 100,
      TrialBalance: 0,
      BillingFreeUntilDate: '2026-01-01T00:00:00.000Z',
      DateJoined: '2026-01-01T00:00:00.000Z',
      TrialBandwidthLimit: 0,
      TotalBandwidthUsed: 0,
      TwoFactorAuthenticationEnabled: false,
      EmailVerified: true,
      UnreadSupportTicketCount: 0,
      DpaAccepted: false,
      DpaVersionAccepted: 0,
      DpaDateAccepted: null,
      Suspended: false,
      PaymentsDisabled: true,
      CardVerified: false,
      HasCompleteBillingProfile: false,
      IsSsoAccount: false,
      BillingType: 0,
      EnabledPaymentTypes: [],
      FeatureFlags: [],
      FreeTrialExtendedDate: null,
    });
    expect(zone.UserId).toBe(res.body.Id);
  });

  it('splits the name into first and last name, and keeps two accounts of one name apart', async () => {
    const ada = await t.newAccount('  Ada   King Lovelace ');
    const twin = await t.newAccount('Ada King Lovelace');
    const first = (await t.get('/user', ada.key)).body;
    expect(first).toMatchObject({ FirstName: 'Ada', LastName: 'King Lovelace', Email: `ada-king-lovelace-${ada.accountId}@cdn.example.test` });
    expect((await t.get('/user', twin.key)).body.Email).toBe(`ada-king-lovelace-${twin.accountId}@cdn.example.test`);
    const symbols = await t.newAccount('Ωμέγα ★');
    expect((await t.get('/user', symbols.key)).body.Email).toBe(`account-${symbols.accountId}@cdn.example.test`);
  });

  it("follows the account: the calling key's roles, the operator's funds, the bytes served this month", async () => {
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await t.get('/user', readOnly)).body.Roles).toEqual(['ReadOnly']);
    const zone = (await t.post('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' })).body;
    expect((await operator('POST', `/pullzones/${zone.Id}/usage`, { Bytes: 5_000_000 })).status).toBe(200);
    expect((await operator('POST', `/accounts/${t.accountId}/balance`, { Balance: 0 })).status).toBe(200);
    expect((await t.get('/user')).body).toMatchObject({ Balance: 0, Suspended: true, TotalBandwidthUsed: 5_000_000 });
  });

  it('needs a valid key', async () => {
    expectErrorBody(await t.get('/user', null), 401, '/user');
    expectErrorBody(await t.get('/user', 'not-a-key'), 401, '/user');
  });
});
