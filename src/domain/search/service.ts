/**
 * Search across the account's resources: pull zones (by name and host names), storage zones (by
 * name; deleted ones left out), DNS zones (by domain), video libraries (by name) and container
 * applications (by name and their endpoints' public hosts). A case-insensitive substring match,
 * in memory over the account's documents: an account holds thousands of resources, not millions.
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { SearchQueryT, SearchResultItemT, SearchResultsT } from '../../schemas/search.js';
import type { StorageZoneT } from '../../schemas/storage-zone.js';
import type { VideoLibraryT } from '../../schemas/video-library.js';
import type { Store } from '../../store/types.js';
import type { Principal } from '../principal.js';

const everything = { offset: 0, limit: Number.MAX_SAFE_INTEGER };

interface Candidate {
  item: SearchResultItemT;
  /** Every text the search looks in. */
  texts: (string | null | undefined)[];
}

interface AppDoc {
  name: string;
  containerTemplates?: { endpoints?: { publicHost?: string | null }[] }[];
}

export class SearchService {
  constructor(private readonly store: Store) {}

  async search(principal: Principal, query: SearchQueryT): Promise<SearchResultsT> {
    const needle = (query.search ?? '').trim().toLowerCase();
    const from = query.from ?? 0;
    const size = query.size ?? 20;
    const found = (await this.candidates(principal.accountId)).filter((c) => needle === '' || c.texts.some((t) => (t ?? '').toLowerCase().includes(needle)));
    return {
      Query: query.search ?? null,
      Total: found.length,
      From: from,
      Size: size,
      SearchResults: found.slice(from, from + size).map((c) => c.item),
    };
  }

  private async candidates(accountId: number): Promise<Candidate[]> {
    const docs = <T>(kind: Parameters<Store['docs']['list']>[0]) => this.store.docs.list<T>(kind, accountId, everything).then((p) => p.items.map((d) => d.doc));
    const out: Candidate[] = [];
    const item = (type: string, id: number, name: string | null, appId: string | null = null): SearchResultItemT => ({
      Type: type,
      Id: id,
      Name: name,
      AppId: appId,
    });
    for (const zone of await docs<PullZoneT>('pullZone')) {
      out.push({ item: item('cdn', zone.Id, zone.Name), texts: [zone.Name, ...(zone.Hostnames ?? []).map((h) => h.Value)] });
    }
    for (const zone of await docs<StorageZoneT>('storageZone')) {
      if (!zone.Deleted) out.push({ item: item('storage', zone.Id, zone.Name), texts: [zone.Name] });
    }
    for (const zone of await docs<{ Id: number; Domain: string | null }>('dnsZone')) {
      out.push({ item: item('dns', zone.Id, zone.Domain), texts: [zone.Domain] });
    }
    for (const library of await docs<VideoLibraryT>('videoLibrary')) {
      out.push({ item: item('stream', library.Id, library.Name), texts: [library.Name] });
    }
    const apps = await this.store.docs.list<AppDoc>('containerApp', accountId, everything);
    for (const { id, doc } of apps.items) {
      const hosts = (doc.containerTemplates ?? []).flatMap((t) => (t.endpoints ?? []).map((e) => e.publicHost));
      out.push({ item: item('containers', 0, doc.name, id), texts: [doc.name, ...hosts] });
    }
    return out;
  }
}
