import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { IMAGE_ROUTES, IMAGE_TYPES } from './image-slots.js';

export default function readVideoLibraryImages(app: Api) {
  const images = Object.fromEntries(IMAGE_TYPES.filter((t) => t.startsWith('image/')).map((t) => [t, { schema: Type.String({ format: 'binary' }) }]));
  for (const image of IMAGE_ROUTES) {
    app.get(`/videolibrary/:id/${image.path}`, {
      config: { access: 'read' },
      schema: {
        operationId: `get${image.operation}`,
        summary: `Download the ${image.what} of a video library (edgeplane extension)`,
        description: `The image as uploaded, with its type; 404 when the library has none.`,
        tags: ['Video libraries'],
        params: IdParams('video library'),
        response: { 200: { description: `The ${image.what}.`, content: images }, ...errorResponses },
      },
      handler: async (req, reply) => {
        const found = await app.services.videoLibraryImages.read(req.principal, req.params.id, image.slot);
        return reply.type(found.contentType).header('cache-control', 'no-cache').send(found.bytes);
      },
    });
  }
}
