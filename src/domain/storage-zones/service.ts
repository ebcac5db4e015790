/**
 * Storage zones: creation with regions and credentials, updates that only ever add replication
 * regions, deletion that leaves a tombstone, credential resets, and reads that show the linked
 * pull zones.
 */
import type { BucketSettings } from '../s3/types.js';
import type { PagedT } from '../../schemas/paging.js';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { StorageZoneAddRequestT, StorageZoneT, StorageZoneUpdateRequestT } from '../../schemas/storage-zone.js';
import { newCredential, type Secrets } from '../../security/secrets.js';
import type { FileUsage, Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import { userIdOf, type Clock, type Principal } from '../principal.js';
import { withoutCertificates, type PullZoneService } from '../pull-zones/service.js';
import { newStorageZone, storageHostname, tombstoneOf } from './defaults.js';

export type StoredStorageZone = Omit<StorageZoneT, 'PullZones'> & {
  /** Set on the zone a video library created for itself: only deleting the library deletes it. */
  VideoLibraryId?: number;
  /** Where missing files are fetched from; accepted by the update, absent from the response model. */
  OriginUrl?: string | null;
  /** The S3 bucket's configurations (tags, CORS, policy …): set through the S3 plane only, never shown by the management API. */
  S3Settings?: BucketSettings;
};

export interface StorageZoneListQuery {
  /** 0 answers every zone as an array; 1 and up answer that page. */
  page: number;
  perPage: number;
  search?: string | null | undefined;
  includeDeleted: boolean;
}

export interface StorageZoneDeleteOptions {
  deleteLinkedPullZones: boolean;
  /** Set when a video library deletes the zone it owns. */
  owner?: 'videoLibrary';
}

/** Runs in the transaction that adds the regions (a video library mirrors its zone's regions). */
export type ReplicationRegionsAddedHook = (tx: StoreTx, accountId: number, zone: StoredStorageZone, added: string[]) => Promise<void>;

/**
 * The platform's naming rule: the name is also the zone's user name for FTP and its host label,
 * so only letters, digits and dashes, and it is unique across the whole platform.
 */
const NAME_RULE = /^[a-zA-Z0-9-]{1,64}$/;
const NAME_RULE_MESSAGE = 'The storage zone name may contain only letters, digits and dashes, up to 64 characters.';

/** No limit: every zone of the account (or every pull zone linked to one). */
const EVERY_ZONE = Number.MAX_SAFE_INTEGER;

export class StorageZoneService {
  readonly zones: DocumentRepo<StoredStorageZone>;
  readonly onReplicationRegionsAdded: ReplicationRegionsAddedHook[] = [];
  /** Run in the transaction that deletes a zone (its files go with it). */
  readonly onDelete: ((tx: StoreTx, accountId: number, zoneId: number) => Promise<void>)[] = [];

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly storageDomain: string,
    private readonly pullZones: PullZoneService,
  ) {
    this.zones = new DocumentRepo<StoredStorageZone>('storageZone', 'storage zone', secrets, ['Password', 'ReadOnlyPassword'], (z) => ({
      name: z.Deleted ? null : z.Name,
    }));
  }

  async create(principal: Principal, input: StorageZoneAddRequestT): Promise<StorageZoneT> {
    const zone = await this.store.transaction((tx) => this.createIn(tx, principal.accountId, input), principal.durability);
    // A zone just made holds no files, and no pull zone can link to it yet: nothing to read.
    return shown(zone, undefined, []);
  }

  /** Also used by video libraries, which create their own storage zone in the same transaction. */
  async createIn(tx: StoreTx, accountId: number, input: StorageZoneAddRequestT, owner: { videoLibraryId?: number } = {}): Promise<StoredStorageZone> {
    const name = input.Name;
    if (!NAME_RULE.test(name)) throw errors.validation('Name', NAME_RULE_MESSAGE, 'storagezone.name_invalid');
    const replication = input.ReplicationRegions ?? [];
    const clash = replication.indexOf(input.Region);
    if (clash >= 0) {
      throw errors.validation(
        `ReplicationRegions[${clash}]`,
        `The main region ${input.Region} cannot also be a replication region.`,
        'storagezone.replication_region_invalid',
      );
    }
    // A taken name is refused by the insert below, as the same 400 naming Name (DocumentRepo.insert):
    // no lookup first, one round trip fewer on PostgreSQL.
    const id = await tx.nextId('storageZone');
    const zone: StoredStorageZone = newStorageZone({
      id,
      userId: userIdOf(accountId),
      name,
      region: input.Region,
      replicationRegions: replication,
      zoneTier: input.ZoneTier ?? 0,
      storageZoneType: input.StorageZoneType ?? 0,
      password: newCredential(),
      readOnlyPassword: newCredential(),
      storageHostname: storageHostname(input.Region, this.storageDomain),
      now: this.clock(),
    });
    if (owner.videoLibraryId !== undefined) zone.VideoLibraryId = owner.videoLibraryId;
    await this.zones.insert(tx, accountId, id, zone);
    return zone;
  }

  async get(principal: Principal, id: number): Promise<StorageZoneT> {
    const zone = await this.live(this.store, principal.accountId, id);
    return this.view(this.store, principal.accountId, zone.doc);
  }

  /** A live zone of the account, as stored (for the zone's statistics). */
  async stored(principal: Principal, id: number): Promise<StoredStorageZone> {
    return (await this.live(this.store, principal.accountId, id)).doc;
  }

  async list(principal: Principal, query: StorageZoneListQuery): Promise<StorageZoneT[] | PagedT<StorageZoneT>> {
    const accountId = principal.accountId;
    const every = query.page === 0;
    const offset = every ? 0 : (query.page - 1) * query.perPage;
    const needle = (query.search ?? '').toLowerCase();
    let page: { items: StoredStorageZone[]; total: number };
    if (query.includeDeleted) {
      // A tombstone's name is not indexed, so a search that must see deleted zones reads every zone.
      const { items } = await this.zones.list(this.store, accountId, { offset: 0, limit: EVERY_ZONE });
      const matching = items.filter((z) => (z.Name ?? '').toLowerCase().includes(needle));
      page = { items: every ? matching : matching.slice(offset, offset + query.perPage), total: matching.length };
    } else {
      // Live zones are the named ones: the store pages them, and tombstones cost nothing, however many a
      // test suite leaves. Names are ASCII (NAME_RULE), so the store's lower() matches what JavaScript's does.
      const filter = { named: true, ...(needle === '' ? {} : { search: needle }) };
      page = await this.zones.list(this.store, accountId, { offset, limit: every ? EVERY_ZONE : query.perPage, ...filter });
    }
    const views = await this.views(this.store, accountId, page.items);
    if (every) return views;
    return { Items: views, CurrentPage: query.page, TotalItems: page.total, HasMoreItems: offset + views.length < page.total };
  }

  async update(principal: Principal, id: number, input: StorageZoneUpdateRequestT): Promise<void> {
    const accountId = principal.accountId;
    await this.store.transaction(async (tx) => {
      const current = await this.live(tx, accountId, id);
      let next: StoredStorageZone = { ...current.doc, DateModified: this.clock().toISOString() };
      if (input.Rewrite404To200 != null) next.Rewrite404To200 = input.Rewrite404To200;
      // An empty string is how a client clears these two: null means "leave as is".
      if (input.Custom404FilePath != null) next.Custom404FilePath = input.Custom404FilePath === '' ? null : input.Custom404FilePath;
      if (input.OriginUrl != null) next.OriginUrl = input.OriginUrl === '' ? null : checkedOriginUrl(input.OriginUrl);
      if (input.ReplicationZones != null) next = await this.addReplicationRegions(tx, accountId, next, input.ReplicationZones);
      await this.zones.update(tx, accountId, current, next);
    }, principal.durability);
  }

  /**
   * The one place a zone gains replication regions. Regions can be added, never removed, as on the
   * platform (files are copied to a new region; a region is never given back), so the request names
   * regions to add: those the zone already has are ignored and none is taken away.
   */
  async addReplicationRegions(tx: StoreTx, accountId: number, zone: StoredStorageZone, requested: readonly string[]): Promise<StoredStorageZone> {
    const clash = requested.indexOf(zone.Region ?? '');
    if (clash >= 0) {
      throw errors.validation(
        `ReplicationZones[${clash}]`,
        `The main region ${zone.Region} cannot also be a replication region.`,
        'storagezone.replication_region_invalid',
      );
    }
    const existing = zone.ReplicationRegions ?? [];
    const added = requested.filter((region) => !existing.includes(region));
    if (added.length === 0) return zone;
    const next = { ...zone, ReplicationRegions: [...existing, ...added] };
    for (const hook of this.onReplicationRegionsAdded) await hook(tx, accountId, next, added);
    return next;
  }

  async delete(principal: Principal, id: number, deleteLinkedPullZones: boolean): Promise<void> {
    await this.store.transaction((tx) => this.deleteIn(tx, principal.accountId, id, { deleteLinkedPullZones }), principal.durability);
  }

  /**
   * Deletes the zone inside the caller's transaction, with the pull zones that use it as their
   * origin (or refuses, so no pull zone is ever left pointing at a deleted zone). The zone stays as
   * a tombstone with `Deleted: true`, as the platform keeps it, and its name becomes free again.
   */
  async deleteIn(tx: StoreTx, accountId: number, id: number, options: StorageZoneDeleteOptions): Promise<void> {
    const current = await this.live(tx, accountId, id);
    const library = current.doc.VideoLibraryId ?? 0;
    if (library > 0 && options.owner !== 'videoLibrary') {
      throw errors.validation(
        'id',
        `Storage zone ${id} belongs to video library ${library}; delete the library instead.`,
        'storagezone.owned_by_video_library',
      );
    }
    const linked = await this.linkedPullZones(tx, accountId, id);
    if (linked.length > 0 && !options.deleteLinkedPullZones) {
      const names = linked.map((z) => `${z.Name ?? ''} (${z.Id})`).join(', ');
      throw errors.validation(
        'deleteLinkedPullZones',
        `Storage zone ${id} is the origin of pull zone${linked.length === 1 ? '' : 's'} ${names}; delete ${linked.length === 1 ? 'it' : 'them'} first or set deleteLinkedPullZones to true.`,
        'storagezone.has_linked_pull_zones',
      );
    }
    for (const pullZone of linked) await this.pullZones.deleteIn(tx, accountId, pullZone.Id, { owner: 'storageZone' });
    for (const hook of this.onDelete) await hook(tx, accountId, id);
    await this.zones.update(tx, accountId, current, tombstoneOf(current.doc, this.clock()));
  }

  async resetPassword(principal: Principal, id: number, which: 'Password' | 'ReadOnlyPassword'): Promise<void> {
    await this.store.transaction(async (tx) => {
      const current = await this.live(tx, principal.accountId, id);
      await this.zones.update(tx, principal.accountId, current, { ...current.doc, [which]: newCredential(), DateModified: this.clock().toISOString() });
    }, principal.durability);
  }

  /** Names are platform-wide, so a name another account uses is not available either. */
  async checkAvailability(name: string): Promise<{ Available: boolean }> {
    if (!NAME_RULE.test(name)) throw errors.validation('Name', NAME_RULE_MESSAGE, 'storagezone.name_invalid');
    return { Available: !(await this.zones.nameTaken(this.store, name)) };
  }

  /** Reads a zone that has not been deleted: a tombstone is as unknown as a missing id. */
  private async live(tx: StoreTx, accountId: number, id: number) {
    const zone = await this.zones.get(tx, accountId, id);
    if (zone.doc.Deleted) throw errors.notFound(this.zones.label);
    return zone;
  }

  private async view(tx: StoreTx, accountId: number, zone: StoredStorageZone): Promise<StorageZoneT> {
    return (await this.views(tx, accountId, [zone]))[0]!;
  }

  /** The zones as the API shows them, their usage asked for in one read. */
  private async views(tx: StoreTx, accountId: number, zones: StoredStorageZone[]): Promise<StorageZoneT[]> {
    const live = zones.filter((z) => !z.Deleted).map((z) => String(z.Id));
    // Counted in the transactions that change the zones' files, so exact once a write has answered.
    const usage = live.length > 0 ? await tx.files.usage(live) : new Map<string, FileUsage>();
    const views: StorageZoneT[] = [];
    for (const zone of zones) {
      views.push(zone.Deleted ? shown(zone, undefined, []) : shown(zone, usage.get(String(zone.Id)), await this.linkedPullZones(tx, accountId, zone.Id)));
    }
    return views;
  }

  private async linkedPullZones(tx: StoreTx, accountId: number, id: number): Promise<PullZoneT[]> {
    const page = await this.pullZones.zones.list(tx, accountId, { linkId: String(id), offset: 0, limit: EVERY_ZONE });
    // Certificates leave the server only through the pull zone read that asks for them.
    return page.items.map(withoutCertificates);
  }
}

/** The zone as the API shows it: the fields kept for other planes (the S3 bucket's settings …) left out. */
function shown(zone: StoredStorageZone, usage: FileUsage | undefined, pullZones: PullZoneT[]): StorageZoneT {
  const { VideoLibraryId: _library, OriginUrl: _origin, S3Settings: _s3, ...fields } = zone;
  return { ...fields, FilesStored: usage?.files ?? 0, StorageUsed: usage?.bytes ?? 0, PullZones: pullZones };
}

function checkedOriginUrl(value: string): string {
  let ok = false;
  try {
    const url = new URL(value);
    ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    ok = false;
  }
  if (!ok) throw errors.validation('OriginUrl', 'The OriginUrl must be an absolute http or https URL.', 'storagezone.origin_invalid');
  return value;
}
