/** The local certificate authority's row and its kept leaves on PostgreSQL (migrations 0008, 0012). */
import { type AuthorityRow, authorityFromRow, authorityValues, GET_AUTHORITY } from '../tables/certificate-authority.js';
import { keepLeafSql, LEAF_SELECT, type LeafRow, leafFromRow, leafValues } from '../tables/kept-certificates.js';
import { postgresParam } from '../tables/sql.js';
import type { CertificateAuthorityRecords, StoredAuthority, StoredLeaf } from '../types.js';
import type { Queryable } from './queryable.js';

export class PgCertificateAuthority implements CertificateAuthorityRecords {
  constructor(private readonly db: Queryable) {}
  async get(): Promise<StoredAuthority | undefined> {
    const { rows } = await this.db.query<AuthorityRow>(GET_AUTHORITY);
    return rows[0] && authorityFromRow(rows[0]);
  }
  async createOnce(authority: StoredAuthority): Promise<StoredAuthority> {
    // The unique key settles a race between two instances: the loser's insert does nothing and it reads the winner's.
    await this.db.query(
      'INSERT INTO certificate_authority (id, installation_id, certificate, sealed_key, created_at) VALUES (1, $1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
      authorityValues(authority),
    );
    const { rows } = await this.db.query<AuthorityRow>(GET_AUTHORITY);
    return authorityFromRow(rows[0]!);
  }
  async keptLeaf(key: string): Promise<StoredLeaf | undefined> {
    const { rows } = await this.db.query<LeafRow>(`SELECT ${LEAF_SELECT} FROM kept_certificates WHERE key = $1`, [key]);
    return rows[0] && leafFromRow(rows[0]);
  }
  async keepLeaf(key: string, leaf: StoredLeaf): Promise<void> {
    await this.db.query(keepLeafSql(postgresParam), leafValues(key, leaf));
  }
}
