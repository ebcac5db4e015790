/** The row of the local certificate authority, the same in both dialects (migrations sqlite 0007, postgres 0008). */
import type { StoredAuthority } from './types.js';

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
