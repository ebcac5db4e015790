import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Application, EndpointUpdateResponse } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { anycastEndpoint, cdnEndpoint, createAppWithTemplate, expectSchema, fields400, fullTemplate, minimalTemplate, seedPullZone } from './fixtures.js';

let t: TestContext;
let appId: string;
let template: Record<string, any>;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  ({ appId, template } = await createAppWithTemplate(t, fullTemplate()));
});

const url = (name: string, app = appId) => `/mc/apps/${app}/endpoints/${encodeURIComponent(name)}`;
const endpointsOf = async () => (await t.get(`/mc/apps/${appId}`)).body.containerTemplates.flatMap((c: { endpoints: unknown[] }) => c.endpoints);

describe('PUT /mc/apps/{appId}/endpoints/{endpointId}', () => {
  it('updates and renames the endpoint named in the path; the rename shows on the next read', async () => {
    const before = template.endpoints[0];
    const res = await t.put(
      url('Public API'),
      cdnEndpoint('Renamed', { isSslEnabled: false, portMappings: [{ containerPort: 9090, exposedPort: 443, protocols: ['tcp', 'udp'] }] }),
    );
    expect(res.status).toBe(200);
    expectSchema(EndpointUpdateResponse, res.body);
    expect(res.body).toEqual({ id: before.id });

    const app = (await t.get(`/mc/apps/${appId}`)).body;
    expectSchema(Application, app);
    const [updated, untouched] = app.containerTemplates[0].endpoints;
    expect(updated).toEqual({
      ...before,
      displayName: 'Renamed',
      isSslEnabled: false,
      portMappings: [{ containerPort: 9090, exposedPort: 443, protocols: ['tcp', 'udp'] }],
      stickySessions: undefined,
    });
    // Sent without sticky sessions, the endpoint has none: left out, as the platform's model has no empty form.
    expect(updated).not.toHaveProperty('stickySessions');
    expect(untouched).toEqual(template.endpoints[1]);
    // The old name is gone; the new one addresses the endpoint.
    expectErrorBody(await t.put(url('Public API'), cdnEndpoint('x')), 404);
    expect((await t.put(url('Renamed'), cdnEndpoint('Renamed'))).status).toBe(200);
  });

  it('finds the endpoint in any container of the application', async () => {
    const second = (await t.post(`/mc/apps/${appId}/containers`, { ...minimalTemplate(), endpoints: [anycastEndpoint('udp in')] })).body;
    const res = await t.put(url('udp in'), anycastEndpoint('udp-in'));
    expect(res).toMatchObject({ status: 200, body: { id: second.endpoints[0].id } });
    const names = (await endpointsOf()).map((e: { displayName: string }) => e.displayName);
    expect(names).toEqual(['Public API', 'dns', 'udp-in']);
  });

  it('turns a cdn endpoint into an anycast one, with one anycast address', async () => {
    const res = await t.put(url('Public API'), anycastEndpoint('Public API'));
    expect(res.status).toBe(200);
    const [ep] = await endpointsOf();
    expect(ep.type).toBe('anycast');
    expect(ep.pullZoneId).toBeNull();
    expect(ep.internalIpAddresses).toEqual(template.endpoints[0].internalIpAddresses);
    expect(new Set(ep.publicIpAddresses.map((a: { address: string }) => a.address)).size).toBe(1);
  });

  it('links an existing pull zone of the account', async () => {
    await seedPullZone(t, t.accountId, 5);
    expect((await t.put(url('Public API'), cdnEndpoint('Public API', { pullZoneId: 5 }))).status).toBe(200);
    expect((await endpointsOf())[0].pullZoneId).toBe('5');
  });

  it('links a pull zone created through the API', async () => {
    const zone = await t.post('/pullzone', { Name: 'containers-front', OriginUrl: 'https://origin.example' });
    expect(zone.status).toBeLessThan(300);
    expect((await t.put(url('Public API'), cdnEndpoint('Public API', { pullZoneId: zone.body.Id }))).status).toBe(200);
    expect((await endpointsOf())[0].pullZoneId).toBe(String(zone.body.Id));
  });

  it("rejects a pull zone that is missing or another account's, naming cdn.pullZoneId", async () => {
    const other = await t.newAccount();
    await seedPullZone(t, other.accountId, 6);
    for (const id of [6, 404]) expect(fields400(await t.put(url('Public API'), cdnEndpoint('Public API', { pullZoneId: id })))).toEqual(['cdn.pullZoneId']);
    expect(fields400(await t.put(url('Public API'), cdnEndpoint('Public API', { pullZoneId: 0 })))).toEqual(['cdn.pullZoneId']);
  });

  it('needs exactly one of cdn and anycast', async () => {
    expect(fields400(await t.put(url('Public API'), { displayName: 'x' }))).toEqual(['cdn']);
    expect(fields400(await t.put(url('Public API'), { ...cdnEndpoint('x'), anycast: anycastEndpoint().anycast }))).toEqual(['anycast']);
  });

  it.each([
    ['a'.repeat(50), 200],
    ['a'.repeat(51), 400],
    ['', 400],
  ])('displayName %j → %i', async (displayName, status) => {
    const res = await t.put(url('Public API'), cdnEndpoint(displayName));
    if (status === 400) expect(fields400(res)).toEqual(['displayName']);
    else expect(res.status).toBe(200);
  });

  it('requires displayName and refuses a name another endpoint has', async () => {
    expect(fields400(await t.put(url('Public API'), { cdn: {} }))).toEqual(['displayName']);
    expect(fields400(await t.put(url('Public API'), cdnEndpoint('dns')))).toEqual(['displayName']);
  });

  it('answers 404 for an unknown endpoint or application', async () => {
    expectErrorBody(await t.put(url('nope'), cdnEndpoint('x')), 404, `/mc/apps/${appId}/endpoints/nope`);
    expectErrorBody(await t.put(url('public api'), cdnEndpoint('x')), 404);
    expectErrorBody(await t.put(url('Public API', 'unknownapp'), cdnEndpoint('x')), 404);
  });
});
