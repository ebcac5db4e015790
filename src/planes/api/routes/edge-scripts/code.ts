/** A script's code: read it, upload it (it runs once published). */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { EdgeScriptCode, EdgeScriptParams, UpdateEdgeScriptCodeRequest } from '../../../../schemas/edge-scripts.js';
import { CODE_BODY_LIMIT, CODE_MAX_CHARACTERS, TAGS } from './tags.js';

export default function codeRoutes(app: Api) {
  app.get('/compute/script/:id/code', {
    config: { access: 'read' },
    schema: {
      operationId: 'getEdgeScriptCode',
      summary: 'Read the code of a script as last uploaded',
      tags: TAGS,
      params: EdgeScriptParams,
      response: { 200: EdgeScriptCode, ...errorResponses },
    },
    handler: (req) => app.services.edgeScripts.scripts.code(req.principal, req.params.id),
  });
  app.post('/compute/script/:id/code', {
    config: { access: 'write', maxStringLength: CODE_MAX_CHARACTERS },
    // Code up to the platform's 10 MB (checked exactly by the service), escaped in JSON.
    bodyLimit: CODE_BODY_LIMIT,
    schema: {
      operationId: 'setEdgeScriptCode',
      summary: 'Upload the code of a script; it runs once published',
      tags: TAGS,
      params: EdgeScriptParams,
      body: UpdateEdgeScriptCodeRequest,
      response: { 204: Type.Null({ description: 'Uploaded.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.edgeScripts.scripts.setCode(req.principal, req.params.id, req.body.Code);
      return reply.code(204).send(null);
    },
  });
}
