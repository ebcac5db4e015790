/**
 * Who may use a storage zone's files: the zone's password (read and write) or its read-only
 * password, compared by their hashes from the zones kept by name (see zones-by-name.ts), so a
 * request costs one hash and no store read.
 */
import { sameSecret, secretDigest } from '../../security/secret-digest.js';
import type { ZoneAccess } from './types.js';
import type { ZonesByName } from './zones-by-name.js';

export class ZoneKeys {
  constructor(private readonly zones: ZonesByName) {}

  /** The access `presented` grants in the zone named `zoneName`; undefined for a wrong key or an unknown zone alike. */
  async access(zoneName: string, presented: string | undefined): Promise<ZoneAccess | undefined> {
    const entry = await this.zones.get(zoneName);
    if (!entry || presented === undefined || presented === '') return undefined;
    const hash = secretDigest(presented);
    // Both compared every time, so timing does not tell which password a key nearly matched.
    const full = sameSecret(hash, entry.passwordDigest);
    const readOnly = sameSecret(hash, entry.readOnlyDigest);
    if (!full && !readOnly) return undefined;
    return { ...entry.zone, canWrite: full };
  }

  /** The zone named `zoneName`, whatever the key (for the plane's own bookkeeping, never for access). */
  async zone(zoneName: string): Promise<Omit<ZoneAccess, 'canWrite'> | undefined> {
    return (await this.zones.get(zoneName))?.zone;
  }
}
