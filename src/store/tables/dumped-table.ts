/**
 * How a table goes into a dump (`edgeplane export`) and comes back (`edgeplane import`), the same
 * for both dialects: its rows in a stable order, each one record of the dump, and each record the
 * values of one row again. Each table's file declares its own (tables/*.ts); store/dump.ts lists
 * them in the order a load can replay.
 */
import type { DumpRecord, ResourceKind } from '../types.js';

export type DumpType = DumpRecord['type'];
export type DumpRecordOf<K extends DumpType> = Extract<DumpRecord, { type: K }>;

/** A resource document as the dialect stores it: SQLite compresses pull zones (sqlite/doc-codec.ts), PostgreSQL keeps text. */
export interface DocCodec {
  encode(kind: ResourceKind, json: string): string | Buffer;
  decode(stored: string | Buffer): string;
}

export interface DumpedTable<K extends DumpType, R extends object> {
  /** The records its rows become. */
  readonly type: K;
  readonly table: string;
  /** A unique key: rows are dumped in its order (and PostgreSQL pages through them by it). */
  readonly order: readonly string[];
  /** The columns a load writes, in the order of `values`. */
  readonly columns: readonly string[];
  /** Appended to the load's INSERT (a row the store already holds is replaced). */
  readonly onConflict?: string;
  record(row: R, docs: DocCodec): DumpRecordOf<K>;
  values(record: DumpRecordOf<K>, docs: DocCodec): unknown[];
}

/**
 * `table`'s rows become records of `type` (`{ type, ...fields(row) }`), dumped in the order of
 * `order`; a load writes `values(record)` into `columns`, then `onConflict` when given.
 */
export function dumpedTable<K extends DumpType, R extends object>(
  type: K,
  table: string,
  order: readonly string[],
  columns: readonly string[],
  fields: (row: R, docs: DocCodec) => Omit<DumpRecordOf<K>, 'type'>,
  values: (record: DumpRecordOf<K>, docs: DocCodec) => unknown[],
  onConflict?: string,
): DumpedTable<K, R> {
  const record = (row: R, docs: DocCodec) => ({ type, ...fields(row, docs) }) as DumpRecordOf<K>;
  return onConflict === undefined ? { type, table, order, columns, record, values } : { type, table, order, columns, onConflict, record, values };
}

/** Any table's, as the dump's loops see them (its methods take what that table's take). */
export interface SomeDumpedTable extends Omit<DumpedTable<DumpType, object>, 'record' | 'values'> {
  record(row: object, docs: DocCodec): DumpRecord;
  values(record: DumpRecord, docs: DocCodec): unknown[];
}
