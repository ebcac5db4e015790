/**
 * Where a perma-cache keeps an answer in its storage zone, in the platform's layout:
 *
 *   __bcdn_perma_cache__/pullzone__<zone name>__<zone id>-<CacheVersion>/<path>/___<file name>___/___file___[<variation>]
 *
 * - one folder per pull zone and cache version: a whole-zone purge raises `CacheVersion`, so the
 *   zone starts over in a new folder (the old one stays, with what it held, until it is deleted
 *   through the storage API); the zone's id keeps a zone that takes a deleted zone's name out of
 *   the old zone's folder;
 * - the request's path (already in its one spelling: no repeated `/`, request-path.ts), decoded a
 *   segment at a time, then a folder named after the file (`/` ends in a name of its own, the empty
 *   one: `______`);
 * - the file `___file___`, followed by a 16-hex-digit hash of the rest of the cache key when the
 *   key holds more than the path (a query, the zone's vary settings), so that each variant the
 *   edge keeps apart has its own file.
 * A path the storage zone could not hold (a segment or the whole path too long, a control
 * character, an encoded `/`) has no place: such requests go to the origin and are not kept.
 */
import { createHash } from 'node:crypto';
import { zonePath } from '../../files/paths.js';

/**
 * The platform's root folder, spelled as its clients and scripts look for it (a listing or a
 * clean-up of perma-cache folders): a compatibility name, kept in this one place.
 */
export const PERMA_CACHE_ROOT = '__bcdn_perma_cache__';
const FILE = '___file___';

/** The folder of a pull zone's current cache version: `__bcdn_perma_cache__/pullzone__<name>__<id>-<version>/`. */
export function zoneFolder(zone: { Id: number; Name?: string | null | undefined; CacheVersion: number }): string {
  return `${PERMA_CACHE_ROOT}/pullzone__${zone.Name ?? zone.Id}__${zone.Id}-${zone.CacheVersion}/`;
}

/**
 * The storage path of the answer to `path` (the request's path, starting with `/`), whose cache key
 * holds `variation` beyond the path (empty when nothing); undefined when the zone cannot hold it.
 */
export function permaCachePath(folder: string, path: string, variation: string): string | undefined {
  const raw = path.split('/').slice(1);
  const name = raw.pop() ?? '';
  const file = variation === '' ? FILE : `${FILE}${createHash('sha256').update(variation).digest('hex').slice(0, 16)}`;
  try {
    const segments = [...folder.slice(0, -1).split('/'), ...raw.map(decodeURIComponent), `___${decodeURIComponent(name)}___`, file];
    return zonePath(segments, false).path;
  } catch {
    return undefined;
  }
}
