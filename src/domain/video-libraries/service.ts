/**
 * Video libraries: creation, which brings the library's own storage zone and pull zone into being
 * in the same transaction, and deletion, which takes both away again; updates, credential resets,
 * referrer lists and reads.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { PagedT } from '../../schemas/paging.js';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { VideoLibraryAddRequestT, VideoLibraryLanguageT, VideoLibraryT, VideoLibraryUpdateRequestT } from '../../schemas/video-library.js';
import { newCredential, type Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { canonicalHostname } from '../pull-zones/hostnames.js';
import { DEFAULT_CORS_EXTENSIONS } from '../pull-zones/defaults.js';
import type { PullZoneService } from '../pull-zones/service.js';
import { PRIMARY_STORAGE_REGION } from '../storage-zones/defaults.js';
import type { StorageZoneService } from '../storage-zones/service.js';
import { newVideoLibrary } from './defaults.js';
import { withFigures } from './figures.js';
import { BANDWIDTH } from '../usage/pull-zone-metrics.js';
import type { UsageRecorder } from '../usage/recorder.js';
import { VIDEO_LIBRARY_LANGUAGES } from './languages.js';
import { applyLibraryUpdate, checkEncodingOptions } from './update.js';

/** Credential fields of part 5, sealed at rest. */
export const VIDEO_LIBRARY_CREDENTIALS = ['ApiKey', 'ReadOnlyApiKey', 'ApiAccessKey'] as const;

export type ReferrerList = 'AllowedReferrers' | 'BlockedReferrers';

/**
 * The files a player on another origin (the embed page, a site's own player) reads with fetch or
 * XHR, or as a captions track: the library's pull zone answers them with CORS headers.
 */
const PLAYER_FILE_EXTENSIONS = ['m3u8', 'ts', 'm4s', 'mp4', 'vtt', 'jpg', 'webp'];

/** A generated zone name is retried this often before the create gives up (a clash is ~1 in 2e9). */
const NAME_ATTEMPTS = 5;
const NAME_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The last instant a Date holds: the traffic is every hour's. */
const LAST_DATE = new Date(8.64e15);

/** Library names are not indexed (they are not unique), so a search reads every library, then filters and pages. */
const EVERY_LIBRARY = Number.MAX_SAFE_INTEGER;

export class VideoLibraryService {
  readonly libraries: DocumentRepo<VideoLibraryT>;
  /** Run inside the deleting transaction, before the library goes (its images, see images.ts). */
  readonly onDelete: ((tx: StoreTx, accountId: number, id: number) => Promise<void>)[] = [];
  /** Run inside the updating transaction, after the library is written (work its settings call for, e.g. its videos' playlists). */
  readonly onUpdate: ((tx: StoreTx, accountId: number, before: VideoLibraryT, after: VideoLibraryT) => Promise<void>)[] = [];

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly pullZones: PullZoneService,
    private readonly storageZones: StorageZoneService,
    private readonly usage: UsageRecorder,
  ) {
    // Library names are not unique on the platform, so no name is indexed.
    this.libraries = new DocumentRepo<VideoLibraryT>('videoLibrary', 'video library', secrets, VIDEO_LIBRARY_CREDENTIALS);
    // A library shows its storage zone's replication regions, which the zone's update can extend.
    storageZones.onReplicationRegionsAdded.push(async (tx, accountId, zone) => {
      const libraryId = zone.VideoLibraryId ?? 0;
      const library = libraryId > 0 ? await this.libraries.find(tx, accountId, libraryId) : undefined;
      if (library) {
        const regions = [...(zone.ReplicationRegions ?? [])];
        await this.libraries.update(tx, accountId, library, { ...library.doc, ReplicationRegions: regions, DateModified: this.clock().toISOString() });
      }
    });
  }

  async create(principal: Principal, input: VideoLibraryAddRequestT): Promise<VideoLibraryT> {
    checkEncodingOptions(
      { EncodingTier: input.EncodingTier ?? 0, OutputCodecs: input.OutputCodecs ?? null, JitEncodingEnabled: input.JitEncodingEnabled ?? false },
      input,
    );
    const accountId = principal.accountId;
    // DE is where the library's storage zone lives, so it cannot also be a replica.
    const replicationRegions = (input.ReplicationRegions ?? []).filter((r) => r !== PRIMARY_STORAGE_REGION);
    const { Name: name, ReplicationRegions: _regions, ...settings } = input;

    return this.store.transaction(async (tx) => {
      const id = await tx.nextId('videoLibrary');
      const zoneName = await this.freeZoneName(tx, id);
      const storageZone = await this.storageZones.createIn(
        tx,
        accountId,
        { Name: zoneName, Region: PRIMARY_STORAGE_REGION, ReplicationRegions: replicationRegions },
        { videoLibraryId: id },
      );
      const pullZone = await this.pullZones.createIn(
        tx,
        accountId,
        {
          Name: zoneName,
          StorageZoneId: storageZone.Id,
          OriginType: 2,
          Type: 0,
          BlockNoneReferrer: input.BlockNoneReferrer ?? null,
          AccessControlOriginHeaderExtensions: [...DEFAULT_CORS_EXTENSIONS, ...PLAYER_FILE_EXTENSIONS],
        },
        { videoLibraryId: id },
      );
      const library = newVideoLibrary({
        id,
        name,
        pullZoneId: pullZone.Id,
        storageZoneId: storageZone.Id,
        replicationRegions,
        apiKey: newCredential(),
        readOnlyApiKey: newCredential(),
        now: this.clock(),
        pullZoneType: pullZone.Type,
        settings,
      });
      await this.libraries.insert(tx, accountId, id, library);
      return library;
    }, principal.durability);
  }

  async get(principal: Principal, id: number): Promise<VideoLibraryT> {
    const found = (await this.libraries.get(this.store, principal.accountId, id)).doc;
    const [library] = await withFigures(this.store, principal.accountId, [found], await this.traffic(principal.accountId));
    return library!;
  }

  async list(principal: Principal, page: number, perPage: number, search?: string): Promise<PagedT<VideoLibraryT>> {
    const offset = (page - 1) * perPage;
    const needle = (search ?? '').toLowerCase();
    let chosen: VideoLibraryT[];
    let total: number;
    if (needle === '') {
      // No search: the store counts and pages, whatever the number of libraries.
      ({ items: chosen, total } = await this.libraries.list(this.store, principal.accountId, { offset, limit: perPage }));
    } else {
      const { items } = await this.libraries.list(this.store, principal.accountId, { offset: 0, limit: EVERY_LIBRARY });
      const matching = items.filter((l) => (l.Name ?? '').toLowerCase().includes(needle));
      chosen = matching.slice(offset, offset + perPage);
      total = matching.length;
    }
    chosen = await withFigures(this.store, principal.accountId, chosen, await this.traffic(principal.accountId));
    return { Items: chosen, CurrentPage: page, TotalItems: total, HasMoreItems: offset + chosen.length < total };
  }

  async update(principal: Principal, id: number, input: VideoLibraryUpdateRequestT): Promise<VideoLibraryT> {
    const accountId = principal.accountId;
    return this.store.transaction(async (tx) => {
      const current = await this.libraries.get(tx, accountId, id);
      const next = applyLibraryUpdate(current.doc, input, this.clock());
      await this.libraries.update(tx, accountId, current, next);
      for (const hook of this.onUpdate) await hook(tx, accountId, current.doc, next);
      // Delivery settings live on the library's pull zone, where the edge applies them.
      const delivery: Partial<PullZoneT> = {};
      if (input.EnableTokenAuthentication != null) delivery.ZoneSecurityEnabled = input.EnableTokenAuthentication;
      if (input.EnableTokenIPVerification != null) delivery.ZoneSecurityIncludeHashRemoteIP = input.EnableTokenIPVerification;
      if (input.ResetToken === true) delivery.ZoneSecurityKey = randomUUID();
      if (input.BlockNoneReferrer != null) delivery.BlockNoneReferrer = input.BlockNoneReferrer;
      await this.changePullZone(tx, accountId, next, () => delivery);
      return next;
    }, principal.durability);
  }

  /** Deletes the library with its pull zone and storage zone, all or nothing. */
  async delete(principal: Principal, id: number): Promise<void> {
    const accountId = principal.accountId;
    await this.store.transaction(async (tx) => {
      const { doc } = await this.libraries.get(tx, accountId, id);
      if (await this.pullZones.zones.find(tx, accountId, doc.PullZoneId)) {
        await this.pullZones.deleteIn(tx, accountId, doc.PullZoneId, { owner: 'videoLibrary' });
      }
      const storageZone = await this.storageZones.zones.find(tx, accountId, doc.StorageZoneId);
      if (storageZone && !storageZone.doc.Deleted) {
        await this.storageZones.deleteIn(tx, accountId, doc.StorageZoneId, { owner: 'videoLibrary', deleteLinkedPullZones: true });
      }
      for (const hook of this.onDelete) await hook(tx, accountId, id);
      await this.libraries.delete(tx, accountId, id);
    }, principal.durability);
  }

  async resetKey(principal: Principal, id: number, which: 'ApiKey' | 'ReadOnlyApiKey'): Promise<void> {
    const accountId = principal.accountId;
    await this.store.transaction(async (tx) => {
      const current = await this.libraries.get(tx, accountId, id);
      const value = newCredential();
      // ApiAccessKey is the deprecated name of the same read-write key.
      const keys = which === 'ApiKey' ? { ApiKey: value, ApiAccessKey: value } : { ReadOnlyApiKey: value };
      await this.libraries.update(tx, accountId, current, { ...current.doc, ...keys, DateModified: this.clock().toISOString() });
    }, principal.durability);
  }

  /** Adding a host name already listed changes nothing, so a retried request is harmless. */
  async addReferrer(principal: Principal, id: number, list: ReferrerList, hostname: string): Promise<void> {
    const host = checkedReferrer(hostname);
    await this.changeReferrers(principal.accountId, id, list, (hosts) => (hosts.includes(host) ? hosts : [...hosts, host]));
  }

  /** Removing a host name that is not listed changes nothing, for the same reason. */
  async removeReferrer(principal: Principal, id: number, list: ReferrerList, hostname: string): Promise<void> {
    const host = checkedReferrer(hostname);
    await this.changeReferrers(principal.accountId, id, list, (hosts) => hosts.filter((h) => h !== host));
  }

  /** Bytes each of the account's pull zones served, ever (what the edge counted, flushed or not). */
  private async traffic(accountId: number): Promise<Map<number, number>> {
    const totals = await this.usage.accountTotals('pullZone', accountId, [BANDWIDTH], new Date(0), LAST_DATE);
    return new Map(totals.map((t) => [Number(t.id), Number(t.value)]));
  }

  languages(): readonly VideoLibraryLanguageT[] {
    return VIDEO_LIBRARY_LANGUAGES;
  }

  private async changeReferrers(accountId: number, id: number, list: ReferrerList, change: (hosts: string[]) => string[]): Promise<void> {
    await this.store.transaction(async (tx) => {
      const current = await this.libraries.get(tx, accountId, id);
      const next = { ...current.doc, [list]: change(current.doc[list] ?? []), DateModified: this.clock().toISOString() };
      await this.libraries.update(tx, accountId, current, next);
      // The pull zone may carry host names of its own, so the same change is applied to its list.
      await this.changePullZone(tx, accountId, next, (zone) => ({ [list]: change(zone[list] ?? []) }));
    });
  }

  private async changePullZone(tx: StoreTx, accountId: number, library: VideoLibraryT, change: (zone: PullZoneT) => Partial<PullZoneT>): Promise<void> {
    const zone = await this.pullZones.zones.find(tx, accountId, library.PullZoneId);
    if (!zone) return;
    const changes = change(zone.doc);
    if (Object.keys(changes).length > 0) await this.pullZones.zones.update(tx, accountId, zone, { ...zone.doc, ...changes });
  }

  /**
   * `vz-<library id>-<6 random characters>`, free as both a storage zone and a pull zone name
   * (names of each kind are platform-wide); the two zones share it so they are easy to match up.
   */
  private async freeZoneName(tx: StoreTx, libraryId: number): Promise<string> {
    for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
      const name = `vz-${libraryId}-${randomSuffix(6)}`;
      if (!(await this.storageZones.zones.nameTaken(tx, name)) && !(await this.pullZones.zones.nameTaken(tx, name))) return name;
    }
    throw errors.unavailable("Could not find a free name for the library's zones; retry.");
  }
}

/**
 * The canonical form pull zones keep their referrers in (a leading `*.` covers a whole domain), so
 * the library's lists and its pull zone's lists hold the same spelling.
 */
function checkedReferrer(hostname: string): string {
  const trimmed = hostname.trim();
  const wildcard = trimmed.startsWith('*.');
  const host = canonicalHostname(wildcard ? trimmed.slice(2) : trimmed);
  if (host === undefined) {
    throw errors.validation('Hostname', 'The Hostname must be a hostname such as example.com or *.example.com.', 'videolibrary.referrer_invalid');
  }
  return wildcard ? `*.${host}` : host;
}

function randomSuffix(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  // 252 = 7 * 36: bytes above it are rejected to keep the characters uniformly distributed.
  for (let i = 0; out.length < length; i++) {
    if (i >= bytes.length) return out + randomSuffix(length - out.length);
    const b = bytes[i]!;
    if (b < 252) out += NAME_ALPHABET[b % 36];
  }
  return out;
}
