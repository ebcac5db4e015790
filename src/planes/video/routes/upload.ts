/**
 * `PUT /library/{libraryId}/videos/{videoId}`: the video's source as the request body, whatever its
 * content type, streamed into the library's storage zone (never held whole in memory). Registered
 * in a scope of its own, where the body is not parsed but handed on as the request's stream.
 */
import { Type } from 'typebox';
import { errors } from '../../../domain/errors.js';
import { StatusAnswer } from '../../../schemas/video.js';
import { done, errorAnswers, type VideoApi, VideoParams } from '../video-api.js';

/** Encoding options the platform takes with an upload; the library's settings apply here, so they are accepted and not used. */
const UploadQuery = Type.Object({
  jitEnabled: Type.Optional(Type.Boolean()),
  enabledResolutions: Type.Optional(Type.String({ maxLength: 200 })),
  enabledOutputCodecs: Type.Optional(Type.String({ maxLength: 200 })),
  transcribeEnabled: Type.Optional(Type.Boolean()),
  transcribeLanguages: Type.Optional(Type.String({ maxLength: 1000 })),
  sourceLanguage: Type.Optional(Type.String({ maxLength: 20 })),
  generateTitle: Type.Optional(Type.Boolean()),
  generateDescription: Type.Optional(Type.Boolean()),
  generateChapters: Type.Optional(Type.Boolean()),
  generateMoments: Type.Optional(Type.Boolean()),
});

export default function uploadRoute(app: VideoApi) {
  // The body stays a stream: the domain writes it to the files backend as it arrives.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, parsed) => parsed(null, undefined));
  app.put('/library/:libraryId/videos/:videoId', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_UploadVideo',
      summary: 'Upload the video file',
      tags: ['Videos'],
      params: VideoParams,
      querystring: UploadQuery,
      response: { 200: StatusAnswer, ...errorAnswers, 413: { $ref: 'ErrorBody#' } },
    },
    handler: async (req) => {
      if (req.headers['content-length'] === '0' || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) {
        throw errors.validation('body', 'The body must hold the video file.', 'video.upload_empty');
      }
      const aborted = new AbortController();
      const onClose = () => {
        if (!req.raw.complete) aborted.abort(new Error('the client closed the connection before the end of the body'));
      };
      req.raw.once('close', onClose);
      try {
        await app.services.videoMedia.upload(req.library, req.params.videoId, req.raw, aborted.signal);
      } finally {
        req.raw.off('close', onClose);
      }
      return done('The video was uploaded.');
    },
  });
}
