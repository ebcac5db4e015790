/**
 * Where the local certificate authority comes from: the store, so every process and instance on one
 * database signs with the same root. The first one that needs it creates it; when two instances
 * race, the store keeps the first root written and both use that one. The root's key is sealed
 * with the master key, like every stored credential.
 */
import { randomBytes } from 'node:crypto';
import type { Secrets } from '../../security/secrets.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../principal.js';
import { createRootCertificate, type IssuedCertificate, LocalCertificateAuthority } from './local-ca.js';
import type { KeyType } from './x509.js';

export class AuthorityStore {
  private loading: Promise<LocalCertificateAuthority> | undefined;

  constructor(
    private readonly store: Store,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {
    // A load (an import) may replace the stored root: read it again then.
    store.changes.subscribe((change) => {
      if (change.type === 'all') this.loading = undefined;
    });
  }

  /** The installation's authority, created on first use. */
  get(): Promise<LocalCertificateAuthority> {
    const loading = (this.loading ??= this.load());
    // A failure (the store unavailable) is not remembered: the next call tries again.
    loading.catch(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    return loading;
  }

  /**
   * The leaf kept under `key`, if this installation's authority signed it; read without loading the
   * X.509 library or the root's key, which is what keeping it saves. A key that no longer opens
   * (another master key) counts as none kept.
   */
  async keptLeaf(key: string, names: readonly string[], keyType: KeyType): Promise<IssuedCertificate | undefined> {
    const [authority, leaf] = await Promise.all([this.store.certificateAuthority.get(), this.store.certificateAuthority.keptLeaf(key)]);
    if (!authority || !leaf || leaf.installationId !== authority.installationId) return undefined;
    let privateKeyPem: string;
    try {
      privateKeyPem = this.secrets.open(leaf.sealedKey);
    } catch {
      return undefined;
    }
    const { certificate, serial, notBefore, notAfter } = leaf;
    return { names: [...names], keyType, certificatePem: certificate, privateKeyPem, serial, notBefore: new Date(notBefore), notAfter: new Date(notAfter) };
  }

  async keepLeaf(key: string, authority: LocalCertificateAuthority, leaf: IssuedCertificate): Promise<void> {
    await this.store.certificateAuthority.keepLeaf(key, {
      installationId: authority.installationId,
      certificate: leaf.certificatePem,
      sealedKey: this.secrets.seal(leaf.privateKeyPem),
      serial: leaf.serial,
      notBefore: leaf.notBefore.toISOString(),
      notAfter: leaf.notAfter.toISOString(),
    });
  }

  private async load(): Promise<LocalCertificateAuthority> {
    const stored = (await this.store.certificateAuthority.get()) ?? (await this.create());
    // Imported here, not at the top: see local-ca.ts.
    const { importSigningKey } = await import('./x509.js');
    return new LocalCertificateAuthority(stored.installationId, stored.certificate, await importSigningKey(this.secrets.open(stored.sealedKey)));
  }

  private async create() {
    const installationId = randomBytes(6).toString('hex');
    const now = this.clock();
    const root = await createRootCertificate(installationId, now);
    return this.store.certificateAuthority.createOnce({
      installationId,
      certificate: root.certificatePem,
      sealedKey: this.secrets.seal(root.privateKeyPem),
      createdAt: now.toISOString(),
    });
  }
}
