import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { IMAGE_ROUTES } from './image-slots.js';

export default function deleteVideoLibraryImages(app: Api) {
  for (const image of IMAGE_ROUTES) {
    app.delete(`/videolibrary/:id/${image.path}`, {
      config: { access: 'write' },
      schema: {
        operationId: `delete${image.operation}`,
        summary: `Remove the ${image.what} of a video library (none there: no change)`,
        tags: ['Video libraries'],
        params: IdParams('video library'),
        response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses },
      },
      handler: async (req, reply) => {
        await app.services.videoLibraryImages.remove(req.principal, req.params.id, image.slot);
        return reply.code(204).send(null);
      },
    });
  }
}
