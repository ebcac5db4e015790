import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE } from '../../../../domain/video-libraries/images.js';
import { BinaryBodySchema, binaryBodyValidator } from '../../plugins/binary-body.js';
import { IMAGE_ROUTES, IMAGE_TYPES } from './image-slots.js';

/** Registered in a scope that reads image bodies (see index.ts). */
export default function uploadVideoLibraryImages(app: Api) {
  for (const image of IMAGE_ROUTES) {
    app.put(`/videolibrary/:id/${image.path}`, {
      config: { access: 'write' },
      bodyLimit: MAX_IMAGE_BYTES,
      validatorCompiler: binaryBodyValidator,
      schema: {
        operationId: `upload${image.operation}`,
        summary: `Upload the ${image.what} of a video library, replacing the one it had`,
        description:
          `The body is the image: PNG, JPEG, GIF or WebP, at most ${MAX_IMAGE_BYTES} bytes and ${MAX_IMAGE_SIDE} pixels a side, recognised from its ` +
          `bytes whatever the content type says. Read it back with GET on the same path.` +
          (image.slot === 'watermark' ? ' The library shows `HasWatermark: true` and a higher `WatermarkVersion`.' : ''),
        tags: ['Video libraries'],
        consumes: [...IMAGE_TYPES],
        params: IdParams('video library'),
        body: BinaryBodySchema(`The ${image.what} image.`),
        response: { 204: Type.Null({ description: 'Stored.' }), ...errorResponses, 413: { $ref: 'ErrorBody#' }, 415: { $ref: 'ErrorBody#' } },
      },
      handler: async (req, reply) => {
        await app.services.videoLibraryImages.put(req.principal, req.params.id, image.slot, req.body?.bytes());
        return reply.code(204).send(null);
      },
    });
  }
}
