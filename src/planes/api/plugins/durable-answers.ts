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
 * or the operation's batch would commit without it. (The idempotency hook, which runs before both,
 * waits for the writes itself: it must not keep a 2xx for a key whose write was lost.)
 */
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Durability } from '../../../store/types.js';
import { quickHook, quickSendHook } from './quick-hook.js';

export class PendingWrites implements Durability {
  private readonly pending: Promise<void>[] = [];
  /** The answer already reported a failure: the error answer sent in its place must not fail again. */
  private failureAnswered = false;
  lost = false;

  markLost(): void {
    this.lost = true;
  }

  add(durable: Promise<void>): void {
    // Awaited as the answer leaves; a request that never gets there (its client left) must not crash the process.
    durable.catch(() => undefined);
    this.pending.push(durable);
  }

  /** Resolves once everything written so far is durable, rejects with the first failure; undefined when nothing is pending. */
  settled(): Promise<void> | undefined {
    if (this.pending.length === 0) return undefined;
    return Promise.all(this.pending).then(() => undefined);
  }

  /** `settled()` for the answer itself: a failure is reported once. */
  beforeAnswer(): Promise<void> | undefined {
    if (this.failureAnswered) return undefined;
    return this.settled()?.catch((error: unknown) => {
      this.failureAnswered = true;
      throw error;
    });
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
      return durability.beforeAnswer()?.then(() => payload);
    }),
  );
}
