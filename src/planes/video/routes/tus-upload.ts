/**
 * `POST /tusupload`, then `HEAD`/`PATCH`/`DELETE /tusupload/{id}` (and `OPTIONS`): resumable
 * uploads of a video's source over the tus protocol, authenticated on every request by the
 * presigned headers (domain/videos/presigned.ts) rather than the library's key, so that a browser
 * can upload directly. Checked here, with the video plane's error body: the signature, that the
 * upload belongs to the signed video, and at creation the length and metadata. Then the request
 * goes to the tus server as it came (its body unread), which answers it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Metadata } from '@tus/server';
import { errors } from '../../../domain/errors.js';
import { PRESIGNED_HEADERS, type PresignedAccess } from '../../../domain/videos/presigned.js';
import { buildTusServer, TUS_PATH } from '../tus/tus-server.js';
import type { VideoApi } from '../video-api.js';

/** What a page on another origin may read of an answer, errors included. */
const EXPOSED = [
  'Location',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Expires',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
];

export default function tusUploadRoutes(app: VideoApi) {
  const uploads = app.services.videoUploads;
  const tus = buildTusServer(uploads, (error) => app.log.error({ err: error }, 'a resumable upload request failed'));
  // The body stays unread: the tus server streams it into the upload.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, parsed) => parsed(null, undefined));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', EXPOSED.join(', '));
  });

  const authorize = (req: FastifyRequest): Promise<PresignedAccess> => {
    const header = (name: string) => {
      const value = req.headers[name.toLowerCase()];
      return typeof value === 'string' ? value.trim() : undefined;
    };
    const [signature, expire, libraryId, videoId] = PRESIGNED_HEADERS.map(header);
    return uploads.authorize({ signature, expire, libraryId, videoId });
  };
  const handOver = async (req: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await tus.server.handle(req.raw, reply.raw);
  };
  const expiresAt = (reply: FastifyReply, at: number) => reply.raw.setHeader('Upload-Expires', new Date(at).toUTCString());

  app.route({
    method: ['POST', 'OPTIONS'],
    url: TUS_PATH,
    config: { videoAccess: 'public' },
    schema: { hide: true },
    handler: async (req, reply) => {
      if (req.method === 'POST') {
        const presigned = await authorize(req);
        const length = req.headers['upload-length'];
        if (typeof length !== 'string' || !/^[0-9]{1,16}$/.test(length)) {
          throw errors.validation(
            'Upload-Length',
            'The Upload-Length header (the size of the video in bytes) is required; a deferred length is not supported.',
            'video.upload_length',
          );
        }
        let metadata: Record<string, string | null>;
        try {
          metadata = Metadata.parse(req.headers['upload-metadata'] as string | undefined);
        } catch {
          throw errors.validation(
            'Upload-Metadata',
            'The Upload-Metadata header is malformed (comma-separated keys, each with its value in base64).',
            'video.upload_metadata',
          );
        }
        await uploads.check(presigned, Number(length), metadata);
        tus.presignedOf.set(req.raw, presigned);
        expiresAt(reply, uploads.expiryOfNew().getTime());
      }
      await handOver(req, reply);
    },
  });

  app.route<{ Params: { uploadId: string } }>({
    method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
    url: `${TUS_PATH}/:uploadId`,
    config: { videoAccess: 'public' },
    schema: { hide: true },
    handler: async (req, reply) => {
      if (req.method !== 'OPTIONS') {
        const presigned = await authorize(req);
        const upload = await uploads.get(req.params.uploadId);
        // Another video's upload is not one this signature knows of.
        if (upload.libraryId !== presigned.access.libraryId || upload.videoGuid !== presigned.videoId) throw errors.notFound('upload');
        if (!upload.finished) expiresAt(reply, Date.parse(upload.expiresAt));
      }
      await handOver(req, reply);
    },
  });
}
