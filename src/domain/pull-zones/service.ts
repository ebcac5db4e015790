/** Pull zones: creation with a system hostname and an origin, and reads. */
import type { PullZoneAddRequestT, PullZoneT } from '../../http/schemas/pull-zone.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import { userIdOf, type Principal } from '../principal.js';
import { newPullZone } from './defaults.js';
import { pullZoneRepo } from './repo.js';
import { applySettings } from './settings.js';

/** The name is the first label of the zone's system hostname, so it follows DNS label rules. */
const NAME_RULE = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

export interface PullZoneCreateOptions {
  /** Set when a video library creates its own zone. */
  videoLibraryId?: number;
}

/**
 * Resources that point at pull zones (DNS records, container endpoints, ...) register a hook here;
 * deleting a zone runs every hook in the same transaction, so no link is ever left dangling.
 */
export type PullZoneDeletedHook = (tx: StoreTx, accountId: number, pullZoneId: number) => Promise<void>;

export class PullZoneService {
  readonly zones: DocumentRepo<PullZoneT>;
  readonly onDelete: PullZoneDeletedHook[] = [];

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly cdnDomain: string,
  ) {
    this.zones = pullZoneRepo(secrets);
  }

  async create(principal: Principal, input: PullZoneAddRequestT): Promise<PullZoneT> {
    return this.store.transaction((tx) => this.createIn(tx, principal.accountId, input));
  }

  async createIn(tx: StoreTx, accountId: number, input: PullZoneAddRequestT, options: PullZoneCreateOptions = {}): Promise<PullZoneT> {
    const name = input.Name;
    if (!NAME_RULE.test(name)) {
      throw errors.validation('Name', 'The pull zone name may contain only letters, digits and dashes (not at either end), up to 63 characters.', 'pullzone.name_invalid');
    }
    const storageZoneId = input.StorageZoneId ?? 0;
    if (storageZoneId > 0) {
      if (!(await tx.docs.get('storageZone', accountId, String(storageZoneId)))) {
        throw errors.validation('StorageZoneId', `Storage zone ${storageZoneId} does not exist.`, 'pullzone.storagezone_not_found');
      }
    } else if (!input.OriginUrl) {
      throw errors.validation('OriginUrl', 'The OriginUrl field is required unless the zone pulls from a storage zone (StorageZoneId).', 'pullzone.origin_required');
    }
    if (input.OriginUrl && !isHttpUrl(input.OriginUrl)) {
      throw errors.validation('OriginUrl', 'The OriginUrl must be an absolute http or https URL.', 'pullzone.origin_invalid');
    }
    if (await this.zones.nameTaken(tx, name)) throw errors.nameTaken('Name', 'pull zone', name);

    const id = await tx.nextId('pullZone');
    const hostnameId = await tx.nextId('hostname');
    const base = newPullZone({
      id,
      userId: userIdOf(accountId),
      name,
      originUrl: input.OriginUrl ?? null,
      type: input.Type ?? 0,
      systemHostname: { id: hostnameId, value: `${name.toLowerCase()}.${this.cdnDomain}` },
      storageZoneId,
    });
    const { Name: _name, ...settings } = input;
    const zone = applySettings(base, settings);
    if (options.videoLibraryId !== undefined) zone.VideoLibraryId = options.videoLibraryId;
    await this.zones.insert(tx, accountId, id, zone);
    return zone;
  }

  /**
   * Deletes a zone and everything that points at it, inside the caller's transaction. A zone that a
   * video library owns is deleted only through its library (`owner: 'videoLibrary'`).
   */
  async deleteIn(tx: StoreTx, accountId: number, id: number, options: { owner?: 'videoLibrary' | 'storageZone' } = {}): Promise<void> {
    const zone = await this.zones.get(tx, accountId, id);
    if (zone.doc.VideoLibraryId > 0 && options.owner !== 'videoLibrary') {
      throw errors.validation('id', `Pull zone ${id} belongs to video library ${zone.doc.VideoLibraryId}; delete the library instead.`, 'pullzone.owned_by_video_library');
    }
    for (const hook of this.onDelete) await hook(tx, accountId, id);
    await this.zones.delete(tx, accountId, id);
  }

  async get(principal: Principal, id: number, includeCertificate: boolean): Promise<PullZoneT> {
    const { doc } = await this.zones.get(this.store, principal.accountId, id);
    return includeCertificate ? doc : withoutCertificates(doc);
  }
}

/** Certificates and their keys leave the server only when the caller asks (includeCertificate). */
export function withoutCertificates(zone: PullZoneT): PullZoneT {
  if (!zone.Hostnames) return zone;
  return { ...zone, Hostnames: zone.Hostnames.map((h) => ({ ...h, Certificate: '', CertificateKey: '' })) };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
