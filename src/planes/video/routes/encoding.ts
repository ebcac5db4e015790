/** What a client asks of the encoding: encode again, add a codec, repackage, fetch from an address, remove renditions. */
import { Type } from 'typebox';
import { Int32 } from '../../../schemas/common.js';
import { FetchBody, StatusAnswer, Video } from '../../../schemas/video.js';
import { done, errorAnswers, LibraryParams, type VideoApi, VideoParams } from '../video-api.js';

const flag = (description: string) => Type.Boolean({ default: false, description });
const CleanupQuery = Type.Object({
  resolutionsToDelete: Type.Optional(Type.String({ maxLength: 200, description: 'Comma-separated renditions to remove (`240p,360p`).' })),
  deleteNonConfiguredResolutions: flag('Remove the renditions the library no longer asks for.'),
  allResolutions: flag('Remove every rendition.'),
  deleteOriginal: flag('Remove the original file too.'),
  outputs: Type.Optional(Type.String({ maxLength: 10, description: '`hls`, `mp4` or `all`: which outputs to clean.' })),
  deleteMp4Files: flag('Remove the MP4 fallbacks of those renditions too.'),
  dryRun: flag('Change nothing: only say what would be removed.'),
});

export default function encodingRoutes(app: VideoApi) {
  const tags = ['Encoding'];
  app.post('/library/:libraryId/videos/:videoId/reencode', {
    config: { videoAccess: 'write' },
    schema: { operationId: 'Video_ReencodeVideo', summary: 'Encode a video again', tags, params: VideoParams, response: { 200: Video, ...errorAnswers } },
    handler: (req) => app.services.videoEncodingRequests.reencode(req.library, req.params.videoId),
  });
  app.put('/library/:libraryId/videos/:videoId/outputs/:outputCodecId', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_ReencodeUsingCodec',
      summary: 'Add an output codec',
      tags,
      params: Type.Object({ ...VideoParams.properties, outputCodecId: Int32({ description: '0 x264, 1 vp9, 2 hevc, 3 av1.' }) }),
      response: { 200: Video, ...errorAnswers },
    },
    handler: (req) => app.services.videoEncodingRequests.addOutputCodec(req.library, req.params.videoId, req.params.outputCodecId),
  });
  app.post('/library/:libraryId/videos/:videoId/repackage', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_Repackage',
      summary: 'Package a video again',
      tags,
      params: VideoParams,
      querystring: Type.Object({ keepOriginalFiles: Type.Boolean({ default: true, description: 'Keep the previous files.' }) }),
      response: { 200: Video, ...errorAnswers },
    },
    handler: (req) => app.services.videoEncodingRequests.repackage(req.library, req.params.videoId, req.query.keepOriginalFiles),
  });
  app.post('/library/:libraryId/videos/fetch', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_FetchNewVideo',
      summary: 'Create a video from a URL',
      tags,
      params: LibraryParams,
      querystring: Type.Object({
        collectionId: Type.Optional(Type.String({ maxLength: 64, description: 'Collection to put the new video in.' })),
        thumbnailTime: Type.Optional(Int32({ minimum: 0, description: 'Where the main thumbnail is taken from, in milliseconds.' })),
      }),
      body: FetchBody,
      response: { 200: StatusAnswer, ...errorAnswers },
    },
    handler: async (req) => {
      const video = await app.services.videoEncodingRequests.fetch(req.library, req.body, req.query);
      // The platform answers a plain status; the new video's id is in the message (and the list).
      return done(`Video ${video.guid} was created; its file is being fetched.`);
    },
  });
  app.post('/library/:libraryId/videos/:videoId/resolutions/cleanup', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_DeleteResolutions',
      summary: 'Remove renditions',
      tags,
      params: VideoParams,
      querystring: CleanupQuery,
      response: { 200: StatusAnswer, ...errorAnswers },
    },
    handler: async (req) => {
      const removed = await app.services.videoEncodingRequests.cleanup(req.library, req.params.videoId, req.query);
      const what = removed.length > 0 ? removed.join(', ') : 'nothing';
      return done(req.query.dryRun ? `Would remove: ${what}.` : `Removed: ${what}.`);
    },
  });
}
