/** The local certificate authority's row and its kept leaves on SQLite (migrations 0007, 0011). */
import type Database from 'better-sqlite3';
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

export class SqliteCertificateAuthority implements CertificateAuthorityRecords {
  private readonly getStmt;
  private readonly insertStmt;
  private readonly leafStmt;
  private readonly keepStmt;
  constructor(db: Database.Database) {
    this.leafStmt = db.prepare<[string], LeafRow>(`SELECT ${LEAF_COLUMNS} FROM kept_certificates WHERE key = ?`);
    this.keepStmt = db.prepare(keepLeafSql('?, ?, ?, ?, ?, ?, ?'));
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
  async keptLeaf(key: string): Promise<StoredLeaf | undefined> {
    const row = this.leafStmt.get(key);
    return row && leafFromRow(row);
  }
  async keepLeaf(key: string, leaf: StoredLeaf): Promise<void> {
    this.keepStmt.run(...leafValues(key, leaf));
  }
}
