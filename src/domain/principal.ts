/** Who is calling: resolved from the AccessKey header once per request, passed to every service. */
import type { Durability, KeyKind } from '../store/types.js';

export { ROLES, type Role } from '../schemas/api-key.js';

export interface Principal {
  accountId: number;
  keyId: number;
  keyKind: KeyKind;
  roles: readonly string[];
  /**
   * Set for a write request of the API, which answers only once everything it wrote is durable:
   * services pass it to their transactions (`store.transaction(work, principal.durability)`), which
   * then resolve before their commit — and before their `afterCommit` effects (the DNS plane's
   * zones). A step that goes on to rely on those effects writes as `committedFirst(principal)`.
   */
  durability?: Durability;
}

/** The same caller, with writes that resolve only once committed (see `durability`). */
export function committedFirst(principal: Principal): Principal {
  const { durability: _answerWaits, ...committed } = principal;
  return committed;
}

/** Whose write it is, and what its answer waits for: a request's principal, or an account for background work. */
export type WriteOwner = Pick<Principal, 'accountId' | 'durability'>;

export const canWrite = (p: Principal) => p.roles.includes('FullAccess');

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/**
 * The owner id resources show in `UserId`. The platform uses GUIDs; edgeplane derives a stable
 * one from the account id so it needs no extra column and never changes.
 */
export function userIdOf(accountId: number): string {
  return `00000000-0000-4000-8000-${accountId.toString(16).padStart(12, '0')}`;
}
