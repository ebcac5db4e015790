/** A script's secrets: list (names only), add, change, add-or-change by name, delete. Values are never answered. */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import {
  AddEdgeScriptSecretRequest,
  EdgeScriptParams,
  EdgeScriptSecret,
  EdgeScriptSecretList,
  EdgeScriptSecretParams,
  UpdateEdgeScriptSecretRequest,
  UpsertEdgeScriptSecretRequest,
} from '../../../../schemas/edge-scripts.js';
import { TAGS } from './tags.js';

export default function secretRoutes(app: Api) {
  const settings = () => app.services.edgeScripts.settings;
  app.get('/compute/script/:id/secrets', {
    config: { access: 'read' },
    schema: {
      operationId: 'listEdgeScriptSecrets',
      summary: 'List the secrets of a script (names, never values)',
      tags: TAGS,
      params: EdgeScriptParams,
      response: { 200: EdgeScriptSecretList, ...errorResponses },
    },
    handler: (req) => settings().secrets(req.principal, req.params.id),
  });
  app.post('/compute/script/:id/secrets', {
    config: { access: 'write' },
    schema: {
      operationId: 'addEdgeScriptSecret',
      summary: 'Add a secret (sealed at rest, handed to the script as an environment variable)',
      tags: TAGS,
      params: EdgeScriptParams,
      body: AddEdgeScriptSecretRequest,
      response: { 200: EdgeScriptSecret, ...errorResponses },
    },
    handler: (req) => settings().addSecret(req.principal, req.params.id, req.body.Name, req.body.Secret),
  });
  app.put('/compute/script/:id/secrets', {
    config: { access: 'write' },
    schema: {
      operationId: 'upsertEdgeScriptSecret',
      summary: 'Add a secret, or set the one of that name (200 added, 204 set)',
      tags: TAGS,
      params: EdgeScriptParams,
      body: UpsertEdgeScriptSecretRequest,
      response: { 200: EdgeScriptSecret, 204: Type.Null({ description: 'Set.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      const { created, secret } = await settings().upsertSecret(req.principal, req.params.id, req.body.Name, req.body.Secret);
      return created ? reply.code(200).send(secret) : reply.code(204).send(null);
    },
  });
  app.post('/compute/script/:id/secrets/:secretId', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateEdgeScriptSecret',
      summary: "Set a secret's value",
      tags: TAGS,
      params: EdgeScriptSecretParams,
      body: UpdateEdgeScriptSecretRequest,
      response: { 200: EdgeScriptSecret, ...errorResponses },
    },
    handler: (req) => settings().updateSecret(req.principal, req.params.id, req.params.secretId, req.body.Secret),
  });
  app.delete('/compute/script/:id/secrets/:secretId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteEdgeScriptSecret',
      summary: 'Delete a secret',
      tags: TAGS,
      params: EdgeScriptSecretParams,
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await settings().deleteSecret(req.principal, req.params.id, req.params.secretId);
      return reply.code(204).send(null);
    },
  });
}
