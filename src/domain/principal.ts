/** Who is calling: resolved from the AccessKey header once per request, passed to every service. */
import type { KeyKind } from '../store/types.js';

export { ROLES, type Role } from '../schemas/api-key.js';

export interface Principal {
  accountId: number;
  keyId: number;
  keyKind: KeyKind;
  roles: readonly string[];
}

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
