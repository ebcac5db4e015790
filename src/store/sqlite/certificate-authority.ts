/** The local certificate authority's row on SQLite (migration 0007). */
import type Database from 'better-sqlite3';
import { type AuthorityRow, authorityFromRow, authorityValues } from '../certificate-authority.js';
import type { CertificateAuthorityRecords, StoredAuthority } from '../types.js';

export class SqliteCertificateAuthority implements CertificateAuthorityRecords {
  private readonly getStmt;
  private readonly insertStmt;
  constructor(db: Database.Database) {
    this.getStmt = db.prepare<[], AuthorityRow>('SELECT installation_id, certificate, sealed_key, created_at FROM certificate_authority WHERE id = 1');
    this.insertStmt = db.prepare(
      'INSERT INTO certificate_authority (id, installation_id, certificate, sealed_key, created_at) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
  }
  async get(): Promise<StoredAuthority | undefined> {
    const row = this.getStmt.get();
    return row && authorityFromRow(row);
  }
  async createOnce(authority: StoredAuthority): Promise<StoredAuthority> {
    this.insertStmt.run(...authorityValues(authority));
    return authorityFromRow(this.getStmt.get()!);
  }
}
