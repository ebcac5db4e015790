/** The API keys table (migration 0001): its rows as both dialects read them. */
import type { ApiKeyRecord, ApiKeys, KeyKind } from '../types.js';
import { type DumpRecordOf, dumpedTable } from './dumped-table.js';

export interface KeyRow {
  id: number;
  account_id: number;
  kind: KeyKind;
  /** JSON array of role names. */
  roles: string;
  lookup_hash: string;
  sealed_key: string;
  created_at: string;
  revoked_at: string | null;
}

export const keyFromRow = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  roles: JSON.parse(r.roles) as string[],
  sealedKey: r.sealed_key,
  createdAt: r.created_at,
});

/** A new key's values, in the order of `KEY_COLUMNS`. */
export const newKeyValues = (k: Parameters<ApiKeys['create']>[0]) => [k.accountId, k.kind, JSON.stringify(k.roles), k.lookupHash, k.sealedKey, k.createdAt];
export const KEY_COLUMNS = ['account_id', 'kind', 'roles', 'lookup_hash', 'sealed_key', 'created_at'] as const;

/** A key as a dump holds it: with its lookup hash and its revocation, which the store's reads leave out. */
const keyDumpFields = (r: KeyRow) => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  roles: JSON.parse(r.roles) as string[],
  lookupHash: r.lookup_hash,
  sealedKey: r.sealed_key,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});
const keyDumpValues = (k: DumpRecordOf<'apiKey'>) => [k.id, ...newKeyValues(k), k.revokedAt];

export const apiKeysDumped = dumpedTable('apiKey', 'api_keys', ['id'], ['id', ...KEY_COLUMNS, 'revoked_at'], keyDumpFields, keyDumpValues);
