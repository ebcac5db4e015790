import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';

export default function deleteVideoLibrary(app: Api) {
  app.delete('/videolibrary/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteVideoLibrary',
      summary: 'Delete a video library together with its pull zone and storage zone',
      tags: ['Video libraries'],
      params: IdParams('video library'),
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.videoLibraries.delete(req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
