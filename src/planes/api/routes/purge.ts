import { Type } from 'typebox';
import type { Api } from '../api.js';
import { errorResponses } from '../api.js';

const PurgeQuery = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'The URL to purge: `https://<hostname>/<path>`; `*` matches any run of characters.' }),
  async: Type.Optional(Type.Boolean({ default: false, description: 'Accepted for compatibility: the purge is recorded before the answer either way.' })),
  exactPath: Type.Optional(Type.Boolean({ default: false, description: 'For a URL ending in `/`: purge that path only, not everything below it.' })),
});

/** The reference's `POST /purge`: one URL, or a `*` pattern, out of the edge cache of every instance. */
export default function purgeUrl(app: Api) {
  app.post('/purge', {
    config: { access: 'write' },
    schema: {
      operationId: 'purgeUrl',
      summary: 'Purge one URL, or the URLs a `*` pattern matches, from the cache of the pull zone serving its hostname',
      tags: ['Pull zones'],
      querystring: PurgeQuery,
      response: { 200: Type.Null({ description: 'Purged: no edge serves the old copy any more.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.edgePurges.purge(req.principal, { url: req.query.url, exactPath: req.query.exactPath });
      return reply.code(200).send(null);
    },
  });
}
