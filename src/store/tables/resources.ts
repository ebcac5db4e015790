/**
 * The resources table (migration 0001): every resource a JSON document, with the columns the store
 * indexes itself (kind, owner, unique name, parent and link ids). Its rows as both dialects read them.
 */
import type { ResourceKind, StoredDoc } from '../types.js';
import { type DocCodec, type DumpRecordOf, dumpedTable } from './dumped-table.js';

/** What a read of a document selects (`DOC_COLUMNS`); `doc` as the dialect stores it (see DocCodec). */
export interface DocRow {
  id: string;
  account_id: number;
  version: number;
  doc: string | Buffer;
}

export const DOC_COLUMNS = 'id, account_id, version, doc';

/** `json`: the row's document as text, once the dialect has read it out of `doc`. */
export const storedDoc = <T>(r: DocRow, json: string): StoredDoc<T> => ({ id: r.id, accountId: r.account_id, version: r.version, doc: JSON.parse(json) as T });

/** The columns a new document writes, in the order of the values the dialects pass. */
export const NEW_DOC_COLUMNS = ['kind', 'id', 'account_id', 'name', 'parent_id', 'link_id', 'doc'] as const;

export interface ResourceRow extends DocRow {
  /** The order resources were added in. */
  rid: number;
  kind: ResourceKind;
  name: string | null;
  parent_id: string | null;
  link_id: string | null;
}

/** A resource as a dump holds it: every column but its order (`rid`), the document as text. */
const resourceDumpFields = (r: ResourceRow, docs: DocCodec) => ({
  kind: r.kind,
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  parentId: r.parent_id,
  linkId: r.link_id,
  version: r.version,
  doc: docs.decode(r.doc),
});
const RESOURCE_COLUMNS = ['kind', 'id', 'account_id', 'name', 'parent_id', 'link_id', 'version', 'doc'];
const resourceValues = (r: DumpRecordOf<'resource'>, docs: DocCodec) => [
  r.kind,
  r.id,
  r.accountId,
  r.name,
  r.parentId,
  r.linkId,
  r.version,
  docs.encode(r.kind, r.doc),
];

export const resourcesDumped = dumpedTable('resource', 'resources', ['rid'], RESOURCE_COLUMNS, resourceDumpFields, resourceValues);
