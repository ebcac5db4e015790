import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EdgeRule, type EdgeRuleT } from '../../../src/schemas/pull-zone.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, createZone, expectShape, readOnlyKey, readZone } from './support.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const addOrUpdate = (zoneId: number, body: Record<string, unknown>, key?: string | null) => t.post(`/pullzone/${zoneId}/edgerules/addOrUpdate`, body, key);
const deleteRule = (zoneId: number, guid: string, key?: string | null) => t.del(`/pullzone/${zoneId}/edgerules/${guid}`, undefined, key);
const setEnabled = (zoneId: number, guid: string, body: Record<string, unknown>, key?: string | null) =>
  t.post(`/pullzone/${zoneId}/edgerules/${guid}/setEdgeRuleEnabled`, body, key);
const rules = async (zoneId: number) => (await readZone(t, zoneId)).EdgeRules!;

const redirect = {
  ActionType: 1,
  ActionParameter1: 'https://example.com/new',
  Triggers: [{ Type: 0, PatternMatches: ['*/old/*'] }],
  Description: 'Move old pages',
};

describe('POST /pullzone/{pullZoneId}/edgerules/addOrUpdate', () => {
  it('adds a rule with a generated Guid and defaults for what was left out, answering 201 with it', async () => {
    const zone = await createZone(t);
    const res = await addOrUpdate(zone.Id, redirect);
    expect(res.status).toBe(201);
    expectShape(EdgeRule, res.body);
    expect(res.body).toEqual({
      Guid: expect.stringMatching(GUID),
      ActionType: 1,
      ActionParameter1: 'https://example.com/new',
      ActionParameter2: '',
      ActionParameter3: '',
      Triggers: [{ Type: 0, PatternMatches: ['*/old/*'], PatternMatchingType: 0, Parameter1: '' }],
      ExtraActions: [],
      TriggerMatchingType: 0,
      Description: 'Move old pages',
      Enabled: true,
      OrderIndex: 0,
      ReadOnly: false,
    });
    expect(await rules(zone.Id)).toEqual([res.body]);
    await t.restart();
    expect(await rules(zone.Id)).toEqual([res.body]);
  });

  it('updates the rule with the Guid sent, in place, keeping the fields left out', async () => {
    const zone = await createZone(t);
    const first = (await addOrUpdate(zone.Id, redirect)).body as EdgeRuleT;
    const second = (await addOrUpdate(zone.Id, { ActionType: 4, Description: 'Block admin' })).body as EdgeRuleT;
    const res = await addOrUpdate(zone.Id, {
      guid: first.Guid.toUpperCase(),
      ActionParameter1: 'https://example.com/newer',
      Enabled: false,
      ActionParameter2: null,
      ExtraActions: [{ ActionType: 5, ActionParameter1: 'X-Moved', ActionParameter2: 'yes' }],
    });
    expect(res.status).toBe(201);
    const updated = {
      ...first,
      ActionParameter1: 'https://example.com/newer',
      Enabled: false,
      ExtraActions: [{ ActionType: 5, ActionParameter1: 'X-Moved', ActionParameter2: 'yes', ActionParameter3: '' }],
    };
    expect(res.body).toEqual(updated);
    expect(await rules(zone.Id)).toEqual([updated, second]);
  });

  it('lists rules by OrderIndex; new rules go last unless placed, equal indexes keep their order', async () => {
    const zone = await createZone(t);
    const a = (await addOrUpdate(zone.Id, { ActionType: 0, Description: 'a' })).body;
    const b = (await addOrUpdate(zone.Id, { ActionType: 0, Description: 'b' })).body;
    expect([a.OrderIndex, b.OrderIndex]).toEqual([0, 1]);
    await addOrUpdate(zone.Id, { ActionType: 0, Description: 'first', OrderIndex: -1 });
    await addOrUpdate(zone.Id, { ActionType: 0, Description: 'also-1', OrderIndex: 1 });
    await addOrUpdate(zone.Id, { Guid: a.Guid, OrderIndex: 5 });
    const e = (await addOrUpdate(zone.Id, { ActionType: 0, Description: 'e' })).body;
    expect(e.OrderIndex).toBe(6);
    expect((await rules(zone.Id)).map((r) => r.Description)).toEqual(['first', 'b', 'also-1', 'a', 'e']);
  });

  it('adds a rule under a Guid the zone does not know yet', async () => {
    const zone = await createZone(t);
    const guid = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
    expect((await addOrUpdate(zone.Id, { ...redirect, Guid: guid })).body.Guid).toBe(guid.toLowerCase());
    expect((await addOrUpdate(zone.Id, { Guid: guid, Description: 'renamed' })).status).toBe(201);
    expect((await rules(zone.Id)).map((r) => [r.Guid, r.Description])).toEqual([[guid.toLowerCase(), 'renamed']]);
  });

  it('checks enums, types and the Guid; a new rule needs an ActionType', async () => {
    const zone = await createZone(t);
    for (const [body, field] of [
      [{ ...redirect, ActionType: 35 }, 'ActionType'],
      [{ ...redirect, ActionType: 38 }, 'ActionType'],
      [{ ...redirect, TriggerMatchingType: 3 }, 'TriggerMatchingType'],
      [{ ...redirect, Triggers: [{ Type: 14 }] }, 'Triggers[0].Type'],
      [{ ...redirect, Triggers: [{ PatternMatches: ['x'] }] }, 'Triggers[0].Type'],
      [{ ...redirect, Triggers: [{ Type: 0, PatternMatchingType: 5 }] }, 'Triggers[0].PatternMatchingType'],
      [{ ...redirect, ExtraActions: [{ ActionParameter1: 'x' }] }, 'ExtraActions[0].ActionType'],
      [{ ...redirect, Enabled: 'yes' }, 'Enabled'],
      [{ ...redirect, OrderIndex: 2147483648 }, 'OrderIndex'],
      [{ ...redirect, Guid: 'not-a-guid' }, 'Guid'],
      [{ Description: 'no action' }, 'ActionType'],
    ] as const) {
      const res = await addOrUpdate(zone.Id, body);
      expectErrorBody(res, 400, `/pullzone/${zone.Id}/edgerules/addOrUpdate`);
      expect(errorFields(res), JSON.stringify(body)).toEqual([field]);
    }
    expect(await rules(zone.Id)).toEqual([]);
  });

  it('refuses to change a rule the platform maintains', async () => {
    const zone = await createZone(t);
    const rule = (await addOrUpdate(zone.Id, redirect)).body as EdgeRuleT;
    const repo = t.app.services.pullZones.zones;
    const stored = await repo.get(t.store, t.accountId, zone.Id);
    await repo.update(t.store, t.accountId, stored, { ...stored.doc, EdgeRules: [{ ...rule, ReadOnly: true }] });
    expectErrorBody(await addOrUpdate(zone.Id, { Guid: rule.Guid, Enabled: false }), 400);
    expectErrorBody(await setEnabled(zone.Id, rule.Guid, { Value: false }), 400);
    expectErrorBody(await deleteRule(zone.Id, rule.Guid), 400);
    expect(await rules(zone.Id)).toEqual([{ ...rule, ReadOnly: true }]);
  });

  it('answers 404 for unknown and foreign zones; needs a writing key', async () => {
    const zone = await createZone(t);
    expectErrorBody(await addOrUpdate(999999, redirect), 404, '/pullzone/999999/edgerules/addOrUpdate');
    const other = await t.newAccount();
    expectErrorBody(await addOrUpdate(zone.Id, redirect, other.key), 404);
    expectErrorBody(await addOrUpdate(zone.Id, redirect, null), 401);
    expectErrorBody(await addOrUpdate(zone.Id, redirect, 'wrong'), 401);
    expectErrorBody(await addOrUpdate(zone.Id, redirect, await readOnlyKey(t)), 403);
    expect(errorFields(await addOrUpdate(0, redirect))).toEqual(['pullZoneId']);
    expect(await rules(zone.Id)).toEqual([]);
  });
});

describe('DELETE /pullzone/{pullZoneId}/edgerules/{edgeRuleId}', () => {
  it('deletes the rule; deleting it again is a 404', async () => {
    const zone = await createZone(t);
    const a = (await addOrUpdate(zone.Id, redirect)).body as EdgeRuleT;
    const b = (await addOrUpdate(zone.Id, { ActionType: 4 })).body as EdgeRuleT;
    const res = await deleteRule(zone.Id, a.Guid.toUpperCase());
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect(await rules(zone.Id)).toEqual([b]);
    expectErrorBody(await deleteRule(zone.Id, a.Guid), 404);
    expectErrorBody(await deleteRule(zone.Id, 'unknown'), 404);
  });

  it('answers 404 for unknown and foreign zones; needs a writing key', async () => {
    const zone = await createZone(t);
    const rule = (await addOrUpdate(zone.Id, redirect)).body as EdgeRuleT;
    const other = await t.newAccount();
    const theirs = await createZone(t, 'theirs', {}, other.key);
    expectErrorBody(await deleteRule(999999, rule.Guid), 404);
    expectErrorBody(await deleteRule(zone.Id, rule.Guid, other.key), 404);
    expectErrorBody(await deleteRule(theirs.Id, rule.Guid, other.key), 404);
    expectErrorBody(await deleteRule(zone.Id, rule.Guid, null), 401);
    expectErrorBody(await deleteRule(zone.Id, rule.Guid, await readOnlyKey(t)), 403);
    expect(await rules(zone.Id)).toEqual([rule]);
  });
});

describe('POST /pullzone/{pullZoneId}/edgerules/{edgeRuleId}/setEdgeRuleEnabled', () => {
  it('disables and enables the rule', async () => {
    const zone = await createZone(t);
    const rule = (await addOrUpdate(zone.Id, redirect)).body as EdgeRuleT;
    const res = await setEnabled(zone.Id, rule.Guid, { Id: 12, Value: false });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect(await rules(zone.Id)).toEqual([{ ...rule, Enabled: false }]);
    expect((await setEnabled(zone.Id, rule.Guid, { value: false })).status).toBe(204);
    expect((await setEnabled(zone.Id, rule.Guid, { Value: true })).status).toBe(204);
    expect(await rules(zone.Id)).toEqual([rule]);
  });

  it('validates the body; 404 for unknown rules and zones; needs a writing key', async () => {
    const zone = await createZone(t);
    const rule = (await addOrUpdate(zone.Id, redirect)).body as EdgeRuleT;
    expect(errorFields(await setEnabled(zone.Id, rule.Guid, {}))).toEqual(['Value']);
    expect(errorFields(await setEnabled(zone.Id, rule.Guid, { Value: 'false' }))).toEqual(['Value']);
    expect(errorFields(await setEnabled(zone.Id, rule.Guid, { Value: false, Id: 'x' }))).toEqual(['Id']);
    expectErrorBody(await setEnabled(zone.Id, '3f2504e0-4f89-11d3-9a0c-0305e82c3301', { Value: false }), 404);
    expectErrorBody(await setEnabled(999999, rule.Guid, { Value: false }), 404);
    const other = await t.newAccount();
    expectErrorBody(await setEnabled(zone.Id, rule.Guid, { Value: false }, other.key), 404);
    expectErrorBody(await setEnabled(zone.Id, rule.Guid, { Value: false }, null), 401);
    expectErrorBody(await setEnabled(zone.Id, rule.Guid, { Value: false }, await readOnlyKey(t)), 403);
    expect(await rules(zone.Id)).toEqual([rule]);
  });
});
