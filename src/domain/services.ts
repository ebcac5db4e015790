/** Builds every domain service once per app; routes reach them through `app.services`. */
import type { Config } from '../config.js';
import type { Secrets } from '../security/secrets.js';
import type { Store } from '../store/types.js';
import { AccountService } from './accounts/service.js';
import { ApiKeyService } from './api-keys/service.js';
import { ContainerAppService } from './containers/service.js';
import { DnsZoneService } from './dns/service.js';
import type { Clock } from './principal.js';
import { PullZoneService } from './pull-zones/service.js';
import { StorageZoneService } from './storage-zones/service.js';
import { VideoLibraryService } from './video-libraries/service.js';

export interface ServiceContext {
  store: Store;
  secrets: Secrets;
  clock: Clock;
  config: Config;
}

export function buildServices(ctx: ServiceContext) {
  const apiKeys = new ApiKeyService(ctx.store, ctx.secrets, ctx.clock);
  const pullZones = new PullZoneService(ctx.store, ctx.secrets, ctx.config.cdnDomain);
  const storageZones = new StorageZoneService(ctx.store, ctx.secrets, ctx.clock, ctx.config.storageDomain);
  return {
    apiKeys,
    accounts: new AccountService(ctx.store, apiKeys, ctx.clock),
    containerApps: new ContainerAppService(ctx.store, ctx.secrets, ctx.config.containerDomain),
    dnsZones: new DnsZoneService(ctx.store, ctx.secrets, ctx.clock, ctx.config),
    pullZones,
    storageZones,
    videoLibraries: new VideoLibraryService(ctx.store, ctx.secrets, ctx.clock, pullZones, storageZones),
  };
}

export type Services = ReturnType<typeof buildServices>;
