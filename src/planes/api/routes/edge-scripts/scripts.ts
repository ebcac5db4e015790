/** The scripts themselves: list, create, read, change, delete (under /compute/script). */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import {
  AddEdgeScriptRequest,
  DeleteEdgeScriptQuery,
  EdgeScript,
  EdgeScriptListQuery,
  EdgeScriptPage,
  EdgeScriptParams,
  UpdateEdgeScriptRequest,
} from '../../../../schemas/edge-scripts.js';
import { CODE_BODY_LIMIT, CODE_MAX_CHARACTERS, TAGS } from './tags.js';

export default function scriptRoutes(app: Api) {
  const scripts = () => app.services.edgeScripts.scripts;
  app.get('/compute/script', {
    config: { access: 'read' },
    schema: {
      operationId: 'listEdgeScripts',
      summary: "List the account's edge scripts, a page at a time",
      tags: TAGS,
      querystring: EdgeScriptListQuery,
      response: { 200: EdgeScriptPage, ...errorResponses },
    },
    handler: (req) => scripts().list(req.principal, req.query),
  });
  app.post('/compute/script', {
    config: { access: 'write', maxStringLength: CODE_MAX_CHARACTERS },
    // Code up to the platform's 10 MB (checked exactly by the service), escaped in JSON.
    bodyLimit: CODE_BODY_LIMIT,
    schema: {
      operationId: 'addEdgeScript',
      summary: 'Create an edge script (and, for a standalone script, a pull zone that it serves)',
      tags: TAGS,
      body: AddEdgeScriptRequest,
      response: { 201: EdgeScript, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await scripts().create(req.principal, req.body)),
  });
  app.get('/compute/script/:id', {
    config: { access: 'read' },
    schema: {
      operationId: 'getEdgeScript',
      summary: 'Read an edge script',
      tags: TAGS,
      params: EdgeScriptParams,
      response: { 200: EdgeScript, ...errorResponses },
    },
    handler: (req) => scripts().get(req.principal, req.params.id),
  });
  app.post('/compute/script/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateEdgeScript',
      summary: "Change an edge script's name or type",
      tags: TAGS,
      params: EdgeScriptParams,
      body: UpdateEdgeScriptRequest,
      response: { 200: EdgeScript, ...errorResponses },
    },
    handler: (req) => scripts().update(req.principal, req.params.id, req.body),
  });
  app.delete('/compute/script/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteEdgeScript',
      summary: 'Delete an edge script: the zones that ran it stop running it, or are deleted with it when asked',
      tags: TAGS,
      params: EdgeScriptParams,
      querystring: DeleteEdgeScriptQuery,
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await scripts().delete(req.principal, req.params.id, req.query.deleteLinkedPullZones);
      return reply.code(204).send(null);
    },
  });
}
