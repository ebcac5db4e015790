/**
 * The scripting API (/compute/script): scripts, code, releases and publishing, variables, secrets
 * (sealed at rest, never answered), statistics, the deployment key; and its errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CODE = 'import * as SDK from "@bunny.net/edgescript-sdk";\nSDK.net.http.serve(() => new Response("hi"));\n';

describe('scripts', () => {
  it('creates a standalone script with a linked pull zone, reads, lists, renames and deletes it', async () => {
    const created = await t.post('/compute/script', { Name: 'hello', Code: CODE, ScriptType: 1, CreateLinkedPullZone: true, LinkedPullZoneName: 'hello-zone' });
    expect(created.status).toBe(201);
    const s = created.body;
    expect(s).toMatchObject({ Name: 'hello', ScriptType: 1, CurrentReleaseId: 0, Deleted: false, EdgeScriptVariables: [], MonthlyCost: 0 });
    expect(s.LinkedPullZones).toEqual([{ Id: expect.any(Number), PullZoneName: 'hello-zone', DefaultHostname: expect.stringMatching(/^hello-zone\./) }]);
    expect(s.SystemHostname).toBe(s.LinkedPullZones[0].DefaultHostname);
    expect(typeof s.DeploymentKey).toBe('string');
    const zone = (await t.get(`/pullzone/${s.LinkedPullZones[0].Id}`)).body;
    expect(zone).toMatchObject({ OriginType: 4, EdgeScriptId: s.Id });

    expect((await t.get(`/compute/script/${s.Id}`)).body).toEqual(s);
    const listed = await t.get('/compute/script?search=hel&type=1');
    expect(listed.body).toMatchObject({ CurrentPage: 1, TotalItems: 1, HasMoreItems: false });
    expect((await t.get('/compute/script?type=2')).body.TotalItems).toBe(0);
    const renamed = await t.post(`/compute/script/${s.Id}`, { Name: 'hello2' });
    expect(renamed.body.Name).toBe('hello2');

    expect((await t.get(`/compute/script/${s.Id}/code`)).body).toEqual({ Code: CODE, LastModified: expect.any(String) });
    expect((await t.post(`/compute/script/${s.Id}/code`, { Code: 'x' })).status).toBe(204);
    expect((await t.get(`/compute/script/${s.Id}/code`)).body.Code).toBe('x');
    // The platform's 10 MB bound on a script's code (more than the API's usual 64 Ki characters a string is taken).
    const tooBig = await t.post(`/compute/script/${s.Id}/code`, { Code: `//${'x'.repeat(10 * 1024 * 1024 - 1)}` });
    expectErrorBody(tooBig, 400);
    expect(tooBig.body.detail).toContain('10 MB');
    const large = `//${'x'.repeat(100_000)}`;
    expect((await t.post(`/compute/script/${s.Id}/code`, { Code: large })).status).toBe(204);
    expect((await t.get(`/compute/script/${s.Id}/code`)).body.Code).toBe(large);

    expect((await t.post(`/compute/script/${s.Id}/deploymentKey/rotate`)).status).toBe(204);
    expect((await t.get(`/compute/script/${s.Id}`)).body.DeploymentKey).not.toBe(s.DeploymentKey);

    expect((await t.del(`/compute/script/${s.Id}?deleteLinkedPullZones=true`)).status).toBe(204);
    expectErrorBody(await t.get(`/compute/script/${s.Id}`), 404);
    expectErrorBody(await t.get(`/pullzone/${s.LinkedPullZones[0].Id}`), 404);
  });

  it('publishes the uploaded code as releases, and rolls back to an earlier one', async () => {
    const s = (await t.post('/compute/script', { Name: 'rel', ScriptType: 1 })).body;
    expectErrorBody(await t.post(`/compute/script/${s.Id}/publish`, {}), 400);
    expectErrorBody(await t.get(`/compute/script/${s.Id}/releases/active`), 404);
    await t.post(`/compute/script/${s.Id}/code`, { Code: 'one' });
    expect((await t.post(`/compute/script/${s.Id}/publish`, { Note: 'first' })).status).toBe(204);
    await t.post(`/compute/script/${s.Id}/code`, { Code: 'two' });
    expect((await t.post(`/compute/script/${s.Id}/publish`, {})).status).toBe(204);
    const releases = (await t.get(`/compute/script/${s.Id}/releases`)).body;
    expect(releases).toMatchObject({ TotalItems: 2, CurrentPage: 1, HasMoreItems: false });
    const [two, one] = releases.Items;
    expect(two).toMatchObject({ Code: 'two', Status: 1, Deleted: false });
    expect(one).toMatchObject({ Code: 'one', Status: 0, Note: 'first' });
    expect((await t.get(`/compute/script/${s.Id}/releases/active`)).body.Id).toBe(two.Id);

    expect((await t.post(`/compute/script/${s.Id}/publish/${one.Uuid}`, {})).status).toBe(204);
    expect((await t.get(`/compute/script/${s.Id}/releases/active`)).body).toMatchObject({ Id: one.Id, Code: 'one', Status: 1 });
    expect((await t.get(`/compute/script/${s.Id}`)).body.CurrentReleaseId).toBe(one.Id);
    expectErrorBody(await t.post(`/compute/script/${s.Id}/publish/00000000-0000-4000-8000-000000000000`, {}), 404);
  });
});

describe('variables and secrets', () => {
  it('keeps variables, and secrets sealed, never answered; a name is one or the other', async () => {
    const s = (await t.post('/compute/script', { Name: 'env', ScriptType: 1 })).body;
    const v = await t.post(`/compute/script/${s.Id}/variables/add`, { Name: 'GREETING', Required: true, DefaultValue: 'hello' });
    expect(v.status).toBe(200);
    expect(v.body).toEqual({ Id: expect.any(Number), Name: 'GREETING', Required: true, DefaultValue: 'hello' });
    expect((await t.get(`/compute/script/${s.Id}/variables/${v.body.Id}`)).body).toEqual(v.body);
    expect((await t.post(`/compute/script/${s.Id}/variables/${v.body.Id}`, { DefaultValue: 'hey' })).body.DefaultValue).toBe('hey');
    const upserted = await t.put(`/compute/script/${s.Id}/variables`, { Name: 'GREETING', DefaultValue: 'yo' });
    expect(upserted.status).toBe(204);
    const added = await t.put(`/compute/script/${s.Id}/variables`, { Name: 'OTHER', DefaultValue: '1' });
    expect(added.status).toBe(200);
    expect(
      (await t.get(`/compute/script/${s.Id}`)).body.EdgeScriptVariables.map((x: { Name: string; DefaultValue: string }) => [x.Name, x.DefaultValue]),
    ).toEqual([
      ['GREETING', 'yo'],
      ['OTHER', '1'],
    ]);
    expect((await t.del(`/compute/script/${s.Id}/variables/${added.body.Id}`)).status).toBe(204);
    expectErrorBody(await t.del(`/compute/script/${s.Id}/variables/${added.body.Id}`), 404);

    const secretValue = 'sk-live-7d1c0e5a9b3f';
    const sec = await t.post(`/compute/script/${s.Id}/secrets`, { Name: 'API_TOKEN', Secret: secretValue });
    expect(sec.status).toBe(200);
    expect(sec.body).toEqual({ Id: expect.any(Number), Name: 'API_TOKEN', LastModified: expect.any(String) });
    expectErrorBody(await t.post(`/compute/script/${s.Id}/secrets`, { Name: 'GREETING', Secret: 'x' }), 400);
    expectErrorBody(await t.post(`/compute/script/${s.Id}/variables/add`, { Name: 'api_token', Required: false }), 400);
    expectErrorBody(await t.post(`/compute/script/${s.Id}/secrets`, { Name: 'API_TOKEN', Secret: 'x' }), 400);
    expectErrorBody(await t.post(`/compute/script/${s.Id}/secrets`, { Name: 'not a name', Secret: 'x' }), 400);
    expect((await t.put(`/compute/script/${s.Id}/secrets`, { Name: 'API_TOKEN', Secret: `${secretValue}-2` })).status).toBe(204);
    const second = await t.put(`/compute/script/${s.Id}/secrets`, { Name: 'SECOND', Secret: 'another-secret-value' });
    expect(second.status).toBe(200);
    expect((await t.post(`/compute/script/${s.Id}/secrets/${second.body.Id}`, { Secret: 'changed' })).body.Name).toBe('SECOND');
    expect((await t.get(`/compute/script/${s.Id}/secrets`)).body.Secrets.map((x: { Name: string }) => x.Name)).toEqual(['API_TOKEN', 'SECOND']);
    expect((await t.del(`/compute/script/${s.Id}/secrets/${second.body.Id}`)).status).toBe(204);
    expectErrorBody(await t.del(`/compute/script/${s.Id}/secrets/${second.body.Id}`), 404);

    // Sealed at rest: the raw document never holds the value.
    const raw = await t.store.docs.get<{ Secrets: { Value: string }[] }>('edgeScript', t.accountId, String(s.Id));
    expect(JSON.stringify(raw)).not.toContain(secretValue);
    expect(raw!.doc.Secrets[0]!.Value).toMatch(/^v1:/);
    for (const url of [`/compute/script/${s.Id}`, `/compute/script/${s.Id}/secrets`, '/compute/script']) {
      expect(JSON.stringify((await t.get(url)).body)).not.toContain(secretValue);
    }
  });
});

describe('errors and accounts', () => {
  it("answers 404 for another account's script and for unknown ids; 400 for bad bodies; 401 without a key", async () => {
    const s = (await t.post('/compute/script', { Name: 'mine', ScriptType: 2 })).body;
    const other = await t.newAccount('other-scripts');
    for (const url of [`/compute/script/${s.Id}`, `/compute/script/${s.Id}/code`, `/compute/script/${s.Id}/secrets`, `/compute/script/${s.Id}/statistics`]) {
      expectErrorBody(await t.get(url, other.key), 404);
    }
    expectErrorBody(await t.del(`/compute/script/${s.Id}`, undefined, other.key), 404);
    expect((await t.get('/compute/script', other.key)).body.TotalItems).toBe(0);
    expectErrorBody(await t.get('/compute/script/999999'), 404);
    expectErrorBody(await t.post('/compute/script', { ScriptType: 7 }), 400);
    expectErrorBody(await t.post('/compute/script', { Name: 'm', ScriptType: 2, CreateLinkedPullZone: true }), 400);
    expectErrorBody(await t.post(`/compute/script/${s.Id}/variables/add`, { Name: '' }), 400);
    expectErrorBody(await t.get('/compute/script', null), 401);
  });

  it('answers statistics of a script that has not run as zeros', async () => {
    const s = (await t.post('/compute/script', { Name: 'stats', ScriptType: 1 })).body;
    const stats = await t.get(`/compute/script/${s.Id}/statistics?dateFrom=2025-12-30T00:00:00Z&dateTo=2026-01-01T00:00:00Z`);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ TotalRequestsServed: 0, TotalCpuUsed: 0, TotalMonthlyCost: 0, AverageCpuTimePerExecution: 0 });
    expect(Object.keys(stats.body.RequestsServedChart)).toHaveLength(3);
  });
});
