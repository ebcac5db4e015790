/** The audit log's rows (migrations sqlite 0005, postgres 0006), and its filters as SQL: the same in both dialects. */
import type { AuditEntry, AuditQuery } from '../types.js';
import { dumpedTable } from './dumped-table.js';

export interface AuditRow {
  id: number;
  account_id: number;
  day: string;
  at: string;
  product: string;
  resource_type: string;
  resource_id: string | null;
  action: string;
  actor_id: string;
  actor_type: string;
  diff: string | null;
}

export const auditFromRow = (r: AuditRow): AuditEntry => ({
  id: r.id,
  accountId: r.account_id,
  day: r.day,
  at: r.at,
  product: r.product,
  resourceType: r.resource_type,
  resourceId: r.resource_id,
  action: r.action,
  actorId: r.actor_id,
  actorType: r.actor_type,
  diff: r.diff,
});

export const AUDIT_COLUMNS = ['id', 'account_id', 'day', 'at', 'product', 'resource_type', 'resource_id', 'action', 'actor_id', 'actor_type', 'diff'] as const;
/** `AUDIT_COLUMNS` as a select list. */
export const AUDIT_SELECT = AUDIT_COLUMNS.join(', ');

/** The filters of a query as SQL conditions, in one place for both dialects: `param(i)` writes the i-th placeholder. */
export function auditConditions(accountId: number, query: AuditQuery, param: (index: number) => string): { where: string; values: unknown[] } {
  const values: unknown[] = [accountId, query.day];
  const where = [`account_id = ${param(1)}`, `day = ${param(2)}`];
  const inList = (column: string, list: string[] | undefined) => {
    if (!list || list.length === 0) return;
    const marks = list.map((v) => {
      values.push(v);
      return param(values.length);
    });
    where.push(`${column} IN (${marks.join(', ')})`);
  };
  inList('product', query.products);
  inList('resource_type', query.resourceTypes);
  inList('resource_id', query.resourceIds);
  inList('actor_id', query.actorIds);
  if (query.after !== undefined) {
    values.push(query.after);
    where.push(`id ${query.descending ? '<' : '>'} ${param(values.length)}`);
  }
  return { where: where.join(' AND '), values };
}

const auditValues = (e: AuditEntry) => [e.id, e.accountId, e.day, e.at, e.product, e.resourceType, e.resourceId, e.action, e.actorId, e.actorType, e.diff];

export const auditLogDumped = dumpedTable('auditEntry', 'audit_log', ['id'], AUDIT_COLUMNS, auditFromRow, auditValues);
