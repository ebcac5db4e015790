/**
 * The lookup step (Varnish's vcl_hash and its lookup): GET and HEAD are looked up by their key
 * (cache/key.ts), then by their variant's key when the origin varies that key's answers (`Vary`).
 * A copy a purge covers is dropped. Fresh → hit; expired → miss with the stale copy at hand, or
 * `updating` with UseStaleWhileUpdating; absent → miss. Other methods, no cache, or a rule's
 * cache time of 0: pass.
 */
import type { EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import { cacheKeyOf, variantKeyOf } from '../../domain/edge/cache/key.js';
import type { Admitted, Lookup } from './types.js';

const PASS: Lookup = Object.freeze({ kind: 'pass' });

export function lookUp(cache: EdgeCache, admitted: Admitted, now: () => number): Lookup {
  const { request, routed, effects } = admitted;
  const method = request.method;
  if ((method !== 'GET' && method !== 'HEAD') || cache.maxBytes === 0 || effects.cacheSeconds === 0) return PASS;
  const asKeyed = admitted.path === request.path && admitted.query === request.query ? request : { ...request, path: admitted.path, query: admitted.query };
  const keyed = cacheKeyOf(routed.id, routed.zone.CacheVersion, routed.keyRules, asKeyed, effects);
  const at = now();
  // The key looked up: the plain one, or the variant's when the origin varies the plain key's answers.
  let key = keyed.key;
  let entry = cache.get(key);
  if (entry === undefined) {
    const names = cache.variesBy(key);
    const variant = names && variantKeyOf(key, names, request);
    if (variant) {
      key = variant;
      entry = cache.get(key);
    }
  }
  if (entry && routed.purges.covers(entry)) {
    cache.delete(key);
    entry = undefined;
  }
  if (entry && entry.expiresAt > at) return { kind: 'hit', entry };
  if (entry && routed.zone.UseStaleWhileUpdating) return { kind: 'updating', entry, key, keyed };
  return { kind: 'miss', key, keyed, stale: entry };
}
