import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';

const RESETS = [
  { path: 'resetApiKey', key: 'ApiKey', operationId: 'resetVideoLibraryApiKey', what: 'read-write' },
  { path: 'resetReadOnlyApiKey', key: 'ReadOnlyApiKey', operationId: 'resetVideoLibraryReadOnlyApiKey', what: 'read-only' },
] as const;

export default function resetVideoLibraryKeys(app: Api) {
  for (const reset of RESETS) {
    app.post(`/videolibrary/:id/${reset.path}`, {
      config: { access: 'write' },
      schema: {
        operationId: reset.operationId,
        summary: `Replace the ${reset.what} API key of a video library; the old one stops working`,
        tags: ['Video libraries'],
        params: IdParams('video library'),
        response: { 204: Type.Null({ description: 'Replaced; read the library to see the new key.' }), ...errorResponses },
      },
      handler: async (req, reply) => {
        await app.services.videoLibraries.resetKey(req.principal, req.params.id, reset.key);
        return reply.code(204).send(null);
      },
    });
  }
}
