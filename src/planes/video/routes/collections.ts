/** A library's collections: create, read, list, rename, delete. */
import { Type } from 'typebox';
import { Int32 } from '../../../schemas/common.js';
import { Collection, CollectionBody, CollectionPage, StatusAnswer } from '../../../schemas/video.js';
import { CollectionParams, done, errorAnswers, LibraryParams, type VideoApi } from '../video-api.js';

const includeThumbnails = Type.Boolean({ default: false, description: 'Also list the thumbnail addresses of the preview videos.' });
const ListQuery = Type.Object({
  page: Int32({ minimum: 1, default: 1, description: 'Page number, from 1.' }),
  itemsPerPage: Int32({ minimum: 1, maximum: 1000, default: 100, description: 'Collections per page.' }),
  search: Type.Optional(Type.String({ maxLength: 1000, description: 'Only collections whose name contains this text, ignoring case.' })),
  orderBy: Type.Optional(Type.String({ maxLength: 20, description: '`date` (newest first, the default) or `name`.' })),
  includeThumbnails,
});

export default function collectionRoutes(app: VideoApi) {
  const tags = ['Collections'];
  app.get('/library/:libraryId/collections/:collectionId', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Collection_GetCollection',
      summary: 'Get a collection',
      tags,
      params: CollectionParams,
      querystring: Type.Object({ includeThumbnails }),
      response: { 200: Collection, ...errorAnswers },
    },
    handler: (req) => app.services.videoCollections.get(req.library, req.params.collectionId, req.query.includeThumbnails),
  });
  app.get('/library/:libraryId/collections', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Collection_List',
      summary: 'List collections',
      tags,
      params: LibraryParams,
      querystring: ListQuery,
      response: { 200: CollectionPage, ...errorAnswers },
    },
    handler: (req) => app.services.videoCollections.list(req.library, req.query),
  });
  app.post('/library/:libraryId/collections', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Collection_CreateCollection',
      summary: 'Create a collection',
      tags,
      params: LibraryParams,
      body: CollectionBody,
      response: { 200: Collection, ...errorAnswers },
    },
    handler: (req) => app.services.videoCollections.create(req.library, req.body),
  });
  app.post('/library/:libraryId/collections/:collectionId', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Collection_UpdateCollection',
      summary: 'Update a collection',
      tags,
      params: CollectionParams,
      body: CollectionBody,
      response: { 200: StatusAnswer, ...errorAnswers },
    },
    handler: async (req) => {
      await app.services.videoCollections.rename(req.library, req.params.collectionId, req.body);
      return done('The collection was updated.');
    },
  });
  app.delete('/library/:libraryId/collections/:collectionId', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Collection_DeleteCollection',
      summary: 'Delete a collection',
      tags,
      params: CollectionParams,
      response: { 200: StatusAnswer, ...errorAnswers },
    },
    handler: async (req) => {
      await app.services.videoCollections.delete(req.library, req.params.collectionId);
      return done('The collection was deleted.');
    },
  });
}
