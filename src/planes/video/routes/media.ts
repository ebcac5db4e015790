/** Files a client adds to a video besides its source: its thumbnail and its captions tracks. */
import { Type } from 'typebox';
import { CaptionAddBody, CaptionAnswer, StatusAnswer } from '../../../schemas/video.js';
import { done, errorAnswers, type VideoApi, VideoParams } from '../video-api.js';

const CaptionParams = Type.Object({ ...VideoParams.properties, srclang: Type.String({ maxLength: 40, description: 'Language code of the track.' }) });
/** Largest thumbnail body. */
const THUMBNAIL_LIMIT = 10 * 1024 * 1024;

export default function mediaRoutes(app: VideoApi) {
  const tags = ['Videos'];
  app.post('/library/:libraryId/videos/:videoId/captions/:srclang', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_AddCaption',
      summary: 'Add or replace captions',
      tags,
      params: CaptionParams,
      body: CaptionAddBody,
      response: { 200: CaptionAnswer, ...errorAnswers },
    },
    handler: async (req) => ({
      ...done('The captions were added.'),
      data: await app.services.videoMedia.addCaption(req.library, req.params.videoId, req.params.srclang, req.body),
    }),
  });
  app.delete('/library/:libraryId/videos/:videoId/captions/:srclang', {
    config: { videoAccess: 'write' },
    schema: { operationId: 'Video_DeleteCaption', summary: 'Delete captions', tags, params: CaptionParams, response: { 200: StatusAnswer, ...errorAnswers } },
    handler: async (req) => {
      await app.services.videoMedia.deleteCaption(req.library, req.params.videoId, req.params.srclang);
      return done('The captions were deleted.');
    },
  });
  app.register(async (scope) => {
    // The thumbnail comes as the body's bytes (any image type), or by address in `thumbnailUrl`.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: THUMBNAIL_LIMIT }, (_req, body, parsed) => parsed(null, body));
    (scope as VideoApi).post('/library/:libraryId/videos/:videoId/thumbnail', {
      config: { videoAccess: 'write' },
      schema: {
        operationId: 'Video_SetThumbnail',
        summary: 'Set the thumbnail',
        tags,
        params: VideoParams,
        querystring: Type.Object({ thumbnailUrl: Type.Optional(Type.String({ maxLength: 8192, description: 'Address of the image, instead of a body.' })) }),
        response: { 200: StatusAnswer, ...errorAnswers, 413: { $ref: 'ErrorBody#' }, 422: { $ref: 'ErrorBody#' } },
      },
      handler: async (req) => {
        const bytes = Buffer.isBuffer(req.body) ? req.body : undefined;
        await app.services.videoMedia.setThumbnail(req.library, req.params.videoId, { bytes, url: req.query.thumbnailUrl });
        return done('The thumbnail was set.');
      },
    });
  });
}
