/**
 * The six access-list operations. They differ only in path, list and body, so they are declared
 * as one table rather than six copies of the same route.
 */
import { Type } from 'typebox';
import type { AccessList } from '../../../../domain/pull-zones/access-lists.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { BlockedIpBody, HostnameBody } from './bodies.js';

const ReferrerBody = HostnameBody('A referrer hostname such as example.com, or *.example.com for a whole domain.');

interface Operation {
  path: string;
  list: AccessList;
  add: boolean;
  what: string;
  body: typeof ReferrerBody | typeof BlockedIpBody;
}

const OPERATIONS: readonly Operation[] = [
  { path: 'addAllowedReferrer', list: 'AllowedReferrers', add: true, what: 'an allowed referrer', body: ReferrerBody },
  { path: 'removeAllowedReferrer', list: 'AllowedReferrers', add: false, what: 'an allowed referrer', body: ReferrerBody },
  { path: 'addBlockedReferrer', list: 'BlockedReferrers', add: true, what: 'a blocked referrer', body: ReferrerBody },
  { path: 'removeBlockedReferrer', list: 'BlockedReferrers', add: false, what: 'a blocked referrer', body: ReferrerBody },
  { path: 'addBlockedIp', list: 'BlockedIps', add: true, what: 'a blocked IP address or range', body: BlockedIpBody },
  { path: 'removeBlockedIp', list: 'BlockedIps', add: false, what: 'a blocked IP address or range', body: BlockedIpBody },
];

const listedValue = (body: { Hostname: string } | { BlockedIp: string }) => ('Hostname' in body ? body.Hostname : body.BlockedIp);

export default function accessListRoutes(app: Api) {
  for (const op of OPERATIONS) {
    app.post(`/pullzone/:id/${op.path}`, {
      config: { access: 'write' },
      schema: {
        operationId: `${op.path}PullZone`,
        summary: op.add ? `Add ${op.what} to a pull zone (already listed: no change)` : `Remove ${op.what} from a pull zone (not listed: no change)`,
        tags: ['Pull zones'],
        params: IdParams('pull zone'),
        body: op.body,
        response: { 204: Type.Null({ description: op.add ? 'Listed.' : 'No longer listed.' }), ...errorResponses },
      },
      handler: async (req, reply) => {
        const lists = app.services.pullZones.accessLists;
        const value = listedValue(req.body);
        if (op.add) await lists.add(req.principal, req.params.id, op.list, value);
        else await lists.remove(req.principal, req.params.id, op.list, value);
        return reply.code(204).send(null);
      },
    });
  }
}
