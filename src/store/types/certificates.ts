/** The installation's local certificate authority and the certificates it keeps. */

/** The installation's local certificate authority as stored: one per database, its key sealed. */
export interface StoredAuthority {
  installationId: string;
  /** The root certificate, PEM. */
  certificate: string;
  /** The root's PKCS#8 private key, PEM, sealed with the master key. */
  sealedKey: string;
  createdAt: string;
}

/** Where the local certificate authority lives (src/domain/certificates/). It survives wipe(): see the README. */
export interface CertificateAuthorityRecords {
  get(): Promise<StoredAuthority | undefined>;
  /** Stores `authority` unless one is stored already; answers the one that is (the first writer's, when two race). */
  createOnce(authority: StoredAuthority): Promise<StoredAuthority>;
  /** A certificate the authority issued and keeps, by what it was issued for (see issued-leaves.ts). */
  keptLeaf(key: string): Promise<StoredLeaf | undefined>;
  /** Keeps `leaf` under `key`, replacing what was kept there. */
  keepLeaf(key: string, leaf: StoredLeaf): Promise<void>;
}

export interface StoredLeaf {
  /** The authority that signed it: a leaf of another root (a dump loaded since) does not count. */
  installationId: string;
  certificate: string;
  /** Its private key, PEM, sealed with the master key. */
  sealedKey: string;
  serial: string;
  notBefore: string;
  notAfter: string;
}
