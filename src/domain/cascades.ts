/**
 * What each deletion takes with it, in the deleting transaction, in this order: one function per
 * kind of resource, wired once by buildServices. A resource's own parts (a pull zone's hostnames,
 * a DNS zone's records) are its service's business; what is listed here is what other services
 * hold about it. A step that fails fails the deletion: nothing is deleted.
 */
import type { StoreTx } from '../store/types.js';
import type { CertificateService } from './certificates/service.js';
import type { ContainerAppService } from './containers/service.js';
import type { DnsZoneService } from './dns/service.js';
import type { LogFiles } from './edge/logs/log-files.js';
import type { OriginErrorLog } from './edge/origin/origin-errors.js';
import type { EdgeAccessLog } from './edge/usage/access-log.js';
import type { FileService } from './files/service.js';
import type { VideoLibraryImages } from './video-libraries/images.js';
import type { VideoService } from './videos/service.js';
import { videoSubject } from './usage/video-metrics.js';
import { libraryUsageSubject } from './video-libraries/statistics.js';
import type { WebhookDeliveries } from './videos/webhook-deliveries.js';

export type DeletionCascade = (tx: StoreTx, accountId: number, id: number) => Promise<void>;

/**
 * A pull zone: container endpoints linked to it, its certificates, DNS records pointing at it, its
 * access log (and its lines this instance still queues for the store, a collector or storage), the
 * log files written for it into storage zones, its origin errors.
 */
export function pullZoneCascade(s: {
  containerApps: ContainerAppService;
  certificates: CertificateService;
  dnsZones: DnsZoneService;
  accessLog: Pick<EdgeAccessLog, 'dropQueued'>;
  logFiles: Pick<LogFiles, 'removeIn'>;
  originErrors: Pick<OriginErrorLog, 'dropQueued'>;
}): DeletionCascade {
  return async (tx, accountId, id) => {
    await s.containerApps.unlinkPullZone(tx, accountId, id);
    await s.certificates.forgetPullZone(tx, accountId, id);
    await s.dnsZones.unlinkPullZone(tx, accountId, id);
    await tx.accessLog.trim([id], 0);
    s.accessLog.dropQueued(id);
    await s.logFiles.removeIn(tx, accountId, id);
    await tx.originErrors.removeZone(id);
    s.originErrors.dropQueued(id);
  };
}

/** A storage zone: its files, and the S3 multipart uploads in progress in it. */
export function storageZoneCascade(s: { files: FileService }): DeletionCascade {
  return async (tx, accountId, id) => {
    await s.files.removeZone(tx, String(id), accountId);
    await tx.s3Uploads.removeZone(String(id));
  };
}

/** A DNS zone: the certificates issued for its names. */
export function dnsZoneCascade(s: { certificates: CertificateService }): DeletionCascade {
  return (tx, accountId, id) => s.certificates.forgetDnsZone(tx, accountId, id);
}

/**
 * A video library: its images (the player's logo, thumbnails), its videos and collections (their
 * files go with its storage zone), the figures of its videos and its own.
 */
export function videoLibraryCascade(s: { videoLibraryImages: VideoLibraryImages; videos: VideoService; videoWebhooks: WebhookDeliveries }): DeletionCascade {
  return async (tx, accountId, id) => {
    await s.videoLibraryImages.removeAll(tx, accountId, id);
    const videos = await s.videos.videos.childIds(tx, accountId, id);
    await tx.usage.remove([libraryUsageSubject(id), ...videos.map(videoSubject)]);
    for (const repo of [s.videos.videos, s.videos.collections]) {
      for (const child of await repo.childIds(tx, accountId, id)) await repo.delete(tx, accountId, child);
    }
    await s.videoWebhooks.removeAll(tx, accountId, id);
  };
}
