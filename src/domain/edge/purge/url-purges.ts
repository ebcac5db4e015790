/**
 * The reference's `POST /purge?url=…`: removes one URL, or every URL a `*` pattern matches, from the
 * cache of the pull zone that serves the URL's hostname. The purge is written into the zone's
 * document (purge-log.ts), so every instance's edge hears of it through the change feed and drops
 * what it matches at once. The hostname must belong to one of the caller's zones: another
 * account's hostname is as unknown as one nobody has.
 *
 * A URL whose path ends with `/` purges everything below it (`/images/` → `/images/*`), unless
 * `exactPath` is set. A URL with a query purges that query only (as the zone's cache key holds
 * it: sorted with EnableQueryStringOrdering, reduced to QueryStringVaryParameters); without one,
 * or when the zone ignores query strings, every query of the path.
 */
import type { Store } from '../../../store/types.js';
import { errors } from '../../errors.js';
import type { Principal } from '../../principal.js';
import { keyRulesOf, shapeQuery } from '../cache/key.js';
import { type StoredPullZone, withPurge } from './purge-log.js';
import { type HostSources, resolveHost } from '../routing/resolve-host.js';

export interface UrlPurge {
  url: string;
  exactPath?: boolean | undefined;
}

const MAX_URL_LENGTH = 2048;

export class UrlPurges {
  constructor(
    private readonly store: Store,
    private readonly sources: HostSources,
  ) {}

  async purge(principal: Principal, purge: UrlPurge): Promise<void> {
    const { host, path, query } = parsePurgeUrl(purge);
    const route = await resolveHost(this.sources, host);
    const zoneId = route.kind === 'zone' || route.kind === 'dns' ? route.zoneId : undefined;
    if (zoneId === undefined) throw errors.validation('url', `No pull zone of this account serves the hostname ${host}.`, 'purge.hostname_unknown');
    await this.store.transaction(async (tx) => {
      const found = await this.sources.pullZones.find(tx, principal.accountId, zoneId);
      if (!found) throw errors.validation('url', `No pull zone of this account serves the hostname ${host}.`, 'purge.hostname_unknown');
      // The query as the zone's cache keys hold it: sorted, reduced, or left out as its settings say.
      const rules = keyRulesOf(found.doc);
      const keyQuery = rules.ignoreQuery || query === undefined ? '' : shapeQuery(query, rules);
      const pattern = query === undefined || rules.ignoreQuery ? path : `${path}?${keyQuery}`;
      await this.sources.pullZones.update(tx, principal.accountId, found, withPurge(found.doc as StoredPullZone, pattern));
    });
  }
}

/** The URL's hostname, its path as a pattern, and its query (undefined: every query of the path). */
export function parsePurgeUrl(purge: UrlPurge): { host: string; path: string; query: string | undefined } {
  const raw = purge.url.trim();
  if (raw === '' || raw.length > MAX_URL_LENGTH) throw errors.validation('url', `The URL must have 1 to ${MAX_URL_LENGTH} characters.`, 'purge.url_invalid');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw errors.validation('url', 'The URL is not a valid URL.', 'purge.url_invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw errors.validation('url', 'The URL must be an http or https URL with a hostname.', 'purge.url_invalid');
  }
  const host = url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  // The URL parser encodes what a client would (spaces, quotes) but leaves `*` as typed.
  let path = url.pathname;
  if (path.endsWith('/') && !purge.exactPath && url.search === '') path = `${path}*`;
  return { host, path, query: url.search === '' ? undefined : url.search.slice(1) };
}
