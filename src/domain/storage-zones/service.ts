/** Storage zones: creation with regions and credentials, and reads that show the linked pull zones. */
import type { PullZoneT } from '../../http/schemas/pull-zone.js';
import type { StorageZoneAddRequestT, StorageZoneT } from '../../http/schemas/storage-zone.js';
import { newCredential, type Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import { userIdOf, type Clock, type Principal } from '../principal.js';
import { pullZoneRepo } from '../pull-zones/repo.js';
import { newStorageZone, storageHostname } from './defaults.js';

export type StoredStorageZone = Omit<StorageZoneT, 'PullZones'>;

/**
 * The platform's naming rule: the name is also the zone's user name for FTP and its host label,
 * so only letters, digits and dashes, and it is unique across the whole platform.
 */
const NAME_RULE = /^[a-zA-Z0-9-]{1,64}$/;

export class StorageZoneService {
  readonly zones: DocumentRepo<StoredStorageZone>;
  private readonly pullZones: DocumentRepo<PullZoneT>;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly storageDomain: string,
  ) {
    this.zones = new DocumentRepo<StoredStorageZone>('storageZone', 'storage zone', secrets, ['Password', 'ReadOnlyPassword'], (z) => ({
      name: z.Name,
    }));
    this.pullZones = pullZoneRepo(secrets);
  }

  async create(principal: Principal, input: StorageZoneAddRequestT): Promise<StorageZoneT> {
    return this.store.transaction(async (tx) => ({ ...(await this.createIn(tx, principal.accountId, input)), PullZones: [] }));
  }

  /** Also used by video libraries, which create their own storage zone in the same transaction. */
  async createIn(tx: StoreTx, accountId: number, input: StorageZoneAddRequestT): Promise<StoredStorageZone> {
    const name = input.Name;
    if (!NAME_RULE.test(name)) {
      throw errors.validation('Name', 'The storage zone name may contain only letters, digits and dashes, up to 64 characters.', 'storagezone.name_invalid');
    }
    const replication = input.ReplicationRegions ?? [];
    const clash = replication.indexOf(input.Region);
    if (clash >= 0) {
      throw errors.validation(`ReplicationRegions[${clash}]`, `The main region ${input.Region} cannot also be a replication region.`, 'storagezone.replication_region_invalid');
    }
    if (await this.zones.nameTaken(tx, name)) throw errors.nameTaken('Name', 'storage zone', name);
    const id = await tx.nextId('storageZone');
    const zone = newStorageZone({
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
    await this.zones.insert(tx, accountId, id, zone);
    return zone;
  }

  async get(principal: Principal, id: number): Promise<StorageZoneT> {
    const zone = await this.zones.get(this.store, principal.accountId, id);
    return { ...zone.doc, PullZones: await this.linkedPullZones(this.store, principal.accountId, id) };
  }

  private async linkedPullZones(tx: StoreTx, accountId: number, id: number): Promise<PullZoneT[]> {
    const page = await this.pullZones.list(tx, accountId, { linkId: String(id), offset: 0, limit: 10_000 });
    return page.items;
  }
}
