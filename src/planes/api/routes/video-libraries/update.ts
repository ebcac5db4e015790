import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { VideoLibrary, VideoLibraryUpdateRequest } from '../../../../schemas/video-library.js';

export default function updateVideoLibrary(app: Api) {
  app.post('/videolibrary/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateVideoLibrary',
      summary: 'Change some settings of a video library; the answer is the whole library',
      tags: ['Video libraries'],
      params: IdParams('video library'),
      body: VideoLibraryUpdateRequest,
      response: { 200: VideoLibrary, ...errorResponses },
    },
    handler: (req) => app.services.videoLibraries.update(req.principal, req.params.id, req.body),
  });
}
