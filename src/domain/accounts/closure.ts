/**
 * Closing an account (`POST /user/closeaccount`): everything it owns is deleted through the
 * services that own each kind — so linked resources, files (through the files service), DNS
 * answers and caches go the same way as on a single delete — then, in one transaction, every key
 * is revoked (the change feed tells every cache and instance) and the account row goes, taking its
 * ledger, audit log and what is left of its documents (tombstones, names) with it.
 *
 * The resources go first and the keys last, so a closing cut short (the store unreachable halfway)
 * leaves a working key to send the request again with.
 */
import type { Secrets } from '../../security/secrets.js';
import type { Store } from '../../store/types.js';
import type { ContainerAppService } from '../containers/service.js';
import type { DnsZoneService } from '../dns/service.js';
import { AppError, errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import type { PullZoneService } from '../pull-zones/service.js';
import type { StorageZoneService } from '../storage-zones/service.js';
import type { VideoLibraryService } from '../video-libraries/service.js';

export interface ClosureServices {
  containerApps: ContainerAppService;
  videoLibraries: VideoLibraryService;
  dnsZones: DnsZoneService;
  pullZones: PullZoneService;
  storageZones: StorageZoneService;
}

const everything = { offset: 0, limit: Number.MAX_SAFE_INTEGER };
const KEY_PAGE = 1000;

/** A resource deleted meanwhile by another request is as good as deleted here. */
async function gone(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'not_found')) throw error;
  }
}

export class AccountClosure {
  constructor(
    private readonly store: Store,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly services: ClosureServices,
  ) {}

  async close(principal: Principal, confirmation: string | null | undefined): Promise<void> {
    await this.confirm(principal, confirmation);
    const accountId = principal.accountId;
    const ids = async (kind: 'containerApp' | 'videoLibrary' | 'dnsZone' | 'pullZone' | 'storageZone') =>
      (await this.store.docs.list<{ Id?: number; id?: string; Deleted?: boolean }>(kind, accountId, everything)).items;
    const s = this.services;
    // Containers first: they hold links to pull zones. Libraries take their own zones along.
    for (const app of await ids('containerApp')) await gone(s.containerApps.delete(principal, app.id));
    for (const library of await ids('videoLibrary')) await gone(s.videoLibraries.delete(principal, Number(library.id)));
    for (const zone of await ids('dnsZone')) await gone(s.dnsZones.delete(principal, Number(zone.id)));
    for (const zone of await ids('pullZone')) await gone(s.pullZones.delete(principal, Number(zone.id)));
    for (const zone of await ids('storageZone')) if (!zone.doc.Deleted) await gone(s.storageZones.delete(principal, Number(zone.id), true));
    await this.store.transaction(async (tx) => {
      for (;;) {
        const keys = await tx.apiKeys.list(accountId, 0, KEY_PAGE);
        for (const key of keys.items) await tx.apiKeys.revoke(accountId, key.id, this.clock());
        if (keys.items.length < KEY_PAGE) break;
      }
      await tx.accounts.remove(accountId);
    });
  }

  /** The account has no password: the confirmation is the value of one of its full-access keys. */
  private async confirm(principal: Principal, confirmation: string | null | undefined): Promise<void> {
    const refuse = () =>
      errors.validation('Password', 'Confirm by sending the value of a full-access API key of this account as Password.', 'user.close_not_confirmed');
    if (!confirmation) throw refuse();
    const key = await this.store.apiKeys.findByLookupHash(this.secrets.lookupHash(confirmation));
    if (!key || key.accountId !== principal.accountId || !key.roles.includes('FullAccess')) throw refuse();
  }
}
