/** The local certificate authority's row (migrations sqlite 0007, postgres 0008): one per database, the same in both dialects. */
import type { StoredAuthority } from '../types.js';
import { dumpedTable } from './dumped-table.js';

export interface AuthorityRow {
  installation_id: string;
  certificate: string;
  sealed_key: string;
  created_at: string;
}

export const authorityFromRow = (r: AuthorityRow): StoredAuthority => ({
  installationId: r.installation_id,
  certificate: r.certificate,
  sealedKey: r.sealed_key,
  createdAt: r.created_at,
});

/** The authority: there is one row, or none yet. */
export const GET_AUTHORITY = 'SELECT installation_id, certificate, sealed_key, created_at FROM certificate_authority WHERE id = 1';

export const authorityValues = (a: StoredAuthority) => [a.installationId, a.certificate, a.sealedKey, a.createdAt];

/** A dump's authority replaces the loading store's own (which survives wipes, so an "empty" store may have one). Its kept leaves are not dumped. */
const REPLACE_AUTHORITY =
  'ON CONFLICT (id) DO UPDATE SET installation_id = excluded.installation_id, certificate = excluded.certificate, sealed_key = excluded.sealed_key, created_at = excluded.created_at';
const AUTHORITY_COLUMNS = ['id', 'installation_id', 'certificate', 'sealed_key', 'created_at'];
const authorityRowValues = (a: StoredAuthority) => [1, ...authorityValues(a)];

export const certificateAuthorityDumped = dumpedTable(
  'certificateAuthority',
  'certificate_authority',
  ['id'],
  AUTHORITY_COLUMNS,
  authorityFromRow,
  authorityRowValues,
  REPLACE_AUTHORITY,
);
