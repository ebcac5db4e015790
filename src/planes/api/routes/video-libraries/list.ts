import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Int32 } from '../../../../schemas/common.js';
import { PageQuery, Paged } from '../../../../schemas/paging.js';
import { VideoLibrary } from '../../../../schemas/video-library.js';

/** Unlike the storage zone list, this one always answers the page object, so paging starts at 1. */
const VideoLibraryListQuery = Type.Object({
  page: Int32({ minimum: 1, maximum: 2147483647, default: 1, description: 'Page number, starting at 1.' }),
  perPage: PageQuery.properties.perPage,
  search: Type.Optional(Type.String({ description: 'Only libraries whose name contains this text, ignoring case.' })),
});

const VideoLibraryPage = Paged(VideoLibrary, 'video libraries');

export default function listVideoLibraries(app: Api) {
  app.get('/videolibrary', {
    config: { access: 'read' },
    schema: {
      operationId: 'listVideoLibraries',
      summary: 'List the video libraries of the account, one page at a time',
      tags: ['Video libraries'],
      querystring: VideoLibraryListQuery,
      response: { 200: VideoLibraryPage, ...errorResponses },
    },
    handler: (req) => app.services.videoLibraries.list(req.principal, req.query.page, req.query.perPage, req.query.search),
  });
}
