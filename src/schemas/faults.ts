/** Fault injection rules (an edgeplane operator extension): the body of `PUT /_edgeplane/faults` and of `EDGEPLANE_FAULTS`. */
import { Type, type Static } from 'typebox';
import { IntEnum } from './common.js';
import type { FieldProblem } from './error.js';

export const FAULT_STATUSES = [429, 500, 503] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

export const FaultRule = Type.Object(
  {
    method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,16}$', description: 'HTTP method the rule applies to, any case; every method when left out.' })),
    path: Type.String({
      minLength: 1,
      maxLength: 1000,
      pattern: '^[/*]',
      description:
        'Requests the rule applies to: a route pattern (`/pullzone/:id`, any parameter name), a concrete path (`/pullzone/7`), or a glob where `*` spans anything (`/mc/apps/*`, `*`). Case-insensitive.',
    }),
    status: Type.Optional(
      IntEnum(FAULT_STATUSES, { description: 'Answer matching requests with this status and the usual error body instead of serving them.' }),
    ),
    retryAfterSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 86400,
        description: 'Value of the `Retry-After` header sent with the status. A 429 always carries one (default 1).',
      }),
    ),
    latencyMs: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 60000, description: 'Delay added before the request is served (or failed), in milliseconds.' }),
    ),
    probability: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 1, description: 'Share of matching requests the rule fires on, 0 to 1.' })),
  },
  { additionalProperties: false },
);
export type FaultRuleT = Static<typeof FaultRule>;

export const FaultRules = Type.Object({
  rules: Type.Array(FaultRule, {
    maxItems: 100,
    description: 'Tried in order for every request outside /_edgeplane/; each rolls its own probability and the first that fires applies.',
  }),
});

/** A rule the schema accepts but that makes no sense; `field` is relative to the rule (`''` for itself). */
export function ruleProblem(rule: FaultRuleT): FieldProblem | undefined {
  if (rule.status === undefined && rule.latencyMs === undefined) {
    return { field: '', message: 'A rule needs a status, a latencyMs, or both.' };
  }
  if (rule.retryAfterSeconds !== undefined && rule.status === undefined) {
    return { field: '.retryAfterSeconds', message: 'retryAfterSeconds goes with a status; this rule only adds latency.' };
  }
  return undefined;
}
