/**
 * `Idempotency-Key` on POST and PUT: a client that retries a request (a timeout, a dropped
 * connection) with the same key gets the first answer again instead of a second resource.
 *
 * - Per account. The first successful (2xx) response, status and body, is kept for 24 hours; a
 *   retry with the same method, path and body gets it back with `Idempotent-Replayed: true`.
 * - The same key with another request is a 422; a retry while the first is still running, a 409.
 * - A request that fails (4xx, 5xx) leaves nothing behind: it created nothing, so a retry runs
 *   afresh, and may change its body.
 *
 * The record cannot share the transaction of the work it guards (that belongs to each domain
 * service), so the guarantee is: first completed response wins. The key is claimed before the
 * handler runs and the response recorded before it is sent, so a client never sees a response
 * whose retry would run again. If the process dies between the handler's commit and the record,
 * the claim is abandoned; after IN_FLIGHT_LEASE_MS a retry runs the request again.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../../../domain/errors.js';
import type { Clock } from '../../../domain/principal.js';
import type { Secrets } from '../../../security/secrets.js';
import type { Store } from '../../../store/types.js';
import { quickHook, quickSendHook } from './quick-hook.js';
import { PendingWrites } from './durable-answers.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Longer than any request can run (statements time out within seconds). */
export const IN_FLIGHT_LEASE_MS = 60_000;
const PURGE_EVERY_MS = 10 * 60 * 1000;
const METHODS = new Set(['POST', 'PUT']);
/** Printable ASCII, as for any header value clients generate (UUIDs, random tokens). */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  store: Store;
  secrets: Secrets;
  clock: Clock;
}

interface Pending {
  accountId: number;
  key: string;
  fingerprint: string;
}

interface Claim {
  accountId: number;
  key: string;
  claimedAt: number;
}

/**
 * JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request.
 * Recursive: input-limits.ts has bounded the body's depth before this runs.
 */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    ) ?? ''
  );
}

/** What makes two requests "the same": method, path with query, and body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonical(body)}`)
    .digest('base64url');
}

const field = (message: string) => [{ field: 'Idempotency-Key', message }];

export function registerIdempotency(app: FastifyInstance, { store, secrets, clock }: IdempotencyOptions): void {
  const pending = new WeakMap<FastifyRequest, Pending>();
  const claims = new WeakMap<FastifyRequest, Claim>();
  let lastPurge = Number.NEGATIVE_INFINITY;

  // The body as the client sent it: before case-insensitive binding and validation defaults.
  app.addHook(
    'preValidation',
    quickHook((request) => {
      if (!METHODS.has(request.method)) return;
      const key = request.headers[IDEMPOTENCY_HEADER];
      const principal = request.principal as typeof request.principal | null;
      if (key === undefined || !principal) return;
      if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
        const message = 'The Idempotency-Key header must be 1 to 255 printable ASCII characters, sent once.';
        throw new AppError('validation', message, 'idempotency_key_invalid', field(message));
      }
      pending.set(request, { accountId: principal.accountId, key, fingerprint: requestFingerprint(request.method, request.url, request.body) });
    }),
  );

  // After validation, so a request rejected for its shape never touches the store.
  app.addHook(
    'preHandler',
    quickHook((request, reply) => {
      const p = pending.get(request);
      return p ? claimOrReplay(request, reply, p) : undefined;
    }),
  );
  const claimOrReplay = async (request: FastifyRequest, reply: FastifyReply, p: Pending) => {
    const now = clock().getTime();
    if (now - lastPurge >= PURGE_EVERY_MS) {
      lastPurge = now;
      await store.idempotency.purge(now - IDEMPOTENCY_TTL_MS);
    }
    // Twice: the first request may release its claim between our claim and our read.
    for (let attempt = 0; attempt < 2; attempt++) {
      const claim = { ...p, now, completedBefore: now - IDEMPOTENCY_TTL_MS, inFlightBefore: now - IN_FLIGHT_LEASE_MS };
      if (await store.idempotency.claim(claim)) {
        claims.set(request, { accountId: p.accountId, key: p.key, claimedAt: now });
        return;
      }
      const record = await store.idempotency.find(p.accountId, p.key);
      if (!record) continue;
      if (record.fingerprint !== p.fingerprint) {
        const message = 'This Idempotency-Key was already used with a different request; use a new key.';
        throw new AppError('unprocessable', message, 'idempotency_key_reused', field(message));
      }
      if (record.status === null) {
        throw errors.conflict('A request with this Idempotency-Key is still in progress; retry shortly.', 'idempotency_in_progress');
      }
      const body = record.sealedResponse ? secrets.open(record.sealedResponse) : '';
      reply.code(record.status).header('idempotent-replayed', 'true');
      return body.length > 0 ? reply.type('application/json').send(body) : reply.send();
    }
    throw errors.conflict('A request with this Idempotency-Key is still in progress; retry shortly.', 'idempotency_in_progress');
  };

  app.addHook(
    'onSend',
    quickSendHook((request, reply, payload) => {
      const claim = claims.get(request);
      return claim ? record(request, reply, payload, claim) : undefined;
    }),
  );
  const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claim: Claim) => {
    claims.delete(request);
    const text = typeof payload === 'string' ? payload : payload == null ? '' : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    try {
      // Kept only once the write is durable: a retry of a write whose commit failed must run again.
      const writes = request.principal?.durability;
      const durable =
        writes instanceof PendingWrites
          ? await writes.settled()?.then(
              () => true,
              () => false,
            )
          : true;
      const succeeded = reply.statusCode >= 200 && reply.statusCode < 300 && durable !== false;
      if (succeeded && text !== undefined) {
        await store.idempotency.complete(claim.accountId, claim.key, claim.claimedAt, reply.statusCode, secrets.seal(text));
      } else {
        await store.idempotency.release(claim.accountId, claim.key, claim.claimedAt);
      }
    } catch (error) {
      // The work is done and must be answered; the claim stays until its lease ends.
      request.log.error({ err: error }, 'could not record the idempotent response');
    }
    return payload;
  };
}
