/**
 * Certificates the local authority issues on demand (the TLS listener's, for names without a
 * certificate of their own), kept in memory per set of names and key type. Issuing costs a key
 * pair (about 1 ms for ECDSA, 100+ ms for RSA), so each is made once, shared by concurrent asks,
 * and made again only when it nears its end. Not stored, since any instance can issue its own —
 * except the edge's default certificate (`kept`), which a start-up would otherwise have to sign.
 */
import { BoundedMap } from '../bounded-map.js';
import type { Clock } from '../principal.js';
import type { AuthorityStore } from './authority-store.js';
import type { IssuedCertificate } from './local-ca.js';
import type { KeyType } from './x509.js';

/** A certificate with less than this left is replaced (public authorities renew at a third of 90 days too). */
export const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 10_000;

export const needsRenewal = (notAfter: Date, now: Date) => notAfter.getTime() - now.getTime() < RENEW_BEFORE_MS;

export class IssuedLeaves {
  private readonly leaves = new BoundedMap<string, Promise<IssuedCertificate>>(MAX_ENTRIES);

  constructor(
    private readonly authority: AuthorityStore,
    private readonly clock: Clock,
  ) {}

  get(names: readonly string[], keyType: KeyType): Promise<IssuedCertificate> {
    return this.find(names, keyType, false);
  }

  /**
   * Like `get`, and kept in the store too: the edge's default certificate, which every start-up
   * would otherwise sign again before its TLS listener can listen (loading the X.509 library and
   * the root's key for it: a quarter of a start-up's CPU, BENCHMARKS.md).
   */
  kept(names: readonly string[], keyType: KeyType): Promise<IssuedCertificate> {
    return this.find(names, keyType, true);
  }

  /** Forgets every certificate (the root may have changed). */
  clear(): void {
    this.leaves.clear();
  }

  private find(names: readonly string[], keyType: KeyType, keep: boolean): Promise<IssuedCertificate> {
    const key = `${keyType} ${names.join(' ')}`;
    const held = this.leaves.get(key);
    if (held) return held.then((leaf) => (needsRenewal(leaf.notAfter, this.clock()) ? this.issue(key, names, keyType, keep, held) : leaf));
    if (!keep) return this.issue(key, names, keyType, keep, undefined);
    const loading: Promise<IssuedCertificate> = this.authority
      .keptLeaf(key, names, keyType)
      .then((leaf) => (leaf && !needsRenewal(leaf.notAfter, this.clock()) ? leaf : this.issue(key, names, keyType, keep, loading)));
    this.remember(key, loading);
    return loading;
  }

  private issue(
    key: string,
    names: readonly string[],
    keyType: KeyType,
    keep: boolean,
    replacing: Promise<IssuedCertificate> | undefined,
  ): Promise<IssuedCertificate> {
    // Another caller may already have started the replacement.
    const current = this.leaves.get(key);
    if (current && current !== replacing) return current;
    const issuing = this.authority.get().then(async (ca) => {
      const leaf = await ca.issue(names, keyType, this.clock());
      // Not kept is only slower next start: the certificate itself is good.
      if (keep) await this.authority.keepLeaf(key, ca, leaf).catch(() => {});
      return leaf;
    });
    this.remember(key, issuing);
    return issuing;
  }

  private remember(key: string, leaf: Promise<IssuedCertificate>): void {
    this.leaves.set(key, leaf);
    leaf.catch(() => {
      if (this.leaves.get(key) === leaf) this.leaves.delete(key);
    });
  }
}
