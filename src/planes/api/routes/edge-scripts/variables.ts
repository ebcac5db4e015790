/** A script's variables: add, read, change, add-or-change by name, delete. */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import {
  AddEdgeScriptVariableRequest,
  EdgeScriptParams,
  EdgeScriptVariable,
  EdgeScriptVariableParams,
  UpdateEdgeScriptVariableRequest,
  UpsertEdgeScriptVariableRequest,
} from '../../../../schemas/edge-scripts.js';
import { TAGS } from './tags.js';

export default function variableRoutes(app: Api) {
  const settings = () => app.services.edgeScripts.settings;
  app.post('/compute/script/:id/variables/add', {
    config: { access: 'write' },
    schema: {
      operationId: 'addEdgeScriptVariable',
      summary: 'Add a variable (an environment variable of the script)',
      tags: TAGS,
      params: EdgeScriptParams,
      body: AddEdgeScriptVariableRequest,
      response: { 200: EdgeScriptVariable, ...errorResponses },
    },
    handler: (req) => settings().addVariable(req.principal, req.params.id, req.body),
  });
  app.get('/compute/script/:id/variables/:variableId', {
    config: { access: 'read' },
    schema: {
      operationId: 'getEdgeScriptVariable',
      summary: 'Read a variable',
      tags: TAGS,
      params: EdgeScriptVariableParams,
      response: { 200: EdgeScriptVariable, ...errorResponses },
    },
    handler: (req) => settings().variable(req.principal, req.params.id, req.params.variableId),
  });
  app.post('/compute/script/:id/variables/:variableId', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateEdgeScriptVariable',
      summary: "Change a variable's value or whether it is required",
      tags: TAGS,
      params: EdgeScriptVariableParams,
      body: UpdateEdgeScriptVariableRequest,
      response: { 200: EdgeScriptVariable, ...errorResponses },
    },
    handler: (req) => settings().updateVariable(req.principal, req.params.id, req.params.variableId, req.body),
  });
  app.put('/compute/script/:id/variables', {
    config: { access: 'write' },
    schema: {
      operationId: 'upsertEdgeScriptVariable',
      summary: 'Add a variable, or change the one of that name (200 added, 204 changed)',
      tags: TAGS,
      params: EdgeScriptParams,
      body: UpsertEdgeScriptVariableRequest,
      response: { 200: EdgeScriptVariable, 204: Type.Null({ description: 'Changed.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      const { created, variable } = await settings().upsertVariable(req.principal, req.params.id, req.body);
      return created ? reply.code(200).send(variable) : reply.code(204).send(null);
    },
  });
  app.delete('/compute/script/:id/variables/:variableId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteEdgeScriptVariable',
      summary: 'Delete a variable',
      tags: TAGS,
      params: EdgeScriptVariableParams,
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await settings().deleteVariable(req.principal, req.params.id, req.params.variableId);
      return reply.code(204).send(null);
    },
  });
}
