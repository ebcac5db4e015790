/** The certificates the local authority issued and keeps (migrations sqlite 0011, postgres 0012), the same in both dialects. Not dumped. */
import type { StoredLeaf } from '../types.js';
import { insertSql, type Param } from './sql.js';

export interface LeafRow {
  installation_id: string;
  certificate: string;
  sealed_key: string;
  serial: string;
  not_before: string;
  not_after: string;
}

const LEAF_COLUMNS = ['installation_id', 'certificate', 'sealed_key', 'serial', 'not_before', 'not_after'] as const;
/** What a read of a leaf selects. */
export const LEAF_SELECT = LEAF_COLUMNS.join(', ');

/** Keeps a leaf under its key (leafValues), replacing what was kept there. */
export const keepLeafSql = (param: Param) =>
  `${insertSql('kept_certificates', ['key', ...LEAF_COLUMNS], param)}
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
