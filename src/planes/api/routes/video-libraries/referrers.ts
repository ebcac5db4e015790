import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';

const ReferrerRequest = Type.Object(
  { Hostname: Type.String({ minLength: 1, description: 'Host name of the referrer, e.g. `example.com` or `*.example.com`.' }) },
  { additionalProperties: false },
);

const OPERATIONS = [
  { path: 'addAllowedReferrer', list: 'AllowedReferrers', change: 'add', operationId: 'addVideoLibraryAllowedReferrer' },
  { path: 'removeAllowedReferrer', list: 'AllowedReferrers', change: 'remove', operationId: 'removeVideoLibraryAllowedReferrer' },
  { path: 'addBlockedReferrer', list: 'BlockedReferrers', change: 'add', operationId: 'addVideoLibraryBlockedReferrer' },
  { path: 'removeBlockedReferrer', list: 'BlockedReferrers', change: 'remove', operationId: 'removeVideoLibraryBlockedReferrer' },
] as const;

/** The four referrer list operations; each also applies to the library's pull zone. */
export default function videoLibraryReferrers(app: Api) {
  for (const op of OPERATIONS) {
    app.post(`/videolibrary/:id/${op.path}`, {
      config: { access: 'write' },
      schema: {
        operationId: op.operationId,
        summary: `${op.change === 'add' ? 'Add a host name to' : 'Remove a host name from'} the ${op.list === 'AllowedReferrers' ? 'allowed' : 'blocked'} referrers of a video library`,
        tags: ['Video libraries'],
        params: IdParams('video library'),
        body: ReferrerRequest,
        response: {
          200: Type.Null({ description: 'Done. The platform defines no content here; the body is JSON `null`, which every JSON client can parse.' }),
          ...errorResponses,
        },
      },
      handler: async (req, reply) => {
        const libraries = app.services.videoLibraries;
        if (op.change === 'add') await libraries.addReferrer(req.principal, req.params.id, op.list, req.body.Hostname);
        else await libraries.removeReferrer(req.principal, req.params.id, op.list, req.body.Hostname);
        return reply.code(200).send(null);
      },
    });
  }
}
