/**
 * The tus protocol server of the video plane (`@tus/server`): creation (with an upload in the
 * creation request), core and termination, over the domain's resumable uploads (VideoUploadStore).
 * The route authenticates each request before handing it over; what it found for a creation
 * (which video) reaches the store through `presignedOf`, keyed by the request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Server } from '@tus/server';
import type { PresignedAccess } from '../../../domain/videos/presigned.js';
import { PRESIGNED_HEADERS } from '../../../domain/videos/presigned.js';
import type { ResumableUploads } from '../../../domain/videos/resumable-uploads.js';
import { storageOf, VideoUploadStore } from './video-upload-store.js';

/** Where uploads are made; each upload is `/tusupload/{id}`. */
export const TUS_PATH = '/tusupload';

export interface VideoTusServer {
  server: Server;
  /** The checked presigned access of a creation request, set by the route before the tus server sees it. */
  presignedOf: WeakMap<IncomingMessage, PresignedAccess>;
}

/** The tus handlers see the request as a web Request; the Node request it came from is under `runtime.node`. */
const nodeRequestOf = (req: unknown) => (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;

/** `onUnexpected` hears of the failures that are no answer of the protocol's or the domain's (they answer 500). */
export function buildTusServer(uploads: ResumableUploads, onUnexpected: (error: unknown) => void): VideoTusServer {
  const presignedOf = new WeakMap<IncomingMessage, PresignedAccess>();
  const server = new Server({
    path: TUS_PATH,
    datastore: new VideoUploadStore(uploads),
    maxSize: uploads.maxLength,
    namingFunction: () => randomUUID(),
    // A browser on another origin sends the presigned headers, and reads the upload's headers back.
    allowedHeaders: [...PRESIGNED_HEADERS],
    exposedHeaders: ['Upload-Expires'],
    disableTerminationForFinishedUploads: true,
    onUploadCreate: async (req, upload) => {
      const node = nodeRequestOf(req);
      const presigned = node && presignedOf.get(node);
      if (!presigned) throw { status_code: 401, body: 'The presigned upload headers are required.\n' };
      upload.storage = storageOf({ libraryId: presigned.access.libraryId, videoId: presigned.videoId });
      return {};
    },
    onResponseError: (_req, error) => {
      if (!('status_code' in error)) onUnexpected(error);
      return undefined;
    },
  });
  return { server, presignedOf };
}
