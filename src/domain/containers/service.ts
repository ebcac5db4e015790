/**
 * Container applications: create, read, list, replace (spec 4.2.1), patch and delete them, and
 * deploy, undeploy or restart them or one of their pods (see lifecycle.ts). Their containers,
 * endpoints, settings, volumes and insights, the platform around them (limits, nodes, regions),
 * the account's image registries and log forwarding have their own services, reached through the
 * members of the same name. Each application is one document of kind `containerApp` holding its
 * containers.
 */
import type {
  ApplicationContainerRequestT,
  ApplicationCreateRequestT,
  ApplicationPatchRequestT,
  ApplicationReplaceRequestT,
  ApplicationT,
  IdResponseT,
  ListApplicationsResponseT,
} from '../../schemas/containers.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { applicationDoc, applicationListItem, applicationView, newPod, regionSettingsOf, withPods, type ApplicationSettingsInput } from './application.js';
import type { ContainerAppDoc } from './types.js';
import { AppSettingsService } from './app-settings.js';
import { ContainerTemplateService } from './containers.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { AppEditor, type ContainerRuntimeDeps, type ContainerSettings } from './editor.js';
import { EndpointService } from './endpoints.js';
import { ApplicationInsights } from './insights.js';
import { LogForwardingService } from './log-forwarding.js';
import { ContainerPlatformService } from './platform.js';
import { RegistryService } from './registries/service.js';
import { VolumeService } from './volume-actions.js';
import { newContainerId } from './ids.js';
import { CONTAINER_LIMITS } from './limits.js';
import { deployed, initialLifecycle, undeployed } from './lifecycle.js';
import { patchedSettings } from './patches.js';
import { pullZoneRefs } from './pull-zone-links.js';
import { checkAutoScaling, checkContainers, checkRegions, matchStoredContainers } from './rules.js';
import { buildTemplate, relocated } from './templates.js';

export interface ListApplicationsQuery {
  limit: number;
  nextCursor?: string | undefined;
}

/** How an operation refused on a suspended application answers: the platform differs per operation. */
type SuspendedAnswer = 'conflict' | 'forbidden';

export class ContainerAppService {
  private readonly editor: AppEditor;
  readonly containers: ContainerTemplateService;
  readonly endpoints: EndpointService;
  readonly settings: AppSettingsService;
  readonly volumes: VolumeService;
  readonly insights: ApplicationInsights;
  readonly platform: ContainerPlatformService;
  readonly registries: RegistryService;
  readonly logForwarding: LogForwardingService;

  constructor(store: Store, secrets: Secrets, clock: Clock, settings: ContainerSettings, runtime: ContainerRuntimeDeps = {}) {
    this.editor = new AppEditor(store, secrets, clock, settings, runtime);
    this.containers = new ContainerTemplateService(this.editor);
    this.endpoints = new EndpointService(this.editor);
    this.settings = new AppSettingsService(this.editor);
    this.volumes = new VolumeService(this.editor);
    this.insights = new ApplicationInsights(this.editor);
    this.platform = new ContainerPlatformService(this.editor);
    const now = () => clock().getTime();
    this.registries = new RegistryService(store, secrets, now);
    this.logForwarding = new LogForwardingService(store, secrets, now);
  }

  async create(principal: Principal, input: ApplicationCreateRequestT): Promise<IdResponseT> {
    const { apps, links } = this.editor;
    const accountId = principal.accountId;
    const id = newContainerId();
    return this.editor.store.transaction(async (tx) => {
      const requested = input.containerTemplates ?? [];
      checkAutoScaling(input.autoScaling, 'autoScaling.');
      checkRegions(input.regionSettings, 'regionSettings.');
      await tx.lock(`containerApps:${accountId}`);
      const existing = await tx.docs.list('containerApp', accountId, { offset: 0, limit: 1 });
      if (existing.total >= CONTAINER_LIMITS.maxNumberOfApplications) {
        throw errors.conflict(
          `The account has reached its limit of ${CONTAINER_LIMITS.maxNumberOfApplications} applications; delete one first.`,
          'application.limit_reached',
        );
      }
      const built = await this.withContainers(tx, accountId, id, input, requested, undefined);
      const doc = this.editor.finished(undefined, await this.editor.zones.assign(tx, accountId, built));
      await apps.insert(tx, accountId, id, doc);
      await links.sync(tx, accountId, id, null, doc);
      return { id };
    }, principal.durability);
  }

  async get(principal: Principal, appId: string): Promise<ApplicationT> {
    const { stored, state } = await this.editor.read(principal.accountId, appId);
    return applicationView(stored.id, stored.doc, state);
  }

  /** Oldest first, so a cursor's position stays valid while applications are added. */
  async list(principal: Principal, query: ListApplicationsQuery): Promise<ListApplicationsResponseT> {
    const { store, secrets } = this.editor;
    const accountId = principal.accountId;
    const offset = query.nextCursor ? decodeCursor(secrets, accountId, query.nextCursor) : 0;
    // Straight from the store: the repository's list leaves out ids, and applications hold no sealed fields.
    const page = await store.docs.list<ContainerAppDoc>('containerApp', accountId, { offset, limit: query.limit });
    const funded = await this.editor.funded(store, accountId);
    const end = offset + page.items.length;
    return {
      items: page.items.map((d) => applicationListItem(d.id, d.doc, this.editor.stateOf(d.doc, funded, d.id))),
      meta: { totalItems: page.total },
      cursor: page.items.length > 0 && end < page.total ? encodeCursor(secrets, accountId, end) : null,
    };
  }

  /**
   * Full replacement (4.2.1): every setting takes the sent value (left out = cleared). Containers
   * sent with the id of one of this application's containers update it and keep its generated
   * values; containers without an id are new; stored containers not sent are removed.
   */
  replace(principal: Principal, appId: string, input: ApplicationReplaceRequestT): Promise<IdResponseT> {
    checkAutoScaling(input.autoScaling, 'autoScaling.');
    checkRegions(input.regionSettings, 'regionSettings.');
    return this.editor.change(principal, appId, async (doc, tx) => ({
      doc: await this.withContainers(tx, principal.accountId, appId, input, input.containerTemplates, doc),
      result: { id: appId },
    }));
  }

  /** Only the fields sent change (see patches.ts); `containerTemplates`, when sent, as in a replacement. */
  patch(principal: Principal, appId: string, input: ApplicationPatchRequestT): Promise<IdResponseT> {
    if (input.autoScaling) checkAutoScaling(input.autoScaling, 'autoScaling.');
    if (input.regionSettings) checkRegions(input.regionSettings, 'regionSettings.');
    return this.editor.change(principal, appId, async (doc, tx) => {
      const settings = patchedSettings(doc, input);
      if (input.containerTemplates) {
        return { doc: await this.withContainers(tx, principal.accountId, appId, settings, input.containerTemplates, doc), result: { id: appId } };
      }
      // New regions move the endpoints' addresses along.
      const ctx = this.editor.endpointContext(regionSettingsOf(settings.regionSettings));
      return { doc: applicationDoc(settings, relocated(doc.containerTemplates, ctx), doc.lifecycle, doc), result: { id: appId } };
    });
  }

  /** Deletes at once (the platform queues it); the pull zones in front of it are released. */
  async delete(principal: Principal, appId: string): Promise<void> {
    const { apps, links } = this.editor;
    await this.editor.store.transaction(async (tx) => {
      const current = await apps.get(tx, principal.accountId, appId);
      await apps.delete(tx, principal.accountId, appId);
      await links.sync(tx, principal.accountId, appId, current.doc, null);
      await this.editor.zones.release(tx, principal.accountId, current.doc, null);
      await this.logForwarding.removeFor(tx, principal.accountId, appId);
    }, principal.durability);
  }

  deploy(principal: Principal, appId: string): Promise<void> {
    return this.lifecycleAction(principal, appId, 'conflict', (doc, now) => ({ ...doc, lifecycle: deployed(doc.lifecycle, now) }));
  }

  undeploy(principal: Principal, appId: string): Promise<void> {
    return this.lifecycleAction(principal, appId, 'conflict', (doc, now) => ({ ...doc, lifecycle: undeployed(doc.lifecycle, now) }));
  }

  /** Replaces every pod of a deployed application; the status stays as it is. */
  restart(principal: Principal, appId: string): Promise<void> {
    return this.lifecycleAction(principal, appId, 'forbidden', (doc) =>
      doc.lifecycle.deployed ? { ...doc, pods: withPods(doc.containerTemplates, doc.autoScaling.min, []) } : doc,
    );
  }

  /**
   * Replaces one pod, as a restart replaces all of them: a new pod (new id, new node) takes its
   * place and its volume instances, and the status stays as it is. Only a running pod can be.
   */
  recreatePod(principal: Principal, appId: string, podId: string): Promise<void> {
    return this.lifecycleAction(principal, appId, 'forbidden', (doc) => {
      const index = doc.pods.findIndex((p) => p.id === podId);
      if (index < 0) throw errors.notFound('pod');
      if (!this.editor.stateOf(doc, true, appId).running) {
        throw errors.conflict('The application is not running, so neither is the pod; deploy the application first.', 'pod.not_running');
      }
      return { ...doc, pods: doc.pods.map((p, i) => (i === index ? newPod() : p)) };
    });
  }

  /**
   * Pull zone deletion hook: endpoints behind the deleted zone keep working without it. Runs in
   * the deleting transaction; the zone's side needs no update, it is about to go.
   */
  async unlinkPullZone(tx: StoreTx, accountId: number, pullZoneId: number): Promise<void> {
    const zoneId = String(pullZoneId);
    const all = await tx.docs.list<ContainerAppDoc>('containerApp', accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    for (const stored of all.items) {
      const templates = stored.doc.containerTemplates;
      if (!templates.some((t) => t.endpoints.some((e) => e.pullZoneId === zoneId))) continue;
      const containerTemplates = templates.map((t) => ({
        ...t,
        endpoints: t.endpoints.map((e) => (e.pullZoneId === zoneId ? { ...e, pullZoneId: null } : e)),
      }));
      await this.editor.apps.update(tx, accountId, stored, { ...stored.doc, containerTemplates });
    }
  }

  private lifecycleAction(
    principal: Principal,
    appId: string,
    whenSuspended: SuspendedAnswer,
    act: (doc: ContainerAppDoc, now: number) => ContainerAppDoc,
  ): Promise<void> {
    return this.editor.change(
      principal,
      appId,
      async (doc, tx) => {
        if (!(await this.editor.funded(tx, principal.accountId))) {
          const message = 'The application is suspended because the account has run out of funds.';
          throw whenSuspended === 'conflict' ? errors.conflict(message, 'application.suspended') : errors.forbidden(message, 'application.suspended');
        }
        return { doc: act(doc, this.editor.now()), result: undefined };
      },
      { rollout: false },
    );
  }

  /**
   * The application document for settings plus a full list of containers sent: checked, with
   * stored containers matched by id, their pull zones checked and the containers built.
   */
  private async withContainers(
    tx: StoreTx,
    accountId: number,
    appId: string,
    settings: ApplicationSettingsInput,
    requested: readonly ApplicationContainerRequestT[],
    current: ContainerAppDoc | undefined,
  ): Promise<ContainerAppDoc> {
    const previous = matchStoredContainers(current?.containerTemplates ?? [], requested);
    checkContainers(requested.map((t, i) => ({ name: t.name, endpoints: t.endpoints ?? [], field: `containerTemplates[${i}].` })));
    const refs = requested.flatMap((t, i) => pullZoneRefs(t.endpoints, `containerTemplates[${i}].`));
    await this.editor.links.check(tx, accountId, appId, refs, new Map());
    const ctx = this.editor.endpointContext(regionSettingsOf(settings.regionSettings));
    const templates = requested.map((t, i) => buildTemplate(t, previous[i], ctx));
    return applicationDoc(settings, templates, current?.lifecycle ?? initialLifecycle(this.editor.now()), current);
  }
}
