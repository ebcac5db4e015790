/**
 * The pull zones made for CDN endpoints when containers really run: an endpoint sent without a
 * `pullZoneId` gets a zone of its own (`app-<endpoint id>`, origin type ManagedContainers), whose
 * system hostname and the endpoint's public host both serve through the edge to the endpoint's
 * ready replicas. The zone goes with its endpoint or application; a zone the owner named keeps living.
 */
import type { StoreTx } from '../../store/types.js';
import type { PullZoneService } from '../pull-zones/service.js';
import type { ContainerAppDoc } from './types.js';

export const endpointZoneName = (endpointId: string) => `app-${endpointId}`;

export class EndpointZones {
  constructor(
    private readonly pullZones: PullZoneService | undefined,
    /** Whether zones are made: only when containers run (the simulation keeps endpoints as the owner sent them). */
    private readonly enabled: () => boolean,
  ) {}

  /** The document with a zone made for each CDN endpoint that has none. */
  async assign(tx: StoreTx, accountId: number, doc: ContainerAppDoc): Promise<ContainerAppDoc> {
    const pullZones = this.pullZones;
    if (!pullZones || !this.enabled()) return doc;
    const needs = doc.containerTemplates.some((t) => t.endpoints.some((e) => e.type === 'cdn' && e.pullZoneId === null));
    if (!needs) return doc;
    const containerTemplates = [];
    for (const t of doc.containerTemplates) {
      const endpoints = [];
      for (const e of t.endpoints) {
        if (e.type !== 'cdn' || e.pullZoneId !== null) {
          endpoints.push(e);
          continue;
        }
        const zone = await pullZones.createIn(tx, accountId, { Name: endpointZoneName(e.id) }, { containerEndpoint: { publicHost: e.publicHost } });
        endpoints.push({ ...e, pullZoneId: String(zone.Id) });
      }
      containerTemplates.push({ ...t, endpoints });
    }
    return { ...doc, containerTemplates };
  }

  /** Deletes the zones made for endpoints that `after` no longer has (null: the application is gone). Runs after the application was written. */
  async release(tx: StoreTx, accountId: number, before: ContainerAppDoc, after: ContainerAppDoc | null): Promise<void> {
    if (!this.pullZones) return;
    const kept = new Set((after?.containerTemplates ?? []).flatMap((t) => t.endpoints.map((e) => e.pullZoneId)));
    for (const e of before.containerTemplates.flatMap((t) => t.endpoints)) {
      if (e.pullZoneId === null || kept.has(e.pullZoneId)) continue;
      const zone = await this.pullZones.zones.find(tx, accountId, Number(e.pullZoneId));
      if (zone && zone.doc.Name === endpointZoneName(e.id)) await this.pullZones.deleteIn(tx, accountId, zone.doc.Id);
    }
  }
}
