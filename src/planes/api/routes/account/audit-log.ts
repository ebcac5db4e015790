import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AuditLogPage, AuditLogParams, AuditLogQuery } from '../../../../schemas/account.js';
import { AUDIT_RETENTION_DAYS } from '../../../../domain/audit/log.js';

export default function readAuditLog(app: Api) {
  app.get('/user/audit/:date', {
    config: { access: 'read' },
    schema: {
      operationId: 'getAuditLog',
      summary: 'The writes made through the API on one day (UTC): which key changed what',
      description:
        `Every successful write, kept ${AUDIT_RETENTION_DAYS} days: the operation, the resource, the id of the key that made it and the names of ` +
        'the body fields it sent (never their values). Newest first unless `Order=Ascending`; a page ends with a `ContinuationToken` when more follow.',
      tags: ['Account'],
      params: AuditLogParams,
      querystring: AuditLogQuery,
      response: { 200: AuditLogPage, ...errorResponses },
    },
    handler: (req) => app.services.audit.read(req.principal, req.params.date, req.query),
  });
}
