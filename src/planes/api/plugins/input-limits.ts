/**
 * Shape limits on parsed JSON bodies, checked before validation and before anything else walks
 * the body: code that recurses over JSON (serializers, deep copies, `JSON.stringify` on the way
 * to the store) would otherwise let one deeply nested body exhaust the stack. The body-size limit
 * bounds the total work; these bound its shape. The walk itself is iterative, one visit per value.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import { fieldPath } from '../../../schemas/field-problems.js';
import { quickHook } from './quick-hook.js';

export const INPUT_LIMITS = {
  /** Nested objects and arrays; the body itself is level 1. */
  maxDepth: 32,
  maxArrayItems: 10_000,
  /** Characters per string value or property name. */
  maxStringLength: 65_536,
} as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route whose strings may be longer (a script's code): its own bound on string length. */
    maxStringLength?: number;
  }
}

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  segment: string;
}

/** `a.b[2]`, rebuilt only when a limit is hit. */
function pathOf(visit: Visit): string {
  const segments: string[] = [];
  for (let v: Visit | undefined = visit; v?.parent; v = v.parent) segments.push(v.segment);
  const pointer = segments
    .reverse()
    .map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
  return fieldPath(pointer) || 'body';
}

const tooLarge = (visit: Visit, message: string) => new AppError('validation', message, 'input_limit', [{ field: pathOf(visit), message }]);

/** The first limit the value breaks, as the 400 to answer; undefined when it keeps them all. */
export function checkInputLimits(
  body: unknown,
  limits: { maxDepth: number; maxArrayItems: number; maxStringLength: number } = INPUT_LIMITS,
): AppError | undefined {
  const stack: Visit[] = [{ value: body, depth: 1, parent: undefined, segment: '' }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (typeof value === 'string') {
      if (value.length > limits.maxStringLength) return tooLarge(visit, `Strings are limited to ${limits.maxStringLength} characters.`);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.maxDepth) return tooLarge(visit, `Bodies may nest at most ${limits.maxDepth} levels deep.`);
    if (Array.isArray(value)) {
      if (value.length > limits.maxArrayItems) return tooLarge(visit, `Arrays are limited to ${limits.maxArrayItems} items.`);
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, parent: visit, segment: String(i) });
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (key.length > limits.maxStringLength) return tooLarge(visit, `Property names are limited to ${limits.maxStringLength} characters.`);
      stack.push({ value: child, depth: depth + 1, parent: visit, segment: key });
    }
  }
  return undefined;
}

export function registerInputLimits(app: FastifyInstance): void {
  app.addHook(
    'preValidation',
    quickHook((request) => {
      if (request.body === undefined || request.body === null) return;
      const longer = request.routeOptions.config.maxStringLength;
      const problem = checkInputLimits(request.body, longer === undefined ? INPUT_LIMITS : { ...INPUT_LIMITS, maxStringLength: longer });
      if (problem) throw problem;
    }),
  );
}
