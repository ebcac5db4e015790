/** A library's videos: create, read, list, update, delete. */
import { Type } from 'typebox';
import { Int32 } from '../../../schemas/common.js';
import { StatusAnswer, Video, VideoCreateBody, VideoPage, VideoUpdateBody } from '../../../schemas/video.js';
import { done, errorAnswers, LibraryParams, type VideoApi, VideoParams } from '../video-api.js';

const ListQuery = Type.Object({
  page: Int32({ minimum: 1, default: 1, description: 'Page number, from 1.' }),
  itemsPerPage: Int32({ minimum: 1, maximum: 1000, default: 100, description: 'Videos per page.' }),
  search: Type.Optional(Type.String({ maxLength: 1000, description: 'Only videos whose title contains this text, ignoring case.' })),
  collection: Type.Optional(Type.String({ maxLength: 64, description: 'Only the videos of this collection.' })),
  orderBy: Type.Optional(Type.String({ maxLength: 20, description: '`date` (newest first, the default) or `title`.' })),
});

export default function videoRoutes(app: VideoApi) {
  const tags = ['Videos'];
  app.get('/library/:libraryId/videos/:videoId', {
    config: { videoAccess: 'read' },
    schema: { operationId: 'Video_GetVideo', summary: 'Get a video', tags, params: VideoParams, response: { 200: Video, ...errorAnswers } },
    handler: (req) => app.services.videos.get(req.library, req.params.videoId),
  });
  app.get('/library/:libraryId/videos', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Video_List',
      summary: 'List videos',
      tags,
      params: LibraryParams,
      querystring: ListQuery,
      response: { 200: VideoPage, ...errorAnswers },
    },
    handler: (req) => app.services.videos.list(req.library, req.query),
  });
  app.post('/library/:libraryId/videos', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_CreateVideo',
      summary: 'Create a video',
      tags,
      params: LibraryParams,
      body: VideoCreateBody,
      response: { 200: Video, ...errorAnswers },
    },
    handler: (req) => app.services.videos.create(req.library, req.body),
  });
  app.post('/library/:libraryId/videos/:videoId', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_UpdateVideo',
      summary: 'Update a video',
      tags,
      params: VideoParams,
      body: VideoUpdateBody,
      response: { 200: StatusAnswer, ...errorAnswers },
    },
    handler: async (req) => {
      await app.services.videos.update(req.library, req.params.videoId, req.body);
      return done('The video was updated.');
    },
  });
  app.delete('/library/:libraryId/videos/:videoId', {
    config: { videoAccess: 'write' },
    schema: { operationId: 'Video_DeleteVideo', summary: 'Delete a video', tags, params: VideoParams, response: { 200: StatusAnswer, ...errorAnswers } },
    handler: async (req) => {
      await app.services.videos.delete(req.library, req.params.videoId);
      return done('The video was deleted.');
    },
  });
}
