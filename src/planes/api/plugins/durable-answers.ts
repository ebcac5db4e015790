/**
 * A write is answered only once everything it wrote is durable — the operation and its audit entry
 * alike. Each write request carries a `Durability` in its principal: the services hand it to their
 * transactions, which then resolve as soon as their writes are visible (SQLite: its savepoint is
 * released) and leave their batch's disk sync to be waited for here, as the answer leaves. A
 * sequential client thus pays one sync per write instead of two: the audit entry, written between
 * the operation and the answer, joins the operation's batch. A write that turns out not durable
 * after all (the batch's COMMIT or sync failed) is answered 500, never 2xx.
 *
 * Registered after the audit hook: the audit entry must be handed in before the answer waits,
 * or the operation's batch would commit without it.
 */
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Durability } from '../../../store/types.js';
import { quickHook, quickSendHook } from './quick-hook.js';

export class PendingWrites implements Durability {
  private pending: Promise<void>[] = [];

  add(durable: Promise<void>): void {
    // Awaited in settled(); a request that never gets there (its client left) must not crash the process.
    durable.catch(() => undefined);
    this.pending.push(durable);
  }

  /** Rejects with the first failure; empties the list, so an error answer sent after it does not wait again. */
  settled(): Promise<unknown> | undefined {
    if (this.pending.length === 0) return undefined;
    const waiting = this.pending;
    this.pending = [];
    return waiting.length === 1 ? waiting[0] : Promise.all(waiting);
  }
}

const carryDurability = quickHook((request: FastifyRequest) => {
  // The principal is shared by every request of its key (the key cache): each write gets its own copy.
  if (request.principal) request.principal = { ...request.principal, durability: new PendingWrites() };
});

export function registerDurableAnswers(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    if (route.config?.access !== 'write') return;
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [carryDurability as preHandlerHookHandler, ...own];
  });
  scope.addHook(
    'onSend',
    quickSendHook((request, _reply, payload) => {
      const durability = request.principal?.durability;
      if (!(durability instanceof PendingWrites)) return;
      // A failure rejects: Fastify's error handling answers it (500, nothing leaked) in place of the 2xx.
      return durability.settled()?.then(() => payload);
    }),
  );
}
