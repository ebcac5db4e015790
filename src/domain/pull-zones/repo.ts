/** How pull zones are stored: the one definition every service that reads them shares. */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { Secrets } from '../../security/secrets.js';
import { DocumentRepo } from '../documents.js';

/** Credential fields of part 5, sealed at rest. */
export const PULL_ZONE_CREDENTIALS = [
  'ZoneSecurityKey',
  'RequestSigningKey',
  'RequestSigningSecret',
  'LogForwardingToken',
  'Hostnames.*.CertificateKey',
] as const;

export const pullZoneRepo = (secrets: Secrets) =>
  new DocumentRepo<PullZoneT>('pullZone', 'pull zone', secrets, PULL_ZONE_CREDENTIALS, (zone) => ({
    name: zone.Name,
    // Indexed so a storage zone can list the pull zones that use it.
    linkId: zone.StorageZoneId > 0 ? String(zone.StorageZoneId) : null,
  }));
