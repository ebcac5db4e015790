/**
 * Applies the operator's fault rules (domain/faults) to incoming requests. It runs as the first
 * hook, before authentication and before the body is read, so a faulted request touches no store
 * and changes nothing. Operator routes are exempt: a catch-all rule must not lock the operator out
 * of removing it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultInjector } from '../../../domain/faults/injector.js';
import type { FaultStatus } from '../../../schemas/faults.js';
import { sendError } from '../../common/errors.js';
import { quickHook } from './quick-hook.js';

/** The wording of the server's own failures, so a client cannot tell an injected one apart. */
const ANSWERS: Record<FaultStatus, [detail: string, key: string]> = {
  429: ['Too many requests; retry later.', 'rate_limited'],
  500: ['An unexpected error occurred.', 'internal_error'],
  503: ['The service is temporarily unavailable; retry shortly.', 'unavailable'],
};

export const isOperatorRoute = (route: string | undefined) => route?.startsWith('/_edgeplane/') === true;

export function registerFaults(app: FastifyInstance, faults: FaultInjector): void {
  app.addHook(
    'onRequest',
    quickHook((request, reply) => (faults.active ? inject(request, reply) : undefined)),
  );
  const inject = async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url;
    if (isOperatorRoute(route)) return;
    const fault = faults.decide(request.method, route, request.url.split('?')[0] ?? request.url);
    if (!fault) return;
    request.log.info({ faultRule: fault.rule, faultStatus: fault.status, faultLatencyMs: fault.latencyMs }, 'injected fault');
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.status === undefined) return;
    if (fault.retryAfterSeconds !== undefined) reply.header('retry-after', String(fault.retryAfterSeconds));
    const [detail, key] = ANSWERS[fault.status];
    return sendError(request, reply, fault.status, detail, key);
  };
}
