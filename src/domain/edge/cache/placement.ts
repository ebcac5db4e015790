/**
 * Where an origin's answer to a cache fill goes, and which other requests may take it.
 *
 * - Kept (freshness.ts said so) under the plain key, or, when the origin varies it by request
 *   headers the key leaves out (`Vary`, key.ts), under the variant's key, the cache remembering
 *   the headers for the plain key. `Vary: *`, too many headers, or values too long: not kept.
 * - Requests that waited for the same origin request (`EnableRequestCoalescing`) take the answer
 *   when it is theirs too: all of them, unless it is one client's own (`personal`: a private,
 *   credentialed or cookie-setting answer not kept) or varied beyond what the cache keeps (none),
 *   or varied by headers (those whose values give the same variant key).
 */
import type { EdgeRequest } from '../types.js';
import type { StoreDecision } from './freshness.js';
import { type KeyedRequest, type KeyRules, variantKeyOf, varyRuleOf } from './key.js';

export type Sharing = { kind: 'all' } | { kind: 'none' } | { kind: 'variant'; names: readonly string[]; key: string };

export interface Placement {
  store: boolean;
  /** The key to keep the answer under. */
  key: string;
  /** For a variant: the plain key and the headers it varies by (CachedAnswer.variantOf). */
  variantOf: { key: string; names: readonly string[] } | undefined;
  sharing: Sharing;
}

const ALL: Sharing = Object.freeze({ kind: 'all' });
const NONE: Sharing = Object.freeze({ kind: 'none' });

export function placementOf(
  decision: StoreDecision,
  vary: string | string[] | undefined,
  rules: KeyRules,
  keyed: KeyedRequest,
  request: EdgeRequest,
  path: string,
): Placement {
  const sharing = decision.store || !decision.personal ? ALL : NONE;
  const plain: Placement = { store: decision.store, key: keyed.key, variantOf: undefined, sharing };
  const rule = varyRuleOf(vary, rules, path);
  if (rule.kind === 'none') return plain;
  const variant = rule.kind === 'headers' ? variantKeyOf(keyed.key, rule.names, request) : undefined;
  if (rule.kind === 'refuse' || variant === undefined) return { ...plain, store: false, sharing: NONE };
  return {
    store: decision.store,
    key: variant,
    variantOf: { key: keyed.key, names: rule.names },
    sharing: sharing.kind === 'all' ? { kind: 'variant', names: rule.names, key: variant } : NONE,
  };
}

/** Whether a request that waited for another's origin request may take its answer. */
export function sharedWith(sharing: Sharing, plainKey: string, request: EdgeRequest): boolean {
  if (sharing.kind === 'variant') return variantKeyOf(plainKey, sharing.names, request) === sharing.key;
  return sharing.kind === 'all';
}
