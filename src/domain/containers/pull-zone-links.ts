/**
 * The link between a CDN endpoint and the pull zone in front of it, kept on both sides: the
 * endpoint's `cdn.pullZoneId`, and the zone's `ManagedContainersAppId` / `ManagedContainersEndpointId`.
 * A zone fronts at most one endpoint, since its two fields can name only one. Every write of an
 * application syncs the zones' side from the endpoints, in the same transaction, so the two sides
 * never disagree.
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { ContainerAppDoc } from './types.js';

/** A pull zone id sent in a request, with the field that carries it. */
export interface PullZoneRef {
  pullZoneId?: number | null | undefined;
  field: string;
}

interface EndpointInput {
  cdn?: { pullZoneId?: number | null } | undefined;
}

/** The pull zones a list of requested endpoints refers to; `prefix` is their place in the body. */
export const pullZoneRefs = (endpoints: readonly EndpointInput[] | null | undefined, prefix: string): PullZoneRef[] =>
  (endpoints ?? []).map((e, j) => ({ pullZoneId: e.cdn?.pullZoneId, field: `${prefix}endpoints[${j}].cdn.pullZoneId` }));

/** Pull zone id → id of the endpoint it fronts, over the stored containers (or some of them). */
export function zoneLinks(templates: ContainerAppDoc['containerTemplates'], skip: (endpointId: string) => boolean = () => false): Map<number, string> {
  const links = new Map<number, string>();
  for (const e of templates.flatMap((t) => t.endpoints)) {
    if (e.pullZoneId !== null && !skip(e.id)) links.set(Number(e.pullZoneId), e.id);
  }
  return links;
}

export class PullZoneLinks {
  constructor(
    private readonly zones: DocumentRepo<PullZoneT>,
    private readonly apps: DocumentRepo<ContainerAppDoc>,
  ) {}

  /**
   * Each referenced zone must be the account's and free: not fronting another endpoint of this
   * application (`taken`: the zones of the endpoints the request leaves as they are) nor one of
   * another application. A 400 names the field that sent the zone.
   */
  async check(tx: StoreTx, accountId: number, appId: string, refs: readonly PullZoneRef[], taken: ReadonlyMap<number, string>): Promise<void> {
    const claimed = new Set(taken.keys());
    for (const { pullZoneId, field } of refs) {
      if (pullZoneId == null) continue;
      const zone = await this.zones.find(tx, accountId, pullZoneId);
      if (!zone) throw errors.validation(field, `The account has no pull zone with id ${pullZoneId}.`, 'pullZone.not_found');
      if (claimed.has(pullZoneId)) {
        throw errors.validation(field, `Pull zone ${pullZoneId} already fronts another endpoint of this application.`, 'pullZone.in_use');
      }
      claimed.add(pullZoneId);
      const owner = zone.doc.ManagedContainersAppId;
      if (owner && owner !== appId && (await this.fronts(tx, accountId, owner, pullZoneId, zone.doc.ManagedContainersEndpointId))) {
        throw errors.validation(field, `Pull zone ${pullZoneId} already fronts an endpoint of application ${owner}.`, 'pullZone.in_use');
      }
    }
  }

  /** Brings the zones' side in line after the application went from `before` to `after` (null: gone). */
  async sync(tx: StoreTx, accountId: number, appId: string, before: ContainerAppDoc | null, after: ContainerAppDoc | null): Promise<void> {
    const was = zoneLinks(before?.containerTemplates ?? []);
    const now = zoneLinks(after?.containerTemplates ?? []);
    for (const [zoneId, endpointId] of was) {
      if (!now.has(zoneId)) await this.write(tx, accountId, zoneId, { appId, endpointId }, null);
    }
    for (const [zoneId, endpointId] of now) await this.write(tx, accountId, zoneId, null, { appId, endpointId });
  }

  /** Whether the zone's recorded link is live: the application still has that endpoint behind it. */
  private async fronts(tx: StoreTx, accountId: number, appId: string, zoneId: number, endpointId: string | null): Promise<boolean> {
    const app = await this.apps.find(tx, accountId, appId);
    return app !== undefined && zoneLinks(app.doc.containerTemplates).get(zoneId) === endpointId;
  }

  /**
   * Sets the zone's link to `next`. When clearing (`expected` given), only a link that still names
   * this endpoint is cleared, so another application's newer link is never undone.
   */
  private async write(
    tx: StoreTx,
    accountId: number,
    zoneId: number,
    expected: { appId: string; endpointId: string } | null,
    next: { appId: string; endpointId: string } | null,
  ): Promise<void> {
    const zone = await this.zones.find(tx, accountId, zoneId);
    if (!zone) return;
    const { ManagedContainersAppId: appId, ManagedContainersEndpointId: endpointId } = zone.doc;
    if (expected && (appId !== expected.appId || endpointId !== expected.endpointId)) return;
    if (appId === (next?.appId ?? null) && endpointId === (next?.endpointId ?? null)) return;
    await this.zones.update(tx, accountId, zone, {
      ...zone.doc,
      ManagedContainersAppId: next?.appId ?? null,
      ManagedContainersEndpointId: next?.endpointId ?? null,
    });
  }
}
