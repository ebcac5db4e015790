/** The local certificate authority's row on PostgreSQL (migration 0008). */
import { type AuthorityRow, authorityFromRow, authorityValues } from '../certificate-authority.js';
import type { CertificateAuthorityRecords, StoredAuthority } from '../types.js';
import type { Queryable } from './repositories.js';

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
}
