/**
 * Edge rules of a pull zone, addressed by their GUID. A rule sent with the GUID of an existing rule
 * changes that rule in place (fields left out, or null, keep their value); any other rule is added
 * behind the existing ones. The zone lists its rules by OrderIndex, the order they run in; rules
 * with the same index keep the order they were added in.
 */
import { randomUUID } from 'node:crypto';
import type { EdgeRuleActionType, EdgeRuleT, EdgeRuleTriggerT, EdgeRuleTriggerType, PullZoneT } from '../../schemas/pull-zone.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import type { ZoneEditor } from './editor.js';

type MatchingType = EdgeRuleTriggerT['PatternMatchingType'];

export interface TriggerInput {
  Type: EdgeRuleTriggerType;
  PatternMatches?: string[] | null;
  PatternMatchingType?: MatchingType | null;
  Parameter1?: string | null;
}

export interface ExtraActionInput {
  ActionType: EdgeRuleActionType;
  ActionParameter1?: string | null;
  ActionParameter2?: string | null;
  ActionParameter3?: string | null;
}

/** An edge rule as sent: everything optional, ReadOnly not settable (the platform owns it). */
export interface EdgeRuleInput {
  Guid?: string | null;
  ActionType?: EdgeRuleActionType | null;
  ActionParameter1?: string | null;
  ActionParameter2?: string | null;
  ActionParameter3?: string | null;
  Triggers?: TriggerInput[] | null;
  ExtraActions?: ExtraActionInput[] | null;
  TriggerMatchingType?: MatchingType | null;
  Description?: string | null;
  Enabled?: boolean | null;
  OrderIndex?: number | null;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const trigger = (t: TriggerInput): EdgeRuleTriggerT => ({
  Type: t.Type,
  PatternMatches: t.PatternMatches ?? [],
  PatternMatchingType: t.PatternMatchingType ?? 0,
  Parameter1: t.Parameter1 ?? '',
});

const extraAction = (a: ExtraActionInput) => ({
  ActionType: a.ActionType,
  ActionParameter1: a.ActionParameter1 ?? '',
  ActionParameter2: a.ActionParameter2 ?? '',
  ActionParameter3: a.ActionParameter3 ?? '',
});

/** A new rule runs after every existing one unless the request places it. */
function newRule(guid: string, rules: readonly EdgeRuleT[], actionType: EdgeRuleActionType): EdgeRuleT {
  return {
    Guid: guid,
    ActionType: actionType,
    ActionParameter1: '',
    ActionParameter2: '',
    ActionParameter3: '',
    Triggers: [],
    ExtraActions: [],
    TriggerMatchingType: 0,
    Description: '',
    // A rule that was just added is meant to work; it is switched off only when asked.
    Enabled: true,
    OrderIndex: rules.reduce((max, r) => Math.max(max, r.OrderIndex + 1), 0),
    ReadOnly: false,
  };
}

/** What a new rule does is never guessed: without an ActionType it would silently force HTTPS (0). */
function actionOfNewRule(input: EdgeRuleInput): EdgeRuleActionType {
  if (input.ActionType == null) {
    throw errors.validation('ActionType', 'The ActionType field is required for a new edge rule.', 'pullzone.edgerule_action_required');
  }
  return input.ActionType;
}

function merged(rule: EdgeRuleT, input: EdgeRuleInput): EdgeRuleT {
  const { Guid: _guid, Triggers, ExtraActions, ...plain } = input;
  const next = { ...rule } as Record<string, unknown>;
  for (const [field, value] of Object.entries(plain)) if (value !== null && value !== undefined) next[field] = value;
  if (Triggers) next['Triggers'] = Triggers.map(trigger);
  if (ExtraActions) next['ExtraActions'] = ExtraActions.map(extraAction);
  return next as unknown as EdgeRuleT;
}

/** Stable, so rules with equal indexes keep their relative order. */
const inRunOrder = (rules: EdgeRuleT[]) => [...rules].sort((a, b) => a.OrderIndex - b.OrderIndex);

function ruleOf(zone: PullZoneT, guid: string): EdgeRuleT {
  const rule = zone.EdgeRules?.find((r) => r.Guid.toLowerCase() === guid.toLowerCase());
  if (!rule) throw errors.notFound('edge rule');
  if (rule.ReadOnly) throw errors.validation('edgeRuleId', 'The edge rule is maintained by the platform and cannot be changed.', 'pullzone.edgerule_read_only');
  return rule;
}

export class PullZoneEdgeRules {
  constructor(private readonly editor: ZoneEditor) {}

  /** Returns the rule as stored, so a caller that let the server pick the GUID learns it. */
  async addOrUpdate(principal: Principal, zoneId: number, input: EdgeRuleInput): Promise<EdgeRuleT> {
    const sent = input.Guid?.trim().toLowerCase() || undefined;
    if (sent !== undefined && !GUID.test(sent)) {
      throw errors.validation('Guid', 'The Guid must be a GUID such as 3f2504e0-4f89-11d3-9a0c-0305e82c3301.', 'pullzone.edgerule_guid_invalid');
    }
    // A GUID the zone does not know yet names a new rule, just like a generated one.
    const guid = sent ?? randomUUID();
    let saved = undefined as EdgeRuleT | undefined;
    await this.editor.edit(principal, zoneId, (zone) => {
      const rules = zone.EdgeRules ?? [];
      const existing = rules.find((r) => r.Guid.toLowerCase() === guid);
      if (existing?.ReadOnly) {
        throw errors.validation('Guid', 'The edge rule is maintained by the platform and cannot be changed.', 'pullzone.edgerule_read_only');
      }
      const rule = merged(existing ?? newRule(guid, rules, actionOfNewRule(input)), input);
      saved = rule;
      return { ...zone, EdgeRules: inRunOrder(existing ? rules.map((r) => (r === existing ? rule : r)) : [...rules, rule]) };
    });
    if (!saved) throw new Error('the zone editor skipped the change');
    return saved;
  }

  async delete(principal: Principal, zoneId: number, guid: string): Promise<void> {
    await this.editor.edit(principal, zoneId, (zone) => {
      const rule = ruleOf(zone, guid);
      return { ...zone, EdgeRules: (zone.EdgeRules ?? []).filter((r) => r !== rule) };
    });
  }

  async setEnabled(principal: Principal, zoneId: number, guid: string, enabled: boolean): Promise<void> {
    await this.editor.edit(principal, zoneId, (zone) => {
      const rule = ruleOf(zone, guid);
      if (rule.Enabled === enabled) return undefined;
      return { ...zone, EdgeRules: (zone.EdgeRules ?? []).map((r) => (r === rule ? { ...r, Enabled: enabled } : r)) };
    });
  }
}
