/** The documents and contracts of a library's videos, shared by the files of this folder and by the encoding and webhook work. */
import type { CollectionT, VideoT } from '../../schemas/video.js';
import type { VideoLibraryT } from '../../schemas/video-library.js';
import type { ZoneAccess } from '../files/types.js';

/** A video as stored: the model the API answers, plus what only the encoder reads. */
export interface VideoDoc extends VideoT {
  /** Where the main thumbnail is taken from, in milliseconds (from the create or fetch request). */
  thumbnailTime: number | null;
}

/** A collection as stored: its figures (`videoCount`, `totalSize`, previews) are counted when read. */
export type CollectionDoc = Pick<CollectionT, 'videoLibraryId' | 'guid' | 'name'> & { dateCreated: string };

/** What a request may do in a library once its key is known. */
export interface LibraryAccess {
  libraryId: number;
  accountId: number;
  /** The `ApiKey` was presented (the `ReadOnlyApiKey` reads only). */
  canWrite: boolean;
  library: VideoLibraryT;
  /** The library's storage zone, where the files of its videos live (`{guid}/…`). */
  zone: ZoneAccess;
  /** The system hostname of the library's pull zone, which serves the files (`vz-1-abc.b-cdn.example`). */
  playbackHost: string;
  /** Where browsers reach that pull zone (`https://{playbackHost}`, or as EDGEPLANE_PLAYBACK_URL says); empty without a pull zone. */
  playbackOrigin: string;
  /** The pull zone's token authentication: what the embed page checks its token with and signs the player's addresses with. */
  delivery: DeliveryToken;
}

/** A pull zone's URL token settings, as the embed page needs them (never sent to a client). */
export interface DeliveryToken {
  /** ZoneSecurityKey: the embed token is signed with it too. */
  key: string;
  /** ZoneSecurityEnabled: the edge asks for a token on every file. */
  required: boolean;
  /** ZoneSecurityIncludeHashRemoteIP. */
  includeClientIp: boolean;
}

/** What the encoder found in the source file. */
export interface ProbeResult {
  /** Seconds (rounded down). */
  length: number;
  width: number;
  height: number;
  framerate: number;
  rotation: number | null;
}

/** One step of a video's processing, as the encoding (or fetch) job reports it: every field optional. */
export interface VideoProgress {
  status?: number;
  /** 0 to 100; never lowered while the status stays the same. */
  encodeProgress?: number;
  /** A rendition that is now playable (`720p`): added to `availableResolutions` once. */
  resolutionFinished?: string;
  /** Replaces `availableResolutions` whole (a re-encode or a cleanup starts over). */
  availableResolutions?: string[];
  probe?: ProbeResult;
  /** Added to `transcodingMessages`. */
  message?: { level: number; issueCode: number; message: string; value?: string | null };
  thumbnailCount?: number;
  thumbnailFileName?: string;
  hasMP4Fallback?: boolean;
  hasOriginal?: boolean;
  /** SHA-256 of the uploaded source (hex). */
  originalHash?: string;
  outputCodecs?: string;
  /** Counts `storageSize` again from the files under `{guid}/` (after files were written or removed). */
  recountStorage?: boolean;
}

/** A video's status changed; sent after the change is stored. */
export interface VideoStatusEvent {
  libraryId: number;
  accountId: number;
  guid: string;
  status: number;
  previous: number;
  at: string;
}

/** Where the webhook sender (and anything else in the process) learns of status changes. */
export interface VideoEvents {
  /** Calls `listener` after each stored status change; returns the function that stops it. */
  onStatus(listener: (event: VideoStatusEvent) => void): () => void;
}
