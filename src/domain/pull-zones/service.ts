/**
 * Pull zones: creation with a system hostname and an origin, reads, settings updates, deletion and
 * the small zone-wide actions. Hostnames, certificates, access lists and edge rules have their own
 * modules, reached through the members of the same name.
 */
import { randomUUID } from 'node:crypto';
import type { PullZoneAddRequestT, PullZoneT, PullZoneUpdateRequestT } from '../../schemas/pull-zone.js';
import type { PagedT } from '../../schemas/paging.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import type { OriginAddresses } from '../edge/origin/addresses.js';
import { errors } from '../errors.js';
import { userIdOf, type Principal } from '../principal.js';
import { PullZoneAccessLists } from './access-lists.js';
import { PullZoneCertificates } from './certificates.js';
import { newHostname, newPullZone } from './defaults.js';
import { PullZoneEdgeRules } from './edge-rules.js';
import { ZoneEditor } from './editor.js';
import { hostnameClaims, PullZoneHostnames } from './hostnames.js';
import { pullZoneRepo } from './repo.js';
import { checkStorageLinks } from './links.js';
import { applySettings } from './settings.js';
import { overBandwidthLimit, hasFunds } from './state.js';

/** The name is the first label of the zone's system hostname, so it follows DNS label rules. */
const NAME_RULE = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

export interface PullZoneCreateOptions {
  /** Set when a video library creates its own zone. */
  videoLibraryId?: number;
  /** Set when a container endpoint gets its zone: the zone pulls from the endpoint and also serves its public host. */
  containerEndpoint?: { publicHost: string };
}

/**
 * Resources that point at pull zones (DNS records, container endpoints, ...) register a hook here;
 * deleting a zone runs every hook in the same transaction, so no link is ever left dangling.
 */
export type PullZoneDeletedHook = (tx: StoreTx, accountId: number, pullZoneId: number) => Promise<void>;

export interface PullZoneListQuery {
  /** 0: every zone as an array; 1 and up: that page. */
  page: number;
  perPage: number;
  /** Case-insensitive part of the name. */
  search?: string | undefined;
  includeCertificate: boolean;
}

export class PullZoneService {
  readonly zones: DocumentRepo<PullZoneT>;
  readonly onDelete: PullZoneDeletedHook[] = [];
  readonly hostnames: PullZoneHostnames;
  readonly certificates: PullZoneCertificates;
  readonly accessLists: PullZoneAccessLists;
  readonly edgeRules: PullZoneEdgeRules;
  private readonly editor: ZoneEditor;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly cdnDomain: string,
    private readonly originAddresses: OriginAddresses,
    /** What the account can still spend (state.ts): the balance less what it owes, as billing says. */
    private readonly fundsOf: (accountId: number) => Promise<number>,
  ) {
    this.zones = pullZoneRepo(secrets);
    this.editor = new ZoneEditor(store, this.zones);
    this.hostnames = new PullZoneHostnames(this.editor, hostnameClaims(secrets), cdnDomain);
    this.certificates = new PullZoneCertificates(this.editor);
    this.accessLists = new PullZoneAccessLists(this.editor);
    this.edgeRules = new PullZoneEdgeRules(this.editor);
  }

  async create(principal: Principal, input: PullZoneAddRequestT): Promise<PullZoneT> {
    return this.store.transaction((tx) => this.createIn(tx, principal.accountId, input), principal.durability);
  }

  async createIn(tx: StoreTx, accountId: number, input: PullZoneAddRequestT, options: PullZoneCreateOptions = {}): Promise<PullZoneT> {
    const name = checkedName(input.Name);
    const storageZoneId = input.StorageZoneId ?? 0;
    await checkStorageLinks(tx, accountId, input);
    // A standalone edge script is the zone's origin (OriginType 4 with its EdgeScriptId): it needs no URL.
    const scriptOrigin = input.OriginType === 4 && (input.EdgeScriptId ?? 0) > 0;
    if (storageZoneId <= 0 && !input.OriginUrl && !scriptOrigin && !options.containerEndpoint) {
      throw errors.validation(
        'OriginUrl',
        'The OriginUrl field is required unless the zone pulls from a storage zone (StorageZoneId).',
        'pullzone.origin_required',
      );
    }
    if (input.OriginUrl) this.checkOriginUrl(input.OriginUrl);
    // A taken name is refused by the insert below, as the same 400 naming Name (DocumentRepo.insert):
    // no lookup first, one round trip fewer on PostgreSQL.

    const id = await tx.nextId('pullZone');
    const hostnameId = await tx.nextId('hostname');
    const base = newPullZone({
      id,
      userId: userIdOf(accountId),
      name,
      originUrl: input.OriginUrl ?? null,
      type: input.Type ?? 0,
      systemHostname: { id: hostnameId, value: `${name.toLowerCase()}.${this.cdnDomain}` },
      storageZoneId,
    });
    const { Name: _name, ...settings } = input;
    const zone = applySettings(base, settings);
    if (options.videoLibraryId !== undefined) zone.VideoLibraryId = options.videoLibraryId;
    if (options.containerEndpoint) {
      zone.OriginType = 5;
      zone.Hostnames = [...(zone.Hostnames ?? []), newHostname({ id: await tx.nextId('hostname'), value: options.containerEndpoint.publicHost })];
    }
    await this.zones.insert(tx, accountId, id, zone);
    for (const hostname of zone.Hostnames ?? []) await this.hostnames.claim(tx, accountId, id, hostname);
    return zone;
  }

  /**
   * Deletes a zone and everything that points at it, inside the caller's transaction. A zone that a
   * video library owns is deleted only through its library (`owner: 'videoLibrary'`).
   */
  async deleteIn(tx: StoreTx, accountId: number, id: number, options: { owner?: 'videoLibrary' | 'storageZone' } = {}): Promise<void> {
    const zone = await this.zones.get(tx, accountId, id);
    if (zone.doc.VideoLibraryId > 0 && options.owner !== 'videoLibrary') {
      throw errors.validation(
        'id',
        `Pull zone ${id} belongs to video library ${zone.doc.VideoLibraryId}; delete the library instead.`,
        'pullzone.owned_by_video_library',
      );
    }
    await this.hostnames.releaseAll(tx, accountId, id);
    for (const hook of this.onDelete) await hook(tx, accountId, id);
    await this.zones.delete(tx, accountId, id);
  }

  delete(principal: Principal, id: number): Promise<void> {
    return this.store.transaction((tx) => this.deleteIn(tx, principal.accountId, id), principal.durability);
  }

  async get(principal: Principal, id: number, includeCertificate: boolean): Promise<PullZoneT> {
    const { doc } = await this.zones.get(this.store, principal.accountId, id);
    return includeCertificate ? doc : withoutCertificates(doc);
  }

  /** In creation order, so pages stay stable while zones are added. */
  async list(principal: Principal, query: PullZoneListQuery): Promise<PullZoneT[] | PagedT<PullZoneT>> {
    const all = query.page === 0;
    const offset = all ? 0 : (query.page - 1) * query.perPage;
    const limit = all ? Number.MAX_SAFE_INTEGER : query.perPage;
    const found = await this.zones.list(this.store, principal.accountId, { offset, limit, search: query.search || undefined });
    const items = query.includeCertificate ? found.items : found.items.map(withoutCertificates);
    if (all) return items;
    return { Items: items, CurrentPage: query.page, TotalItems: found.total, HasMoreItems: offset + items.length < found.total };
  }

  async count(principal: Principal): Promise<number> {
    return (await this.zones.list(this.store, principal.accountId, { offset: 0, limit: 0 })).total;
  }

  /** Names are global, so availability is across every account, as creation checks it. */
  async isNameAvailable(name: string): Promise<boolean> {
    return !(await this.zones.nameTaken(this.store, checkedName(name)));
  }

  /** Only the fields sent change (null keeps the value too); the answer is the whole zone. */
  async update(principal: Principal, id: number, input: PullZoneUpdateRequestT): Promise<PullZoneT> {
    if (input.OriginUrl != null) this.checkOriginUrl(input.OriginUrl);
    // The account's funds decide only whether a stopped zone starts again (state.ts), and working
    // them out reads the month's usage of the account's zones: only then are they asked for. Read
    // before the transaction, which must not wait on other reads.
    const stopped = (await this.zones.find(this.store, principal.accountId, id))?.doc.Enabled === false;
    const funds = stopped ? await this.fundsOf(principal.accountId) : undefined;
    const zone = await this.editor.edit(principal, id, async (current, tx) => {
      await checkStorageLinks(tx, principal.accountId, input);
      const next = applySettings(current, input);
      if (input.OriginUrl != null) next.OriginLinkValue = input.OriginUrl;
      // A new bandwidth limit can end or start a limit-reached stop (state.ts).
      const enabled = overBandwidthLimit(next) ? false : current.Enabled || (funds !== undefined && hasFunds(funds));
      return { ...next, Enabled: enabled };
    });
    return withoutCertificates(zone);
  }

  /** Sets the token-authentication key to `securityKey`, or to a new random one. */
  async resetSecurityKey(principal: Principal, id: number, securityKey?: string | null): Promise<void> {
    await this.editor.edit(principal, id, (zone) => ({ ...zone, ZoneSecurityKey: securityKey ?? randomUUID() }));
  }

  /** An absolute http(s) URL, not at an address the edge may not fetch from (origin/addresses.ts). */
  private checkOriginUrl(value: string): void {
    const url = httpUrlOf(value);
    if (!url) throw errors.validation('OriginUrl', 'The OriginUrl must be an absolute http or https URL.', 'pullzone.origin_invalid');
    const refusal = this.originAddresses.urlRefusal(url);
    if (refusal !== undefined) {
      throw errors.validation('OriginUrl', `The OriginUrl must not point at ${refusal}: ${url.host}.`, 'pullzone.origin_forbidden');
    }
  }

  /** Edge servers compare cache versions: a new one makes every cached copy stale at once. */
  async purgeCache(principal: Principal, id: number): Promise<void> {
    await this.editor.edit(principal, id, (zone) => ({ ...zone, CacheVersion: zone.CacheVersion + 1 }));
  }
}

/**
 * Certificates and their keys leave the server only when the caller asks (includeCertificate).
 * Blanks them in place: every caller hands over a zone it has just read or written and will only
 * send, and copying a ~170-field zone per read was a fifth of a read's CPU time (see BENCHMARKS.md).
 */
export function withoutCertificates(zone: PullZoneT): PullZoneT {
  for (const hostname of zone.Hostnames ?? []) {
    hostname.Certificate = '';
    hostname.CertificateKey = '';
  }
  return zone;
}

function checkedName(name: string): string {
  if (!NAME_RULE.test(name)) {
    throw errors.validation(
      'Name',
      'The pull zone name may contain only letters, digits and dashes (not at either end), up to 63 characters.',
      'pullzone.name_invalid',
    );
  }
  return name;
}

function httpUrlOf(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 ? url : undefined;
  } catch {
    return undefined;
  }
}
