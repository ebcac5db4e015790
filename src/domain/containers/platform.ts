/**
 * The platform around an account's applications: its limits, the nodes its instances run on and
 * the regions they can run in (`src/domain/reference-data/container-regions.ts`).
 */
import type { ListNodesResponseT, ListRegionsResponseT, RegionT, UserLimitsT } from '../../schemas/container-platform.js';
import type { Principal } from '../principal.js';
import { CONTAINER_REGIONS, DEFAULT_CONTAINER_REGION, containerRegion, type ContainerRegion } from '../reference-data/container-regions.js';
import type { ContainerAppDoc } from './types.js';
import { cursorPage } from './cursor.js';
import type { AppEditor } from './editor.js';
import { CONTAINER_LIMITS } from './limits.js';

export interface CursorQuery {
  limit: number;
  nextCursor?: string | undefined;
}

const regionView = (r: ContainerRegion): RegionT => ({
  id: r.id,
  name: r.name,
  group: r.group,
  hasAnycastSupport: r.hasAnycastSupport,
  hasCapacity: r.hasCapacity,
});

/** `10.2.0.1` before `10.10.0.1`. */
const byAddress = (a: string, b: string) => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
};

export class ContainerPlatformService {
  constructor(private readonly editor: AppEditor) {}

  async limits(principal: Principal): Promise<UserLimitsT> {
    const apps = await this.editor.store.docs.list('containerApp', principal.accountId, { offset: 0, limit: 1 });
    return { ...CONTAINER_LIMITS, existingNumberOfApplications: apps.total };
  }

  /**
   * The nodes the account's running instances are on. Nodes are imaginary here: a pod is given a
   * node address when it is placed, and keeps it until it is replaced (restart, recreate).
   */
  async nodeAddresses(principal: Principal): Promise<string[]> {
    const { store } = this.editor;
    const all = await store.docs.list<ContainerAppDoc>('containerApp', principal.accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    const funded = await this.editor.funded(store, principal.accountId);
    const addresses = new Set<string>();
    for (const { doc } of all.items) {
      if (!this.editor.stateOf(doc, funded).running) continue;
      for (const pod of doc.pods) addresses.add(pod.nodeIpAddress);
    }
    return [...addresses].sort(byAddress);
  }

  async nodes(principal: Principal, query: CursorQuery): Promise<ListNodesResponseT> {
    return cursorPage(this.editor.secrets, principal.accountId, 'nodes', await this.nodeAddresses(principal), query);
  }

  regions(principal: Principal, query: CursorQuery): ListRegionsResponseT {
    return cursorPage(this.editor.secrets, principal.accountId, 'regions', CONTAINER_REGIONS.map(regionView), query);
  }

  /**
   * The region to base a new application in. The platform reads, from `cdnServerToken`, where the
   * delivery server that last served the user is. edgeplane has no delivery servers to locate, so
   * it takes a token that is a region code as that location, and offers the default region for any
   * other token or none.
   */
  optimalRegion(cdnServerToken: string | undefined): { region: RegionT } {
    const chosen = (cdnServerToken && containerRegion(cdnServerToken.trim())) || containerRegion(DEFAULT_CONTAINER_REGION)!;
    return { region: regionView(chosen) };
  }
}
