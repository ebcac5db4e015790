/**
 * Hostnames of pull zones. Besides its place in the zone, every hostname is stored as a document of
 * its own named by its value, so the store's unique name index keeps each hostname on a single zone
 * platform-wide, even when two requests add the same one at the same moment.
 */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import type { HostnameT, PullZoneT } from '../../schemas/pull-zone.js';
import type { Secrets } from '../../security/secrets.js';
import type { StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import { newHostname } from './defaults.js';
import type { ZoneEditor } from './editor.js';

/** The stored claim on a hostname; the hostname itself (certificate included) lives in the zone. */
export interface HostnameClaim {
  PullZoneId: number;
  Value: string;
}

export const hostnameClaims = (secrets: Secrets) =>
  new DocumentRepo<HostnameClaim>(
    'hostname',
    'pull zone',
    secrets,
    [],
    (h) => ({ name: h.Value, parentId: String(h.PullZoneId) }),
    'Hostname',
    (value) => errors.validation('Hostname', `The hostname "${value}" is already used by a pull zone.`, 'pullzone.hostname_taken'),
  );

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The canonical form of a host name (lowercase, internationalized names in their ASCII form), or
 * undefined when `value` is not a name of at least two DNS labels. Addresses are not host names.
 */
export function canonicalHostname(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length === 0 || isIP(trimmed) !== 0 || /[/:@\s]/.test(trimmed)) return undefined;
  const ascii = domainToASCII(trimmed);
  const labels = ascii.split('.');
  if (ascii.length === 0 || ascii.length > 253 || labels.length < 2) return undefined;
  return labels.every((label) => LABEL.test(label)) ? ascii : undefined;
}

/** Hostnames are compared case-insensitively, so a lookup accepts any spelling of the value. */
export function findHostname(zone: PullZoneT, value: string): HostnameT | undefined {
  const wanted = canonicalHostname(value) ?? value.trim().toLowerCase();
  return zone.Hostnames?.find((h) => h.Value.toLowerCase() === wanted);
}

/** The hostname named in a request, or 404: another zone's hostname is as unknown as a missing one. */
export function hostnameOf(zone: PullZoneT, value: string): HostnameT {
  const found = findHostname(zone, value);
  if (!found) throw errors.notFound('hostname');
  return found;
}

export const replaceHostname = (zone: PullZoneT, changed: HostnameT): PullZoneT => ({
  ...zone,
  Hostnames: (zone.Hostnames ?? []).map((h) => (h.Id === changed.Id ? changed : h)),
});

export class PullZoneHostnames {
  constructor(
    private readonly editor: ZoneEditor,
    private readonly claims: DocumentRepo<HostnameClaim>,
    private readonly cdnDomain: string,
  ) {}

  /**
   * Claims `hostname.Value` for the zone; a value already claimed by any zone is a 400
   * (`pullzone.hostname_taken`, see hostnameClaims). The insert itself finds a taken value (a unique
   * name that skips the row without failing the transaction): one statement, not a lookup and then
   * an insert, and a lost race reads like any other taken hostname.
   */
  async claim(tx: StoreTx, accountId: number, zoneId: number, hostname: HostnameT): Promise<void> {
    await this.claims.insert(tx, accountId, hostname.Id, { PullZoneId: zoneId, Value: hostname.Value });
  }

  /** Gives up every hostname of a zone that is being deleted. */
  async releaseAll(tx: StoreTx, accountId: number, zoneId: number): Promise<void> {
    // Listed by parent rather than read from the zone, so no claim can outlive its zone.
    for (const id of await this.claims.childIds(tx, accountId, zoneId)) await this.claims.delete(tx, accountId, id);
  }

  /** Adding a hostname the zone already has changes nothing. */
  async add(principal: Principal, zoneId: number, value: string): Promise<void> {
    const hostname = canonicalHostname(value);
    if (!hostname) {
      throw errors.validation('Hostname', 'The Hostname must be a domain name such as cdn.example.com.', 'pullzone.hostname_invalid');
    }
    await this.editor.edit(principal, zoneId, async (zone, tx) => {
      if (findHostname(zone, hostname)) return undefined;
      if (hostname === this.cdnDomain || hostname.endsWith(`.${this.cdnDomain}`)) {
        throw errors.validation('Hostname', `Hostnames under ${this.cdnDomain} are reserved for the zones' system hostnames.`, 'pullzone.hostname_reserved');
      }
      const added = newHostname({ id: await tx.nextId('hostname'), value: hostname });
      await this.claim(tx, principal.accountId, zoneId, added);
      return { ...zone, Hostnames: [...(zone.Hostnames ?? []), added] };
    });
  }

  async remove(principal: Principal, zoneId: number, value: string): Promise<void> {
    await this.editor.edit(principal, zoneId, async (zone, tx) => {
      const hostname = hostnameOf(zone, value);
      if (hostname.IsSystemHostname) {
        throw errors.validation('Hostname', 'The system hostname cannot be removed.', 'pullzone.system_hostname');
      }
      await tx.docs.delete('hostname', principal.accountId, String(hostname.Id));
      return { ...zone, Hostnames: (zone.Hostnames ?? []).filter((h) => h.Id !== hostname.Id) };
    });
  }

  async setForceSSL(principal: Principal, zoneId: number, value: string, forceSSL: boolean): Promise<void> {
    await this.editor.edit(principal, zoneId, (zone) => {
      const hostname = hostnameOf(zone, value);
      return hostname.ForceSSL === forceSSL ? undefined : replaceHostname(zone, { ...hostname, ForceSSL: forceSSL });
    });
  }
}
