/** Who is calling: resolved from the AccessKey header once per request, passed to every service. */
import type { KeyKind } from '../store/types.js';

export const ROLES = ['FullAccess', 'ReadOnly'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  accountId: number;
  keyId: number;
  keyKind: KeyKind;
  roles: readonly string[];
}

export const canWrite = (p: Principal) => p.roles.includes('FullAccess');

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
