import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { VideoLibrary } from '../../../../schemas/video-library.js';

export default function getVideoLibrary(app: Api) {
  app.get('/videolibrary/:id', {
    config: { access: 'read' },
    schema: {
      operationId: 'getVideoLibrary',
      summary: 'Read a video library with all its settings',
      tags: ['Video libraries'],
      params: IdParams('video library'),
      response: { 200: VideoLibrary, ...errorResponses },
    },
    handler: (req) => app.services.videoLibraries.get(req.principal, req.params.id),
  });
}
