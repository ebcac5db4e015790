/**
 * What every container-application operation shares: the stored documents, the read-modify-write
 * of one application in one transaction (with its pull zone links and rollout kept in step), and
 * the computed state a read shows.
 */
import { isDeepStrictEqual } from 'node:util';
import type { RegionSettingsT } from '../../schemas/containers.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoredDoc, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import type { Clock, WriteOwner } from '../principal.js';
import { pullZoneRepo } from '../pull-zones/repo.js';
import { hasFunds } from '../pull-zones/state.js';
import { regionsOf } from './placement.js';
import type { ContainerAppDoc } from './types.js';
import { rolledOut, stateOf, type AppState } from './lifecycle.js';
import { PullZoneLinks } from './pull-zone-links.js';
import type { EndpointContext } from './templates.js';
import { recorded } from './timeline.js';
import { withProvisionedInstances } from './volumes.js';
import { EndpointZones } from './endpoint-zones.js';
import type { AppRuntime } from './runtime/app-runtime.js';
import type { PullZoneService } from '../pull-zones/service.js';

/** What runs the applications, and the pull zone service their CDN endpoints' zones are made with. */
export interface ContainerRuntimeDeps {
  runtime?: AppRuntime | undefined;
  pullZones?: PullZoneService | undefined;
}

export interface ContainerSettings {
  /** Domain of generated endpoint hosts (`config.containerDomain`). */
  containerDomain: string;
  /** Pace of emulated rollouts (`config.jobDelayMs`). */
  jobDelayMs: number;
  /** Where anycast endpoints' ports listen when containers run (`config.containerAnycastAddress`). */
  containerAnycastAddress: string;
}

export interface Edit<R> {
  doc: ContainerAppDoc;
  result: R;
}

export interface ChangeOptions {
  /**
   * Whether the change is to the configuration, which a deployed application rolls out again
   * (default). Deploy, undeploy and restart set the lifecycle themselves.
   */
  rollout?: boolean;
}

/** Equal as stored: key order and undefined members don't count. */
const sameJson = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));

/** The document without its lifecycle and history: what decides whether the configuration changed. */
const configOf = ({ lifecycle: _l, timeline: _t, ...config }: ContainerAppDoc) => config;

export class AppEditor {
  readonly apps: DocumentRepo<ContainerAppDoc>;
  readonly links: PullZoneLinks;
  readonly zones: EndpointZones;
  readonly runtime: AppRuntime | undefined;

  constructor(
    readonly store: Store,
    readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly settings: ContainerSettings,
    deps: ContainerRuntimeDeps = {},
  ) {
    this.runtime = deps.runtime;
    this.zones = new EndpointZones(deps.pullZones, () => deps.runtime?.runsContainers ?? false);
    // No credential fields, and no indexed name: application names need not be unique.
    this.apps = new DocumentRepo<ContainerAppDoc>('containerApp', 'application', secrets, []);
    this.links = new PullZoneLinks(pullZoneRepo(secrets), this.apps);
  }

  now(): number {
    return this.clock().getTime();
  }

  endpointContext(regionSettings: RegionSettingsT): EndpointContext {
    return {
      domain: this.settings.containerDomain,
      regions: regionsOf(regionSettings),
      anycastAddress: this.runtime?.runsContainers ? this.settings.containerAnycastAddress : undefined,
    };
  }

  /**
   * Reads the application, lets `edit` make the next document, and writes it with its pull zone
   * links, all in one transaction. An edit that changes nothing writes nothing.
   */
  change<R>(
    owner: WriteOwner,
    appId: string,
    edit: (doc: ContainerAppDoc, tx: StoreTx) => Edit<R> | Promise<Edit<R>>,
    options: ChangeOptions = {},
  ): Promise<R> {
    const { accountId } = owner;
    return this.store.transaction(async (tx) => {
      const current = await this.apps.get(tx, accountId, appId);
      const edited = await edit(current.doc, tx);
      const { result } = edited;
      const doc = await this.zones.assign(tx, accountId, edited.doc);
      if (sameJson(doc, current.doc)) return result;
      const changed = (options.rollout ?? true) && !sameJson(configOf(doc), configOf(current.doc));
      const next = this.finished(current.doc, changed ? { ...doc, lifecycle: rolledOut(doc.lifecycle, this.now()) } : doc);
      await this.apps.update(tx, accountId, current, next);
      await this.links.sync(tx, accountId, appId, current.doc, next);
      await this.zones.release(tx, accountId, current.doc, next);
      return result;
    }, owner.durability);
  }

  /** What every write does last: volume instances a pod needs are provisioned, and the change goes into the history. */
  finished(previous: ContainerAppDoc | undefined, next: ContainerAppDoc): ContainerAppDoc {
    return recorded(previous, withProvisionedInstances(next), this.now());
  }

  /** How long an emulated rollout or stop takes (`config.jobDelayMs`). */
  get delayMs(): number {
    return this.settings.jobDelayMs;
  }

  /** Whether the account can run anything: without funds every application is suspended. */
  async funded(tx: StoreTx, accountId: number): Promise<boolean> {
    const account = await tx.accounts.get(accountId);
    return account !== undefined && hasFunds(account.balance);
  }

  /** The state the runtime sees for the application (podman), else the one its document and the clock say (the simulation). */
  stateOf(doc: ContainerAppDoc, funded: boolean, appId?: string): AppState {
    const running = appId === undefined ? undefined : this.runtime?.stateOf(appId, doc, funded);
    if (running) return running;
    return stateOf(doc.lifecycle, doc.containerTemplates.length, { now: this.now(), delayMs: this.settings.jobDelayMs, funded });
  }

  /** Reads one application with its current state. */
  async read(accountId: number, appId: string): Promise<{ stored: StoredDoc<ContainerAppDoc>; state: AppState }> {
    const stored = await this.apps.get(this.store, accountId, appId);
    return { stored, state: this.stateOf(stored.doc, await this.funded(this.store, accountId), appId) };
  }
}
