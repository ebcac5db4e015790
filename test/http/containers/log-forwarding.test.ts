/** Log forwarding of container applications: one syslog destination per application. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ListLogForwardingResponse, LogForwardingConfiguration } from '../../../src/schemas/log-forwarding.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { createApp, expectSchema, fields400, ID, minimalTemplate } from './fixtures.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const body = (app: string, over: Record<string, unknown> = {}) => ({
  app,
  type: 'SyslogTcp',
  endpoint: 'logs.example.com',
  port: 6514,
  token: 'forwarding-token-3c5e7a9b1d',
  format: 'SyslogRfc5424',
  enabled: true,
  ...over,
});

describe('log forwarding', () => {
  it('creates a configuration for an application, and reads it back alone and in the list, at /mc and at the root', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    const res = await t.post('/mc/log/forwarding', body(appId));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectSchema(LogForwardingConfiguration, res.body);
    expect(res.body).toEqual({
      id: expect.stringMatching(ID),
      app: appId,
      productId: 'containers',
      type: 'SyslogTcp',
      endpoint: 'logs.example.com',
      port: 6514,
      createdAt: '2026-01-01T00:00:00.000Z',
      token: 'forwarding-token-3c5e7a9b1d',
      format: 'SyslogRfc5424',
      enabled: true,
    });
    expect((await t.get(`/mc/log/forwarding/${appId}`)).body).toEqual(res.body);
    const list = await t.get('/mc/log/forwarding');
    expectSchema(ListLogForwardingResponse, list.body);
    expect(list.body).toEqual({ items: [res.body] });
    expect((await t.get('/log/forwarding')).body).toEqual(list.body);
    expect((await t.get(`/log/forwarding/${appId}`)).body).toEqual(res.body);
  });

  it('leaves the token out when none is set, and takes IP addresses as endpoints', async () => {
    const appId = await createApp(t);
    const { token: _token, ...withoutToken } = body(appId, { endpoint: '192.0.2.7', type: 'SyslogUdp', format: 'SyslogRfc3164', port: 514 });
    const res = await t.post('/mc/log/forwarding', withoutToken);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).not.toHaveProperty('token');
    expect(res.body).toMatchObject({ endpoint: '192.0.2.7', type: 'SyslogUdp', format: 'SyslogRfc3164', port: 514 });
  });

  it.each([
    [{ app: undefined }, ['app']],
    [{ type: 'Http' }, ['type']],
    [{ endpoint: undefined }, ['endpoint']],
    [{ endpoint: 'not a host!' }, ['endpoint']],
    [{ port: 0 }, ['port']],
    [{ port: 65536 }, ['port']],
    [{ format: 'Json' }, ['format']],
    [{ enabled: 'yes' }, ['enabled']],
  ])('refuses %j with a 400 naming %j, and keeps nothing', async (over, fields) => {
    const appId = await createApp(t);
    expect(fields400(await t.post('/mc/log/forwarding', body(appId, over)))).toEqual(fields);
    expect((await t.get('/mc/log/forwarding')).body.items).toEqual([]);
  });

  it("answers 404 for an unknown application and another account's, in the body and in the path", async () => {
    const appId = await createApp(t);
    expect((await t.post('/mc/log/forwarding', body(appId))).status).toBe(201);
    const other = await t.newAccount();
    expectErrorBody(await t.post('/mc/log/forwarding', body('nosuchapplication')), 404);
    expectErrorBody(await t.post('/mc/log/forwarding', body(appId), other.key), 404);
    for (const [id, key] of [
      ['nosuchapplication', undefined],
      [appId, other.key],
    ] as const) {
      expectErrorBody(await t.get(`/mc/log/forwarding/${id}`, key), 404, `/mc/log/forwarding/${id}`);
      expectErrorBody(await t.put(`/mc/log/forwarding/${id}`, body(id), key), 404);
      expectErrorBody(await t.del(`/mc/log/forwarding/${id}`, undefined, key), 404);
    }
    expect((await t.get('/mc/log/forwarding', other.key)).body.items).toEqual([]);
    // An application without a configuration has none to read.
    expectErrorBody(await t.get(`/mc/log/forwarding/${await createApp(t)}`), 404);
  });

  it('keeps one configuration per application', async () => {
    const appId = await createApp(t);
    expect((await t.post('/mc/log/forwarding', body(appId))).status).toBe(201);
    expect(fields400(await t.post('/mc/log/forwarding', body(appId, { endpoint: 'other.example.com' })))).toEqual(['app']);
    expect((await t.get('/mc/log/forwarding')).body.items).toHaveLength(1);
  });

  it('replaces a configuration: its id and creation stay, a token left out goes', async () => {
    const appId = await createApp(t);
    const created = (await t.post('/mc/log/forwarding', body(appId))).body;
    t.clock.advance(1000);
    const { token: _token, ...withoutToken } = body(appId, { endpoint: 'syslog.example.net', enabled: false });
    const res = await t.put(`/mc/log/forwarding/${appId}`, withoutToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(LogForwardingConfiguration, res.body);
    const { token: _old, ...kept } = created;
    expect(res.body).toEqual({ ...kept, endpoint: 'syslog.example.net', enabled: false });
    expect((await t.get(`/mc/log/forwarding/${appId}`)).body).toEqual(res.body);

    expect(fields400(await t.put(`/mc/log/forwarding/${appId}`, body(await createApp(t))))).toEqual(['app']);
    expect(fields400(await t.put(`/mc/log/forwarding/${appId}`, body(appId, { port: -1 })))).toEqual(['port']);
    expect((await t.get(`/mc/log/forwarding/${appId}`)).body).toEqual(res.body);
  });

  it('deletes a configuration (204); deleting the application deletes its configuration too', async () => {
    const first = await createApp(t);
    const second = await createApp(t);
    expect((await t.post('/mc/log/forwarding', body(first))).status).toBe(201);
    expect((await t.post('/mc/log/forwarding', body(second))).status).toBe(201);
    const res = await t.del(`/mc/log/forwarding/${first}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectErrorBody(await t.get(`/mc/log/forwarding/${first}`), 404);

    expect((await t.del(`/mc/apps/${second}`)).status).toBe(200);
    expect((await t.get('/mc/log/forwarding')).body.items).toEqual([]);
  });

  it('lets a read-only key read and refuses it every change', async () => {
    const appId = await createApp(t);
    const created = (await t.post('/mc/log/forwarding', body(appId))).body;
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    expect((await t.get('/mc/log/forwarding', readOnly)).body.items).toEqual([created]);
    expect((await t.get(`/mc/log/forwarding/${appId}`, readOnly)).status).toBe(200);
    for (const res of [
      await t.post('/mc/log/forwarding', body(await createApp(t)), readOnly),
      await t.put(`/mc/log/forwarding/${appId}`, body(appId, { enabled: false }), readOnly),
      await t.del(`/mc/log/forwarding/${appId}`, undefined, readOnly),
    ]) {
      expectErrorBody(res, 403);
      expect(res.body.detail).toMatch(/read-only/);
    }
    expect((await t.get(`/mc/log/forwarding/${appId}`)).body).toEqual(created);
  });
});
