/** Builds every domain service once per app; routes reach them through `app.services`. */
import type { LookupFunction } from 'node:net';
import type { Config } from '../config.js';
import type { Secrets } from '../security/secrets.js';
import type { Store } from '../store/types.js';
import { AccountClosure } from './accounts/closure.js';
import { dnsZoneCascade, pullZoneCascade, storageZoneCascade, videoLibraryCascade } from './cascades.js';
import { AccountService } from './accounts/service.js';
import { UserService } from './accounts/users.js';
import { ApiKeyService } from './api-keys/service.js';
import { AuditLogService } from './audit/log.js';
import { ChargeCalculator } from './billing/charges.js';
import { PriceEstimator } from './billing/estimates.js';
import { BillingService } from './billing/service.js';
import { CertificateService } from './certificates/service.js';
import { ContainerAppService } from './containers/service.js';
import { chooseAppRuntime } from './containers/runtime/choose.js';
import { registerDnsBackground } from './dns/background.js';
import { QueryLog } from './dns/query-log.js';
import { ServedZones } from './dns/served-zones.js';
import { ServingAuthority } from './dns/serving/authority.js';
import { ZoneTransfers } from './dns/transfer/zone-transfers.js';
import { DnsZoneService } from './dns/service.js';
import { DnsRecordScans } from './dns/scan.js';
import { DnsStatistics } from './dns/statistics.js';
import { upstreamResolver } from './dns/upstream-resolver.js';
import { configuredNameservers } from './dns/zone-settings.js';
import { FaultInjector } from './faults/injector.js';
import { FileService } from './files/service.js';
import { FileSweeper } from './files/sweeper.js';
import { ZoneKeys } from './files/zone-keys.js';
import { ZonesByName } from './files/zones-by-name.js';
import { BucketSettingsService } from './s3/bucket-settings.js';
import { S3Credentials } from './s3/credentials.js';
import { LifecycleSweeper } from './s3/lifecycle-sweep.js';
import { MultipartUploads } from './s3/multipart.js';
import { UsageRecorder } from './usage/recorder.js';
import { EdgeAccessLog } from './edge/usage/access-log.js';
import { OriginErrorLog } from './edge/origin/origin-errors.js';
import { LogFiles } from './edge/logs/log-files.js';
import { LogForwarding } from './edge/logs/forwarding/forwarder.js';
import { forwardingOptions } from './edge/logs/forwarding/options.js';
import { BandwidthLimits } from './edge/usage/bandwidth-limits.js';
import { EdgeUsage } from './edge/usage/edge-usage.js';
import { CdnStatistics } from './edge/usage/statistics.js';
import { UrlPurges } from './edge/purge/url-purges.js';
import { buildEdgeScripts } from './edge/scripts/build.js';
import { askDnsScript } from './edge/scripts/runtime/dns-query.js';
import { OriginAddresses } from './edge/origin/addresses.js';
import { OriginShield } from './edge/shield/origin-shield.js';
import type { BlobStore } from '../files/types.js';
import type { JobRunner } from '../jobs/runner.js';
import { OperatorService } from './operator/service.js';
import type { Clock } from './principal.js';
import { PullZoneService } from './pull-zones/service.js';
import { ReferenceData } from './reference-data/service.js';
import { SearchService } from './search/service.js';
import { registerReplicationJob } from './storage-zones/replication.js';
import { StorageZoneService } from './storage-zones/service.js';
import { StorageZoneStatistics } from './storage-zones/statistics.js';
import { VideoLibraryImages } from './video-libraries/images.js';
import { VideoLibraryService } from './video-libraries/service.js';
import { VideoLibraryStatistics } from './video-libraries/statistics.js';
import { CollectionService } from './videos/collections.js';
import { EncodingRequests } from './videos/encoding-requests.js';
import { LibraryKeys } from './videos/library-access.js';
import { VideoMedia } from './videos/media.js';
import { VideoEmbeds } from './videos/embed.js';
import { VideoReports } from './videos/reports.js';
import { VideoPlays } from './videos/plays.js';
import { MasterPlaylists, registerPlaylistsJob, rewriteOnCaptionsSetting } from './videos/master-playlists.js';
import { ResumableUploads } from './videos/resumable-uploads.js';
import { VideoService } from './videos/service.js';
import { WebhookDeliveries } from './videos/webhook-deliveries.js';
import { registerEncodeJob, workRootOf } from './videos/encode-job.js';
import { registerFetchJob } from './videos/fetch-job.js';
import { findMediaTools } from '../media/binaries.js';
import type { MediaTools } from '../media/types.js';
import { tmpdir } from 'node:os';
import { webhookStatusOf } from './videos/webhooks.js';

export interface ServiceContext {
  store: Store;
  secrets: Secrets;
  clock: Clock;
  config: Config;
  jobs: JobRunner;
  /** The runner of the long jobs: encoding and fetching videos (its own lane, so short jobs never wait behind them). */
  mediaJobs: JobRunner;
  /** Where file bytes live (EDGEPLANE_FILES_URL). */
  blobs: BlobStore;
  /** How the edge resolves origin host names (default `dns.lookup`; tests give their own). */
  originLookup?: LookupFunction | undefined;
  /** Where background failures are reported (the container supervisor's). */
  logError?: ((error: unknown, message: string) => void) | undefined;
}

/** The ports of edgeplane's own HTTP listeners, as configured (an origin may not be one of them). */
const ownPorts = (config: Config) =>
  [config.port, config.storagePort, config.s3Port, config.edgePort, config.edgeTlsPort, config.videoPort].filter(
    (port): port is number => typeof port === 'number',
  );

export function buildServices(ctx: ServiceContext) {
  const apiKeys = new ApiKeyService(ctx.store, ctx.secrets, ctx.clock);
  const originAddresses = new OriginAddresses({
    privateAddresses: ctx.config.originPrivateAddresses,
    listenHost: ctx.config.host,
    ownPorts: ownPorts(ctx.config),
    lookup: ctx.originLookup,
  });
  // What an account can still spend is billing's to say; billing is built below (it prices the zones).
  const pullZones = new PullZoneService(
    ctx.store,
    ctx.secrets,
    ctx.config.cdnDomain,
    originAddresses,
    (accountId): Promise<number> => billing.availableFunds(accountId),
  );
  const storageZones = new StorageZoneService(ctx.store, ctx.secrets, ctx.clock, ctx.config.storageDomain, pullZones);
  registerReplicationJob(storageZones, ctx.jobs, ctx.store, ctx.clock, ctx.config.jobDelayMs);
  // One cache of zones by name for the planes that take a zone's passwords: the file API and S3.
  const zonesByName = new ZonesByName(ctx.store, storageZones.zones);
  const files = new FileService(ctx.store, ctx.blobs, new ZoneKeys(zonesByName), ctx.clock, ctx.config.maxFileBytes);
  const usage = new UsageRecorder(ctx.store, ctx.clock);
  const accounts = new AccountService(ctx.store, apiKeys, ctx.clock);
  // What runs container applications (EDGEPLANE_CONTAINER_RUNTIME); it pulls through the account's registries.
  const appRuntime = chooseAppRuntime(ctx.config, {
    store: ctx.store,
    pullSource: (accountId, registryId) => containerApps.registries.pullSource(accountId, registryId),
    logError: ctx.logError ?? (() => undefined),
    // The containers' output goes to their log forwarding's collector, reached as origins are.
    forwarding: { targets: () => containerApps.logForwarding.enabledTargets(), addresses: originAddresses },
  });
  const containerApps = new ContainerAppService(ctx.store, ctx.secrets, ctx.clock, ctx.config, { runtime: appRuntime, pullZones });
  const dnsZones = new DnsZoneService(ctx.store, ctx.secrets, ctx.clock, ctx.config);
  const dnsAuthority = new ServingAuthority({
    edgeAddresses: ctx.config.edgeAddresses.split(','),
    ...(ctx.config.dnsUpstream ? { resolveUpstream: upstreamResolver(ctx.config.dnsUpstream) } : {}),
    // Script records: their DNS script answers (made below; asked only once queries come).
    runScript: (accountId, scriptId, query, variables) => askDnsScript(edgeScripts.runtime, accountId, scriptId, query, variables),
    clock: ctx.clock,
  });
  const servedZones = new ServedZones(ctx.store, dnsZones.zones, dnsAuthority, {
    nameservers: configuredNameservers(ctx.config),
    soaTimers: { refresh: ctx.config.dnsSoaRefresh, retry: ctx.config.dnsSoaRetry, expire: ctx.config.dnsSoaExpire },
  });
  const dnsTransfers = new ZoneTransfers(dnsAuthority, ctx.clock, (zoneId, accountId) =>
    dnsZones.writer.edit({ accountId }, zoneId, async (_tx, zone) => ({ zone, result: undefined })),
  );
  dnsZones.writer.onCommitted.push((id, accountId, zone, version, records) => servedZones.committed(id, accountId, zone, version, records));
  dnsZones.writer.onDeleted.push((id) => servedZones.deleted(id));
  const certificates = new CertificateService({
    store: ctx.store,
    secrets: ctx.secrets,
    clock: ctx.clock,
    config: ctx.config,
    pullZones: pullZones.zones,
    dnsZones,
    dnsAuthority,
    ensureDnsZonesLoaded: () => servedZones.start(),
  });
  registerDnsBackground(dnsZones, {
    store: ctx.store,
    jobs: ctx.jobs,
    clock: ctx.clock,
    pullZones,
    jobDelayMs: ctx.config.jobDelayMs,
    monitorIntervalMs: ctx.config.monitorIntervalMs,
  });
  const videoLibraries = new VideoLibraryService(ctx.store, ctx.secrets, ctx.clock, pullZones, storageZones, usage);
  const videoLibraryImages = new VideoLibraryImages(ctx.store, ctx.secrets, ctx.blobs, ctx.clock, videoLibraries);
  const fileSweeper = new FileSweeper(ctx.store, ctx.blobs, ctx.clock);
  fileSweeper.claim((blob) => videoLibraryImages.claims(blob.zoneId, blob.guid));
  // Parts of S3 multipart uploads in progress are blobs no file points at yet.
  fileSweeper.claim((blob) => ctx.store.s3Uploads.usesBlob(blob.zoneId, blob.guid, blob.key));
  const s3Buckets = new BucketSettingsService(ctx.store, storageZones.zones);
  const multipartUploads = new MultipartUploads(ctx.store, files, ctx.clock);
  const charges = new ChargeCalculator(ctx.store, usage, files);
  const billing = new BillingService(ctx.store, charges, ctx.clock, ctx.config.cdnDomain);
  // The access log's lines also go to the zones' collectors and storage zones (src/domain/edge/logs/).
  const logForwarding = new LogForwarding(forwardingOptions(ctx.config, originAddresses));
  const logFiles = new LogFiles({ store: ctx.store, files, storageZones: storageZones.zones }, ctx.config.logStorageFlushMs);
  const edgeAccessLog = new EdgeAccessLog(ctx.store, ctx.clock, { forwarding: logForwarding, files: logFiles });
  const originErrors = new OriginErrorLog(ctx.store, ctx.clock);
  pullZones.onDelete.push(pullZoneCascade({ containerApps, certificates, dnsZones, accessLog: edgeAccessLog, logFiles, originErrors }));
  storageZones.onDelete.push(storageZoneCascade({ files }));
  dnsZones.writer.onDelete.push(dnsZoneCascade({ certificates }));
  const videos = new VideoService(
    ctx.store,
    ctx.secrets,
    ctx.clock,
    files,
    new LibraryKeys(ctx.store, videoLibraries.libraries, storageZones.zones, pullZones.zones, ctx.config.playbackUrl),
  );
  const videoWebhooks = new WebhookDeliveries({
    store: ctx.store,
    jobs: ctx.jobs,
    clock: ctx.clock,
    targetOf: async (libraryId) => {
      const found = await videos.keys.find(libraryId);
      return found && { accountId: found.accountId, url: found.library.WebhookUrl, readOnlyApiKey: found.library.ReadOnlyApiKey ?? '' };
    },
    addresses: originAddresses,
  });
  videos.onStatus((event) => {
    const status = webhookStatusOf(event.status);
    // Queued as a stored job; a store that fails to take it loses this one announcement, never the video's state.
    if (status !== undefined) void videoWebhooks.notify({ libraryId: event.libraryId, videoGuid: event.guid, status }).catch(() => undefined);
  });
  videoLibraries.onDelete.push(videoLibraryCascade({ videoLibraryImages, videos, videoWebhooks }));
  const videoPlays = new VideoPlays(ctx.store, videos, ctx.clock);
  const videoPlaylists = new MasterPlaylists(ctx.store, files, videos, pullZones.zones);
  registerPlaylistsJob(ctx.jobs, videos, videoPlaylists);
  videoLibraries.onUpdate.push(rewriteOnCaptionsSetting(ctx.clock));
  const videoMedia = new VideoMedia(ctx.store, files, ctx.jobs, videos, originAddresses, videoPlaylists);
  const videoUploads = new ResumableUploads({ store: ctx.store, files, jobs: ctx.jobs, videos, media: videoMedia, webhooks: videoWebhooks, clock: ctx.clock });
  // Pieces of resumable uploads in progress are blobs no file points at yet.
  fileSweeper.claim((blob) => videoUploads.claims(blob));
  registerFetchJob({ mediaJobs: ctx.mediaJobs, videos, media: videoMedia, secrets: ctx.secrets, addresses: originAddresses });
  let mediaTools: Promise<MediaTools> | undefined;
  registerEncodeJob({
    mediaJobs: ctx.mediaJobs,
    videos,
    files,
    images: videoLibraryImages,
    webhooks: videoWebhooks,
    playlists: videoPlaylists,
    // Found on the first encode, once (three short ffmpeg runs); a failure is tried again next time.
    tools: () =>
      (mediaTools ??= findMediaTools({ ffmpegPath: ctx.config.ffmpegPath, ffprobePath: ctx.config.ffprobePath }).catch((error: unknown) => {
        mediaTools = undefined;
        throw error;
      })),
    workRoot: workRootOf(tmpdir()),
  });
  const videoReports = new VideoReports(files, videos, ctx.clock);
  const bandwidthLimits = new BandwidthLimits(ctx.store, pullZones.zones, usage, billing, ctx.clock);
  const edgeUsage = new EdgeUsage(usage, edgeAccessLog, bandwidthLimits, videoPlays);
  const edgeScripts = buildEdgeScripts({ ...ctx, pullZones, usage, originAddresses });
  return {
    apiKeys,
    accounts,
    operator: new OperatorService(ctx.store, accounts, pullZones.zones, { billing, usage }),
    users: new UserService(ctx.store, charges, ctx.clock, ctx.config.cdnDomain),
    accountClosure: new AccountClosure(ctx.store, ctx.secrets, ctx.clock, { containerApps, videoLibraries, dnsZones, pullZones, storageZones }),
    audit: new AuditLogService(ctx.store, ctx.clock),
    billing,
    priceEstimates: new PriceEstimator(ctx.store),
    referenceData: new ReferenceData(ctx.config.storageDomain),
    search: new SearchService(ctx.store),
    videoLibraryImages,
    videoLibraryStatistics: new VideoLibraryStatistics(videoLibraries, usage, ctx.clock),
    jobs: ctx.jobs,
    mediaJobs: ctx.mediaJobs,
    store: ctx.store,
    storeDialect: ctx.store.dialect,
    /** Readiness: the store answers a trivial query. */
    health: async () =>
      ctx.store.accounts.count().then(
        () => true,
        () => false,
      ),
    containerApps,
    /** What runs container applications: podman or the simulation (runtime/app-runtime.ts). */
    appRuntime,
    dnsZones,
    files,
    s3Credentials: new S3Credentials(zonesByName),
    s3Buckets,
    multipartUploads,
    /** Applies the S3 lifecycle configurations of storage zones (expiration, stale multipart uploads). */
    lifecycleSweeper: new LifecycleSweeper(ctx.store, s3Buckets, files, multipartUploads, ctx.clock),
    dnsAuthority,
    dnsTransfers,
    servedZones,
    certificates,
    dnsStatistics: new DnsStatistics(dnsZones, usage, ctx.clock),
    dnsRecordScans: new DnsRecordScans(ctx.store, ctx.secrets, ctx.clock, dnsZones, ctx.jobs, {
      upstream: ctx.config.dnsUpstream,
      edgeAddresses: ctx.config.edgeAddresses.split(','),
      cdnDomain: ctx.config.cdnDomain,
    }),
    dnsQueryLog: new QueryLog(),
    fileSweeper,
    usage,
    edgeUsage,
    edgeAccessLog,
    /** The requests the edge could not get from the zones' origins (the logging plane's origin errors API). */
    originErrors,
    /** Log forwarding to the zones' syslog collectors (LogForwardingEnabled). */
    logForwarding,
    /** Logs kept in storage zones (LoggingSaveToStorage). */
    logFiles,
    /** The key the edge's DDoS challenges are made and checked with (the same on every instance). */
    edgeChallengeKey: ctx.secrets.derive('edgeplane edge challenges'),
    bandwidthLimits,
    cdnStatistics: new CdnStatistics(ctx.store, pullZones, usage, ctx.clock),
    /** `POST /purge?url=…`: URL purges the edge of every instance hears through the change feed. */
    edgePurges: new UrlPurges(ctx.store, { store: ctx.store, pullZones: pullZones.zones, dnsZones: dnsZones.zones, cdnDomain: ctx.config.cdnDomain }),
    storageZoneStatistics: new StorageZoneStatistics(storageZones, files, usage, ctx.clock),
    faults: new FaultInjector(ctx.config.faults?.rules),
    /** Which addresses the edge may fetch origins from (EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES, the own listeners). */
    originAddresses,
    /** The deployment's origin shield (EDGEPLANE_ORIGIN_SHIELD_URL): whether this instance is it, the hops' key, its concurrency limits. */
    originShield: new OriginShield({
      url: ctx.config.originShieldUrl,
      key: ctx.secrets.derive('edgeplane origin shield'),
      isOwnAddress: (address) => originAddresses.isOwnAddress(address),
      counted: edgeUsage.shieldQueue,
    }),
    pullZones,
    /** Edge scripts: the scripting API's services and the runtime that runs them (domain/edge/scripts/). */
    edgeScripts,
    storageZones,
    videoLibraries,
    /** The videos of video libraries (the video plane); `videos.onStatus` tells of each status change. */
    videos,
    videoCollections: new CollectionService(ctx.store, ctx.clock, videos),
    videoMedia,
    /** Resumable uploads of videos' sources (the video plane's tus endpoint). */
    videoUploads,
    videoEncodingRequests: new EncodingRequests(files, ctx.jobs, videos, ctx.secrets, originAddresses),
    videoReports,
    /** Views, watch time and the heatmap of the libraries' videos, counted from what their pull zones served. */
    videoPlays,
    /** What the embed page of a video may show (referrer, embed token, signed player addresses). */
    videoEmbeds: new VideoEmbeds(videos.keys, videoReports, ctx.clock),
    /** The video libraries' webhooks: what was sent where, and how it went. */
    videoWebhooks,
  };
}

export type Services = ReturnType<typeof buildServices>;
