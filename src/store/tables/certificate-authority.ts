/** The rows of the local certificate authority and its kept leaves, the same in both dialects (migrations sqlite 0007 and 0011, postgres 0008 and 0012). */
import type { StoredAuthority, StoredLeaf } from '../types.js';
import type { DumpedTable } from './dumped-table.js';

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

export const authorityValues = (a: StoredAuthority) => [a.installationId, a.certificate, a.sealedKey, a.createdAt];

export interface LeafRow {
  installation_id: string;
  certificate: string;
  sealed_key: string;
  serial: string;
  not_before: string;
  not_after: string;
}

export const LEAF_COLUMNS = 'installation_id, certificate, sealed_key, serial, not_before, not_after';

/** The same statement in both dialects but for its placeholders: `(?, ...)` or `($1, ...)`. */
export const keepLeafSql = (placeholders: string) =>
  `INSERT INTO kept_certificates (key, ${LEAF_COLUMNS}) VALUES (${placeholders})
   ON CONFLICT (key) DO UPDATE SET installation_id = excluded.installation_id, certificate = excluded.certificate,
     sealed_key = excluded.sealed_key, serial = excluded.serial, not_before = excluded.not_before, not_after = excluded.not_after`;

export const leafFromRow = (r: LeafRow): StoredLeaf => ({
  installationId: r.installation_id,
  certificate: r.certificate,
  sealedKey: r.sealed_key,
  serial: r.serial,
  notBefore: r.not_before,
  notAfter: r.not_after,
});

export const leafValues = (key: string, l: StoredLeaf) => [key, l.installationId, l.certificate, l.sealedKey, l.serial, l.notBefore, l.notAfter];

/** A dump's authority replaces the loading store's own (which survives wipes, so an "empty" store may have one). Its kept leaves are not dumped. */
export const certificateAuthorityDumped: DumpedTable<'certificateAuthority', AuthorityRow> = {
  type: 'certificateAuthority',
  table: 'certificate_authority',
  order: ['id'],
  columns: ['id', 'installation_id', 'certificate', 'sealed_key', 'created_at'],
  onConflict:
    'ON CONFLICT (id) DO UPDATE SET installation_id = excluded.installation_id, certificate = excluded.certificate, sealed_key = excluded.sealed_key, created_at = excluded.created_at',
  record: (r) => ({ type: 'certificateAuthority', ...authorityFromRow(r) }),
  values: (r) => [1, ...authorityValues(r)],
};
