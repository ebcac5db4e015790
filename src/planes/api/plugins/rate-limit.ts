/**
 * The two throttles of security/throttle.ts put in front of the API. Registered on the root app
 * before any route scope, so its hooks run around every scope's authentication:
 *
 * - onRequest (before authentication): an address that sent too many distinct wrong credentials
 *   is refused before its key is even looked up, so guessing gets no answer about the guess;
 * - preParsing (after authentication, before the body is read): one token per request from the
 *   calling key's bucket, so a client over its rate costs no body parsing and no store work;
 * - onResponse: a 401 to a request that carried a credential counts as a failure of its address.
 *
 * Counters live in this instance's memory (see throttle.ts). The client address is the socket's,
 * so behind a reverse proxy every client shares the proxy's address.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import type { Clock } from '../../../domain/principal.js';
import { FailureWindows, TokenBuckets, type Verdict } from '../../../security/throttle.js';
import type { FrontThrottle } from '../front-door.js';
import { quickHook } from './quick-hook.js';

export interface RateLimitOptions {
  /** Steady requests per second per API key; 0 turns the per-key limit off. */
  perKeyPerSecond: number;
  /** Distinct wrong credentials per address per window; 0 turns the throttle off. */
  authFailureLimit: number;
  clock: Clock;
}

export const AUTH_FAILURE_WINDOW_MS = 60_000;

/** Thrown rather than sent, so the one error handler writes the body (it keeps the header). */
function refusal(reply: FastifyReply, verdict: Extract<Verdict, { allowed: false }>, detail: string): AppError {
  reply.header('retry-after', String(verdict.retryAfterSeconds));
  return new AppError('rate_limited', detail, 'rate_limited');
}

/** The credential a request presented: an API key, or the operator's bearer token. */
function presentedCredential(request: FastifyRequest): string | undefined {
  const key = request.headers['accesskey'];
  if (typeof key === 'string' && key.length > 0) return key;
  const auth = request.headers.authorization;
  return auth && auth.length > 0 ? auth : undefined;
}

/** A refusal the front door already took for a request, answered by the slow path without a second take. */
const REFUSED = Symbol('rate-limit-refusal');
type Marked = IncomingMessage & { [REFUSED]?: Extract<Verdict, { allowed: false }> };

/** Registers the hooks; returns the same checks for the front door, which answers before them. */
export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): FrontThrottle {
  const now = () => options.clock().getTime();
  const throttle: FrontThrottle = { addressRefused: () => false, take: () => true };

  if (options.authFailureLimit > 0) {
    const failures = new FailureWindows(options.authFailureLimit, AUTH_FAILURE_WINDOW_MS, now);
    app.addHook(
      'onRequest',
      quickHook((request, reply) => {
        if (presentedCredential(request) === undefined) return;
        const verdict = failures.check(request.ip);
        if (!verdict.allowed) throw refusal(reply, verdict, 'Too many failed authentication attempts from this address; retry later.');
      }),
    );
    throttle.addressRefused = (ip) => !failures.check(ip).allowed;
    app.addHook(
      'onResponse',
      quickHook((request, reply) => {
        const credential = presentedCredential(request);
        if (reply.statusCode === 401 && credential !== undefined) failures.recordFailure(request.ip, credential);
      }),
    );
  }

  if (options.perKeyPerSecond > 0) {
    const buckets = new TokenBuckets(options.perKeyPerSecond, options.perKeyPerSecond * 2, now);
    app.addHook('preParsing', async (request, reply) => {
      // Set by the API scopes' authentication; operator and public routes have no key to count.
      const principal = request.principal as typeof request.principal | null;
      if (!principal) return;
      // The seed's own requests, made by the server itself, are not a client to slow down.
      if (request.headers['x-edgeplane-internal'] === app.resetGate.internalToken) return;
      const verdict = (request.raw as Marked)[REFUSED] ?? buckets.take(String(principal.keyId));
      if (!verdict.allowed) throw refusal(reply, verdict, 'Too many requests for this API key; retry later.');
    });
    throttle.take = (request, keyId) => {
      const verdict = buckets.take(String(keyId));
      if (verdict.allowed) return true;
      (request as Marked)[REFUSED] = verdict;
      return false;
    };
  }
  return throttle;
}
