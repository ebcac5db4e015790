import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ArrayOrPaged, PageQuery } from '../../../../schemas/paging.js';
import { StorageZone } from '../../../../schemas/storage-zone.js';

const StorageZoneListQuery = Type.Object({
  ...PageQuery.properties,
  includeDeleted: Type.Boolean({ default: false, description: 'Also list deleted zones (kept with `Deleted: true`).' }),
  search: Type.Optional(Type.String({ description: 'Only zones whose name contains this text, ignoring case.' })),
});

const StorageZoneList = ArrayOrPaged(StorageZone, 'storage zones');

export default function listStorageZones(app: Api) {
  app.get('/storagezone', {
    config: { access: 'read' },
    schema: {
      operationId: 'listStorageZones',
      summary: 'List the storage zones of the account: all of them as an array, or one page when `page` is set',
      tags: ['Storage zones'],
      querystring: StorageZoneListQuery,
      response: { 200: StorageZoneList, ...errorResponses },
    },
    handler: (req) => app.services.storageZones.list(req.principal, req.query),
  });
}
