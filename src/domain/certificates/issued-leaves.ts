/**
 * Certificates the local authority issues on demand (the TLS listener's, for names without a
 * certificate of their own), kept in memory per set of names and key type. Issuing costs a key
 * pair (about 1 ms for ECDSA, 100+ ms for RSA), so each is made once, shared by concurrent asks,
 * and made again only when it nears its end. Never stored: any instance can issue its own.
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
    const key = `${keyType} ${names.join(' ')}`;
    const held = this.leaves.get(key);
    if (held) return held.then((leaf) => (needsRenewal(leaf.notAfter, this.clock()) ? this.issue(key, names, keyType, held) : leaf));
    return this.issue(key, names, keyType, undefined);
  }

  /** Forgets every certificate (the root may have changed). */
  clear(): void {
    this.leaves.clear();
  }

  private issue(key: string, names: readonly string[], keyType: KeyType, replacing: Promise<IssuedCertificate> | undefined): Promise<IssuedCertificate> {
    // Another caller may already have started the replacement.
    const current = this.leaves.get(key);
    if (current && current !== replacing) return current;
    const issuing = this.authority.get().then((ca) => ca.issue(names, keyType, this.clock()));
    this.leaves.set(key, issuing);
    issuing.catch(() => {
      if (this.leaves.get(key) === issuing) this.leaves.delete(key);
    });
    return issuing;
  }
}
