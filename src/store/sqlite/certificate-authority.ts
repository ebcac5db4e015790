/** The local certificate authority's row and its kept leaves on SQLite (migrations 0007, 0011). */
import type Database from 'better-sqlite3';
import { type AuthorityRow, authorityFromRow, authorityValues, GET_AUTHORITY } from '../tables/certificate-authority.js';
import { keepLeafSql, LEAF_SELECT, type LeafRow, leafFromRow, leafValues } from '../tables/kept-certificates.js';
import { sqliteParam } from '../tables/sql.js';
import type { CertificateAuthorityRecords, StoredAuthority, StoredLeaf } from '../types.js';

export class SqliteCertificateAuthority implements CertificateAuthorityRecords {
  private readonly getStmt;
  private readonly insertStmt;
  private readonly leafStmt;
  private readonly keepStmt;
  constructor(db: Database.Database) {
    this.leafStmt = db.prepare<[string], LeafRow>(`SELECT ${LEAF_SELECT} FROM kept_certificates WHERE key = ?`);
    this.keepStmt = db.prepare(keepLeafSql(sqliteParam));
    this.getStmt = db.prepare<[], AuthorityRow>(GET_AUTHORITY);
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
