/**
 * Container applications (spec 4.2, 4.2.1, 4.4): create and read one, add a container template,
 * replace the whole configuration, update one endpoint. Each application is one document of kind
 * `containerApp` holding its containers; every change is a read-modify-write in one transaction.
 */
import type {
  ApplicationCreateRequestT,
  ApplicationReplaceRequestT,
  ApplicationT,
  ContainerTemplateRequestT,
  ContainerTemplateT,
  EndpointUpdateRequestT,
  EndpointUpdateResponseT,
  IdResponseT,
  RegionSettingsT,
} from '../../http/schemas/containers.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import { applicationDoc, applicationView, regionSettingsOf, regionsOf, withPods, type ContainerAppDoc } from './application.js';
import { newContainerId } from './ids.js';
import { checkContainers, checkEndpointKind } from './rules.js';
import { buildEndpoint, buildTemplate, type EndpointContext } from './templates.js';

interface PullZoneRef {
  pullZoneId?: number | null;
  field: string;
}

interface EndpointInput {
  cdn?: { pullZoneId?: number | null } | undefined;
}

/** The pull zones a list of endpoints refers to, with the field that names each. */
const pullZoneRefs = (endpoints: readonly EndpointInput[] | undefined, prefix: string): PullZoneRef[] =>
  (endpoints ?? []).map((e, j) => ({ pullZoneId: e.cdn?.pullZoneId, field: `${prefix}endpoints[${j}].cdn.pullZoneId` }));

export class ContainerAppService {
  private readonly apps: DocumentRepo<ContainerAppDoc>;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    /** Domain of generated endpoint hosts (`config.containerDomain`). */
    private readonly domain: string,
  ) {
    // No credential fields, and no indexed name: application names need not be unique.
    this.apps = new DocumentRepo<ContainerAppDoc>('containerApp', 'application', secrets, []);
  }

  async create(principal: Principal, input: ApplicationCreateRequestT): Promise<IdResponseT> {
    const requested = input.containerTemplates ?? [];
    return this.store.transaction(async (tx) => {
      // A new application has no containers yet, so no id can refer to one of them.
      requested.forEach((t, i) => {
        if (t.id != null) throw errors.validation(`containerTemplates[${i}].id`, `The application has no container with id "${t.id}".`);
      });
      checkContainers(requested.map((t, i) => ({ name: t.name, endpoints: t.endpoints ?? [], field: `containerTemplates[${i}].` })));
      await this.checkPullZones(tx, principal.accountId, requested.flatMap((t, i) => pullZoneRefs(t.endpoints, `containerTemplates[${i}].`)));
      const ctx = this.endpointContext(regionSettingsOf(input.regionSettings));
      const id = newContainerId();
      await this.apps.insert(tx, principal.accountId, id, applicationDoc(input, requested.map((t) => buildTemplate(t, undefined, ctx))));
      return { id };
    });
  }

  async get(principal: Principal, appId: string): Promise<ApplicationT> {
    const found = await this.apps.get(this.store, principal.accountId, appId);
    return applicationView(found.id, found.doc);
  }

  async addTemplate(principal: Principal, appId: string, input: ContainerTemplateRequestT): Promise<ContainerTemplateT> {
    return this.store.transaction(async (tx) => {
      const current = await this.apps.get(tx, principal.accountId, appId);
      const doc = current.doc;
      checkContainers([...doc.containerTemplates, { name: input.name, endpoints: input.endpoints ?? [], field: '' }]);
      await this.checkPullZones(tx, principal.accountId, pullZoneRefs(input.endpoints, ''));
      const template = buildTemplate(input, undefined, this.endpointContext(doc.regionSettings));
      const containerTemplates = [...doc.containerTemplates, template];
      await this.apps.update(tx, principal.accountId, current, {
        ...doc,
        containerTemplates,
        pods: withPods(containerTemplates, doc.autoScaling.min, doc.pods),
      });
      return template;
    });
  }

  /**
   * Full replacement (4.2.1): every setting takes the sent value (left out = cleared). Containers
   * sent with the id of one of this application's containers update it and keep its generated
   * values; containers without an id are new; stored containers not sent are removed.
   */
  async replace(principal: Principal, appId: string, input: ApplicationReplaceRequestT): Promise<IdResponseT> {
    return this.store.transaction(async (tx) => {
      const current = await this.apps.get(tx, principal.accountId, appId);
      const stored = new Map(current.doc.containerTemplates.map((t) => [t.id, t]));
      const claimed = new Set<string>();
      const previous = input.containerTemplates.map((t, i) => {
        if (t.id == null) return undefined;
        const found = stored.get(t.id);
        if (!found) throw errors.validation(`containerTemplates[${i}].id`, `The application has no container with id "${t.id}".`);
        if (claimed.has(t.id)) throw errors.validation(`containerTemplates[${i}].id`, `The container id "${t.id}" is listed more than once.`);
        claimed.add(t.id);
        return found;
      });
      checkContainers(input.containerTemplates.map((t, i) => ({ name: t.name, endpoints: t.endpoints ?? [], field: `containerTemplates[${i}].` })));
      await this.checkPullZones(tx, principal.accountId, input.containerTemplates.flatMap((t, i) => pullZoneRefs(t.endpoints, `containerTemplates[${i}].`)));
      const ctx = this.endpointContext(regionSettingsOf(input.regionSettings));
      const templates = input.containerTemplates.map((t, i) => buildTemplate(t, previous[i], ctx));
      await this.apps.update(tx, principal.accountId, current, applicationDoc(input, templates, current.doc));
      return { id: current.id };
    });
  }

  /**
   * Replaces the settings of the endpoint whose display name is `endpointName` (4.4), wherever it is
   * among the application's containers. The endpoint keeps its id, host and addresses.
   */
  async updateEndpoint(principal: Principal, appId: string, endpointName: string, input: EndpointUpdateRequestT): Promise<EndpointUpdateResponseT> {
    return this.store.transaction(async (tx) => {
      const current = await this.apps.get(tx, principal.accountId, appId);
      const doc = current.doc;
      const owner = doc.containerTemplates.find((t) => t.endpoints.some((e) => e.displayName === endpointName));
      const target = owner?.endpoints.find((e) => e.displayName === endpointName);
      if (!owner || !target) throw errors.notFound('endpoint');
      checkEndpointKind(input, '');
      const clash = doc.containerTemplates.some((t) => t.endpoints.some((e) => e !== target && e.displayName === input.displayName));
      if (clash) throw errors.validation('displayName', `The application already has an endpoint named "${input.displayName}".`, 'endpoint.name_taken');
      await this.checkPullZones(tx, principal.accountId, [{ pullZoneId: input.cdn?.pullZoneId, field: 'cdn.pullZoneId' }]);
      const updated = buildEndpoint(input, target, this.endpointContext(doc.regionSettings));
      const containerTemplates = doc.containerTemplates.map((t) =>
        t === owner ? { ...t, endpoints: t.endpoints.map((e) => (e === target ? updated : e)) } : t,
      );
      await this.apps.update(tx, principal.accountId, current, { ...doc, containerTemplates });
      return { id: updated.id };
    });
  }

  private endpointContext(regionSettings: RegionSettingsT): EndpointContext {
    return { domain: this.domain, regions: regionsOf(regionSettings) };
  }

  /** A CDN endpoint may only sit behind a pull zone of the same account. */
  private async checkPullZones(tx: StoreTx, accountId: number, refs: readonly PullZoneRef[]): Promise<void> {
    for (const { pullZoneId, field } of refs) {
      if (pullZoneId == null) continue;
      if (!(await tx.docs.get('pullZone', accountId, String(pullZoneId)))) {
        throw errors.validation(field, `The account has no pull zone with id ${pullZoneId}.`, 'pullZone.not_found');
      }
    }
  }
}
