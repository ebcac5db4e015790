/**
 * Zones, requests and edge rules for the policy's tests. A zone starts as the platform creates one
 * (src/domain/pull-zones/defaults.ts) and each test turns on the one setting it is about.
 */
import { newPullZone } from '../../../src/domain/pull-zones/defaults.js';
import { createEdgePolicy, type EdgePolicyOptions } from '../../../src/domain/edge/policy/index.js';
import type { EdgeRuleExtraActionT, EdgeRuleT, EdgeRuleTriggerT, PullZoneT } from '../../../src/schemas/pull-zone.js';
import type { EdgePolicy, EdgeRequest, RuleEffects, Verdict } from '../../../src/domain/edge/types.js';

let nextId = 1;

export const KEY = 'zone-secret-key';

export function zoneWith(settings: Partial<PullZoneT> = {}): PullZoneT {
  const id = nextId++;
  const base = newPullZone({
    id,
    userId: 'u1',
    name: `zone${id}`,
    originUrl: 'http://origin.test',
    type: 0,
    systemHostname: { id, value: `zone${id}.edgeplane.test` },
    zoneSecurityKey: KEY,
  });
  return { ...base, ...settings };
}

export function request(overrides: Partial<EdgeRequest> = {}): EdgeRequest {
  return {
    method: 'GET',
    scheme: 'http',
    host: 'cdn.example.com',
    path: '/img/cat.jpg',
    query: '',
    headers: {},
    clientIp: '203.0.113.9',
    ...overrides,
  };
}

/** A request for a URL path with its query (`/a/b.jpg?x=1`). */
export function get(pathAndQuery: string, overrides: Partial<EdgeRequest> = {}): EdgeRequest {
  const q = pathAndQuery.indexOf('?');
  return request({ path: q < 0 ? pathAndQuery : pathAndQuery.slice(0, q), query: q < 0 ? '' : pathAndQuery.slice(q + 1), ...overrides });
}

export function trigger(Type: EdgeRuleTriggerT['Type'], PatternMatches: string[], more: Partial<EdgeRuleTriggerT> = {}): EdgeRuleTriggerT {
  return { Type, PatternMatches, PatternMatchingType: 0, Parameter1: '', ...more };
}

export function action(ActionType: EdgeRuleExtraActionT['ActionType'], p1 = '', p2 = '', p3 = ''): EdgeRuleExtraActionT {
  return { ActionType, ActionParameter1: p1, ActionParameter2: p2, ActionParameter3: p3 };
}

let nextRule = 1;

export function rule(main: EdgeRuleExtraActionT, triggers: EdgeRuleTriggerT[], more: Partial<EdgeRuleT> = {}): EdgeRuleT {
  return {
    Guid: `00000000-0000-4000-8000-${String(nextRule++).padStart(12, '0')}`,
    ...main,
    Triggers: triggers,
    ExtraActions: [],
    TriggerMatchingType: 0,
    Description: '',
    Enabled: true,
    OrderIndex: 0,
    ReadOnly: false,
    ...more,
  };
}

/** A rule that matches every request (a Url trigger `*`). */
export const always = (main: EdgeRuleExtraActionT, more: Partial<EdgeRuleT> = {}) => rule(main, [trigger(0, ['*'])], more);

export const NOW = new Date('2026-01-01T00:00:00Z');

export function policy(options: EdgePolicyOptions = {}): EdgePolicy {
  return createEdgePolicy(options);
}

/** onRequest with a fresh policy: the verdict and the effects. */
export function decide(zone: PullZoneT, req: EdgeRequest, options: EdgePolicyOptions = {}, now = NOW): { verdict: Verdict; effects: RuleEffects } {
  return policy(options).onRequest(zone, req, now);
}

export const verdictOf = (zone: PullZoneT, req: EdgeRequest, options: EdgePolicyOptions = {}, now = NOW): Verdict => decide(zone, req, options, now).verdict;

export const CONTINUE: Verdict = { kind: 'continue' };
export const refused = (reason: string, status = 403): Verdict => ({ kind: 'refuse', status, reason });

/** onRequest then onResponse on an answer from the origin: what the client gets. */
export function answerFor(
  zone: PullZoneT,
  req: EdgeRequest,
  origin: { status: number; headers: Record<string, string> } = { status: 200, headers: { 'content-type': 'image/jpeg' } },
  options: EdgePolicyOptions = {},
): { verdict: Verdict; status: number; headers: Record<string, string>; effects: RuleEffects } {
  const p = policy(options);
  const { verdict, effects } = p.onRequest(zone, req, NOW);
  const answer = p.onResponse(zone, req, origin, effects);
  return { verdict, effects, ...answer };
}
