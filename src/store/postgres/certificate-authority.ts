/** The local certificate authority's row and its kept leaves on PostgreSQL (migrations 0008, 0012). */
import {
  type AuthorityRow,
  authorityFromRow,
  authorityValues,
  keepLeafSql,
  LEAF_COLUMNS,
  type LeafRow,
  leafFromRow,
  leafValues,
} from '../tables/certificate-authority.js';
import type { CertificateAuthorityRecords, StoredAuthority, StoredLeaf } from '../types.js';
import type { Queryable } from './queryable.js';

const SELECT = 'SELECT installation_id, certificate, sealed_key, created_at FROM certificate_authority WHERE id = 1';

export class PgCertificateAuthority implements CertificateAuthorityRecords {
  constructor(private readonly db: Queryable) {}
  async get(): Promise<StoredAuthority | undefined> {
    const { rows } = await this.db.query<AuthorityRow>(SELECT);
    return rows[0] && authorityFromRow(rows[0]);
  }
  async createOnce(authority: StoredAuthority): Promise<StoredAuthority> {
    // The unique key settles a race between two instances: the loser's insert does nothing and it reads the winner's.
    await this.db.query(
      'INSERT INTO certificate_authority (id, installation_id, certificate, sealed_key, created_at) VALUES (1, $1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
      authorityValues(authority),
    );
    const { rows } = await this.db.query<AuthorityRow>(SELECT);
    return authorityFromRow(rows[0]!);
  }
  async keptLeaf(key: string): Promise<StoredLeaf | undefined> {
    const { rows } = await this.db.query<LeafRow>(`SELECT ${LEAF_COLUMNS} FROM kept_certificates WHERE key = $1`, [key]);
    return rows[0] && leafFromRow(rows[0]);
  }
  async keepLeaf(key: string, leaf: StoredLeaf): Promise<void> {
    await this.db.query(keepLeafSql('$1, $2, $3, $4, $5, $6, $7'), leafValues(key, leaf));
  }
}
