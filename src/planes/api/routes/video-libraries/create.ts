import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { VideoLibrary, VideoLibraryAddRequest } from '../../../../schemas/video-library.js';

export default function createVideoLibrary(app: Api) {
  app.post('/videolibrary', {
    config: { access: 'write' },
    schema: {
      operationId: 'createVideoLibrary',
      summary: 'Create a video library, with its own storage zone and pull zone',
      tags: ['Video libraries'],
      body: VideoLibraryAddRequest,
      response: { 201: VideoLibrary, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.videoLibraries.create(req.principal, req.body)),
  });
}
