/**
 * The one error type the domain raises. Each code maps to exactly one HTTP status (see
 * planes/common/errors.ts); the `key` mirrors the platform's `ErrorKey` so clients can branch on it.
 */
export type ErrorCode =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable';

export type { FieldProblem } from '../schemas/error.js';
import type { FieldProblem } from '../schemas/error.js';
import { StoreUnavailableError } from '../store/errors.js';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly key: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** "DNS zone" → "dnszone", the platform's style of error key prefix. */
const keyOf = (what: string) => what.replace(/\s+/g, '').toLowerCase();

/** Factory table: call sites read as sentences (`errors.notFound('pull zone')`). */
export const errors = {
  validation: (field: string, message: string, key = 'validation_error') => new AppError('validation', message, key, [{ field, message }]),
  invalid: (message: string, key = 'validation_error') => new AppError('validation', message, key),
  unauthorized: (message = 'The request is missing a valid AccessKey header.') => new AppError('unauthorized', message, 'unauthorized'),
  forbidden: (message: string, key = 'forbidden') => new AppError('forbidden', message, key),
  notFound: (what: string) => new AppError('not_found', `The requested ${what} was not found.`, `${keyOf(what)}.not_found`),
  nameTaken: (field: string, what: string, name: string) => {
    const message = `The ${what} ${field === 'Name' ? 'name' : field.toLowerCase()} "${name}" is already taken.`;
    return new AppError('validation', message, `${keyOf(what)}.name_taken`, [{ field, message }]);
  },
  conflict: (message: string, key = 'conflict') => new AppError('conflict', message, key),
  payloadTooLarge: (message: string, key = 'payload_too_large') => new AppError('payload_too_large', message, key),
  unprocessable: (message: string, key = 'unprocessable') => new AppError('unprocessable', message, key),
  rateLimited: (message: string, key = 'rate_limited') => new AppError('rate_limited', message, key),
  unavailable: (message = 'The store is unavailable; retry shortly.') => new AppError('unavailable', message, 'unavailable'),
};

/** The domain's error for what went wrong, when it has one: its own, or the store's "unavailable" in its words. */
export function appErrorOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof StoreUnavailableError) return errors.unavailable();
  return undefined;
}
