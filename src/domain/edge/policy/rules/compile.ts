/**
 * A zone's edge rules, compiled once: the enabled ones in OrderIndex order (rules with the same
 * index keep their stored order), each with its triggers turned into one predicate and its main
 * action followed by its ExtraActions. A rule with a ResponseHeader or StatusCode trigger waits
 * for the answer (response phase); every other rule runs before the cache is looked at.
 */
import type { EdgeRuleT } from '../../../../schemas/pull-zone.js';
import type { RuleEffects, Verdict } from '../../types.js';
import { type ActionOptions, type CompiledAction, compileAction } from './actions.js';
import { combineTriggers, compileTrigger, type MatchContext, type Predicate, RESPONSE_TRIGGERS } from './triggers.js';

export interface CompiledRule {
  guid: string;
  matches: Predicate;
  actions: CompiledAction[];
}

export interface CompiledRules {
  request: CompiledRule[];
  response: CompiledRule[];
  /** Request-phase rules that set a connection or request-rate limit, checked by admit(). */
  limits: CompiledRule[];
}

function compileRule(rule: EdgeRuleT, options: ActionOptions): CompiledRule {
  return {
    guid: rule.Guid,
    matches: combineTriggers(rule.Triggers.map(compileTrigger), rule.TriggerMatchingType),
    actions: [rule, ...rule.ExtraActions].map((action) => compileAction(action, options)),
  };
}

export function compileRules(rules: readonly EdgeRuleT[] | null, options: ActionOptions): CompiledRules {
  const enabled = [...(rules ?? [])].filter((r) => r.Enabled).sort((a, b) => a.OrderIndex - b.OrderIndex);
  const compiled: CompiledRules = { request: [], response: [], limits: [] };
  for (const rule of enabled) {
    const one = compileRule(rule, options);
    if (rule.Triggers.some((t) => RESPONSE_TRIGGERS.has(t.Type))) compiled.response.push(one);
    else {
      compiled.request.push(one);
      if (one.actions.some((a) => a.connectionLimit !== undefined || a.requestLimit !== undefined)) compiled.limits.push(one);
    }
  }
  return compiled;
}

/** Runs the request-phase rules; the first redirect or block ends the request. */
export function runRequestRules(rules: readonly CompiledRule[], effects: RuleEffects, ctx: MatchContext): Verdict | undefined {
  for (const rule of rules) {
    if (!rule.matches(ctx)) continue;
    for (const action of rule.actions) {
      const verdict = action.request(effects, ctx);
      if (verdict) return verdict;
    }
  }
  return undefined;
}

/** Runs the response-phase rules' actions that still apply to an answer (headers, status, browser cache). */
export function runResponseRules(rules: readonly CompiledRule[], effects: RuleEffects, ctx: MatchContext): void {
  for (const rule of rules) {
    if (!rule.matches(ctx)) continue;
    for (const action of rule.actions) action.response?.(effects, ctx);
  }
}

/** The limits the first matching rules set for this request (each kind from the first rule that sets it). */
export function ruleLimits(
  rules: readonly CompiledRule[],
  ctx: MatchContext,
): { connections?: { limit: number; rule: string }; requests?: { perSecond: number; burst: number; rule: string } } {
  let connections: { limit: number; rule: string } | undefined;
  let requests: { perSecond: number; burst: number; rule: string } | undefined;
  for (const rule of rules) {
    if (connections && requests) break;
    if (!rule.matches(ctx)) continue;
    for (const action of rule.actions) {
      if (!connections && action.connectionLimit !== undefined) connections = { limit: action.connectionLimit, rule: rule.guid };
      if (!requests && action.requestLimit) requests = { ...action.requestLimit, rule: rule.guid };
    }
  }
  return { ...(connections ? { connections } : {}), ...(requests ? { requests } : {}) };
}
