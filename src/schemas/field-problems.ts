/**
 * Turns schema validation errors (Ajv's) into the problems of the part 7 error body: one per field,
 * named as the client sent it. Shared by every plane that validates with these schemas, and by seed
 * files, whose problems are reported the same way.
 */
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from './error.js';

/** `/containerTemplates/0/imageDigest` → `containerTemplates[0].imageDigest`. */
export function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

const MAX_REPORTED = 20;

/** Turns Ajv's errors into one readable problem per field, named as the client sent it. */
export function fieldProblems(errors: ErrorObject[], context: string): FieldProblem[] {
  const byField = new Map<string, string>();
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    const missing = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : undefined;
    const field = fieldPath(e.instancePath, missing) || context;
    if (byField.has(field)) continue;
    byField.set(field, describe(e, field));
    if (byField.size >= MAX_REPORTED) break;
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

function describe(e: ErrorObject, field: string): string {
  const p = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `The ${field} field is required.`;
    case 'minimum':
    case 'maximum':
      if (typeof parent['minimum'] === 'number' && typeof parent['maximum'] === 'number')
        return `The field ${field} must be between ${parent['minimum']} and ${parent['maximum']}.`;
      return `The field ${field} must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${String(p['limit'])}.`;
    case 'minLength':
    case 'maxLength':
      if (typeof parent['minLength'] === 'number' && typeof parent['maxLength'] === 'number')
        return `The field ${field} must be a string with a length between ${parent['minLength']} and ${parent['maxLength']}.`;
      return `The field ${field} must have ${e.keyword === 'minLength' ? 'at least' : 'at most'} ${String(p['limit'])} characters.`;
    case 'pattern':
      return `The field ${field} does not match the required format ${String(p['pattern'])}.`;
    case 'enum':
      return `The field ${field} must be one of: ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'type':
      return `The field ${field} must be of type ${String(p['type'])}.`;
    case 'minItems':
    case 'maxItems':
      return `The field ${field} must have ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${String(p['limit'])} items.`;
    case 'uniqueItems':
      return `The field ${field} must not contain duplicates.`;
    case 'format':
      return `The field ${field} must be a valid ${String(p['format'])}.`;
    default:
      return `The field ${field} ${e.message ?? 'is invalid'}.`;
  }
}
