/** Releases: the live one, the list, publishing the uploaded code, publishing an earlier release again (rollback). */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import {
  EdgeScriptParams,
  EdgeScriptRelease,
  EdgeScriptReleasePage,
  EdgeScriptReleaseParams,
  PageOnlyQuery,
  PublishEdgeScriptRequest,
} from '../../../../schemas/edge-scripts.js';
import { TAGS } from './tags.js';

const Published = { 204: Type.Null({ description: 'Published: every instance runs it within a second.' }), ...errorResponses };

export default function releaseRoutes(app: Api) {
  const scripts = () => app.services.edgeScripts.scripts;
  app.get('/compute/script/:id/releases/active', {
    config: { access: 'read' },
    schema: {
      operationId: 'getActiveEdgeScriptRelease',
      summary: 'Read the live release of a script (404 before the first publish)',
      tags: TAGS,
      params: EdgeScriptParams,
      response: { 200: EdgeScriptRelease, ...errorResponses },
    },
    handler: (req) => scripts().activeRelease(req.principal, req.params.id),
  });
  app.get('/compute/script/:id/releases', {
    config: { access: 'read' },
    schema: {
      operationId: 'listEdgeScriptReleases',
      summary: 'List the releases of a script, newest first',
      tags: TAGS,
      params: EdgeScriptParams,
      querystring: PageOnlyQuery,
      response: { 200: EdgeScriptReleasePage, ...errorResponses },
    },
    handler: (req) => scripts().releasesOf(req.principal, req.params.id, req.query.page, req.query.perPage),
  });
  app.post('/compute/script/:id/publish', {
    config: { access: 'write' },
    schema: {
      operationId: 'publishEdgeScript',
      summary: 'Publish the uploaded code as a new live release',
      tags: TAGS,
      params: EdgeScriptParams,
      body: Type.Optional(PublishEdgeScriptRequest),
      response: Published,
    },
    handler: async (req, reply) => {
      await scripts().publish(req.principal, req.params.id, req.body?.Note);
      return reply.code(204).send(null);
    },
  });
  app.post('/compute/script/:id/publish/:uuid', {
    config: { access: 'write' },
    schema: {
      operationId: 'publishEdgeScriptRelease',
      summary: 'Make an earlier release live again (a rollback)',
      tags: TAGS,
      params: EdgeScriptReleaseParams,
      body: Type.Optional(PublishEdgeScriptRequest),
      response: Published,
    },
    handler: async (req, reply) => {
      await scripts().publish(req.principal, req.params.id, req.body?.Note, req.params.uuid);
      return reply.code(204).send(null);
    },
  });
}
