/**
 * Video libraries: creation, which brings the library's own storage zone and pull zone into being
 * in the same transaction, and reads.
 */
import { randomBytes } from 'node:crypto';
import {
  FREE_TIER_CODECS,
  OUTPUT_CODECS,
  type VideoLibraryAddRequestT,
  type VideoLibraryT,
} from '../../http/schemas/video-library.js';
import { newCredential, type Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import type { PullZoneService } from '../pull-zones/service.js';
import { PRIMARY_STORAGE_REGION } from '../storage-zones/defaults.js';
import type { StorageZoneService } from '../storage-zones/service.js';
import { newVideoLibrary, normalizeCsv } from './defaults.js';

/** Credential fields of part 5, sealed at rest. */
export const VIDEO_LIBRARY_CREDENTIALS = ['ApiKey', 'ReadOnlyApiKey', 'ApiAccessKey'] as const;

/** Codecs each encoding tier may produce (index = EncodingTier). */
const CODECS_BY_TIER: readonly (readonly string[])[] = [FREE_TIER_CODECS, OUTPUT_CODECS];

/** A generated zone name is retried this often before the create gives up (a clash is ~1 in 2e9). */
const NAME_ATTEMPTS = 5;
const NAME_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export class VideoLibraryService {
  readonly libraries: DocumentRepo<VideoLibraryT>;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly pullZones: PullZoneService,
    private readonly storageZones: StorageZoneService,
  ) {
    // Library names are not unique on the platform, so no name is indexed.
    this.libraries = new DocumentRepo<VideoLibraryT>('videoLibrary', 'video library', secrets, VIDEO_LIBRARY_CREDENTIALS);
  }

  async create(principal: Principal, input: VideoLibraryAddRequestT): Promise<VideoLibraryT> {
    checkEncodingOptions(input);
    const accountId = principal.accountId;
    // DE is where the library's storage zone lives, so it cannot also be a replica.
    const replicationRegions = (input.ReplicationRegions ?? []).filter((r) => r !== PRIMARY_STORAGE_REGION);
    const { Name: name, ReplicationRegions: _regions, ...settings } = input;

    return this.store.transaction(async (tx) => {
      const id = await tx.nextId('videoLibrary');
      const zoneName = await this.freeZoneName(tx, id);
      const storageZone = await this.storageZones.createIn(tx, accountId, {
        Name: zoneName,
        Region: PRIMARY_STORAGE_REGION,
        ReplicationRegions: replicationRegions,
      });
      const pullZone = await this.pullZones.createIn(
        tx,
        accountId,
        { Name: zoneName, StorageZoneId: storageZone.Id, OriginType: 2, Type: 0, BlockNoneReferrer: input.BlockNoneReferrer ?? null },
        { videoLibraryId: id },
      );
      const apiKey = newCredential();
      const library = newVideoLibrary({
        id,
        name,
        pullZoneId: pullZone.Id,
        storageZoneId: storageZone.Id,
        replicationRegions,
        apiKey,
        readOnlyApiKey: newCredential(),
        now: this.clock(),
        pullZoneType: pullZone.Type,
        settings,
      });
      await this.libraries.insert(tx, accountId, id, library);
      return library;
    });
  }

  async get(principal: Principal, id: number): Promise<VideoLibraryT> {
    return (await this.libraries.get(this.store, principal.accountId, id)).doc;
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
    throw errors.unavailable('Could not find a free name for the library\'s zones; retry.');
  }
}

/**
 * The encoding tier decides what the library may ask for: the free tier (0) encodes with x264
 * only, the premium tier (1) adds vp9, hevc and av1, and just-in-time encoding is premium-only.
 * The request schema has already limited OutputCodecs to known codec names.
 */
export function checkEncodingOptions(input: VideoLibraryAddRequestT): void {
  const tier = input.EncodingTier ?? 0;
  const allowed = CODECS_BY_TIER[tier] ?? FREE_TIER_CODECS;
  if (input.OutputCodecs != null) {
    const refused = normalizeCsv(input.OutputCodecs).split(',').filter((c) => !allowed.includes(c));
    if (refused.length > 0) {
      throw errors.validation(
        'OutputCodecs',
        `The free encoding tier (EncodingTier 0) supports only x264; ${refused.join(', ')} require${refused.length === 1 ? 's' : ''} the premium tier (EncodingTier 1).`,
        'videolibrary.output_codecs_invalid',
      );
    }
  }
  if (input.JitEncodingEnabled === true && tier !== 1) {
    throw errors.validation(
      'JitEncodingEnabled',
      'Just-in-time encoding is available on the premium encoding tier (EncodingTier 1) only.',
      'videolibrary.jit_encoding_requires_premium',
    );
  }
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
