/**
 * Keeps the host's containers in line with the stored applications (podman): on start it adopts
 * the containers a previous run left (found by their labels, never duplicated), then after every
 * write of an application (the store's change feed), after every event of its containers
 * (podman's event stream, watched by one long-lived `podman events`) and on a steady pace it
 * reconciles. The containers are listed again only when an event said something changed, or once
 * a minute: a steady state costs no podman command (each costs some 150 ms of CPU and a fork of
 * this process, time the edge's requests would wait). Each
 * deployed application's templates get the replicas autoscaling decides (autoscale.ts: between
 * `autoScaling.min` and `max`, on the CPU the containers use, measured from their control groups
 * every sample period) of their current revision; a
 * changed template's new container starts beside the old one, which leaves the balance only once
 * the new one is ready, and stops after a short drain; an application deleted loses its
 * containers, volumes, network and the images pulled for it. Probes run from here (probes.ts): a
 * liveness failure restarts the container, readiness decides which replicas the edge uses. The
 * running containers of applications with log forwarding have their output sent there
 * (output-forwarding.ts). Each measure is also kept for the applications' charts
 * (usage-history.ts): the instances running and their load.
 */
import type { HeldLock, Store } from '../../../store/types.js';
import { hasFunds } from '../../pull-zones/state.js';
import type { ContainerAppDoc } from '../types.js';
import { AnycastListeners, type AnycastPort } from './anycast.js';
import { Autoscaler, type ScalePolicy } from './autoscale.js';
import { OutputForwarding } from './output-forwarding.js';
import { checkProbe, tcpCheck } from './probes.js';
import { type Replica, replicaOf, Replicas } from './replicas.js';
import { UsageHistory } from './usage-history.js';
import { containerSpec, DEFAULT_GRACE_SECONDS, firstPort, networkName, probePort, pullReference, RESOURCE_BOUNDS, revisionOf, volumeName } from './specs.js';
import type { CollectorAddresses, ForwardingTarget } from './container-syslog.js';
import { type ContainerRuntime, LABELS, type PullSource, type RuntimeEvent, type RuntimeWatch } from './types.js';

export interface SupervisorOptions {
  store: Store;
  runtime: ContainerRuntime;
  /** Where a template's registry is and how to log in to it (null: the image's own name is pulled anonymously). */
  pullSource: (accountId: number, registryId: string) => Promise<PullSource | null>;
  logError: (error: unknown, message: string) => void;
  /** How often everything is reconciled even when nothing was written (ms). */
  intervalMs: number;
  /** How often due probes are looked for (ms). */
  probeTickMs: number;
  /** How long a replica taken out of the balance keeps running before it is stopped (ms): requests in flight finish. */
  drainMs: number;
  /** The address anycast endpoints' ports listen on (`EDGEPLANE_CONTAINER_ANYCAST_ADDRESS`). */
  anycastAddress: string;
  /** How often the replicas' CPU is measured (ms), and how the autoscaler reads it (autoscale.ts). */
  scale: ScalePolicy & { sampleMs: number };
  /** The applications' enabled log forwarding configurations, by application id, and how their collectors are reached. */
  forwarding: { targets: () => Promise<ReadonlyMap<string, ForwardingTarget>>; addresses: CollectorAddresses };
  now?: () => number;
}

export interface AppRuntimeState {
  /** Something stopped the application from running: a pull or a start failed. */
  failure: string | undefined;
  replicas: Replica[];
  /** The replicas each template runs now, as autoscaling decided (undefined: not deployed). */
  desired: number | undefined;
  /** The last load sample: the busiest template's started replicas' mean CPU, as a fraction of their limit. */
  load: number | undefined;
  /** What happened to its containers, oldest first (the runtime's events and the supervisor's own acts). */
  events: AppEvent[];
}

export interface AppEvent {
  at: number;
  /** The container it is about (its name), if any. */
  container: string | undefined;
  /** One word: podman's event (start, died, remove, …) or the supervisor's (pulled, created, unhealthy, failed). */
  reason: string;
  message: string;
}

/** Events kept per application. */
const EVENTS_KEPT = 100;
/** The containers are listed at least this often even when no event said anything changed (ms). */
const FULL_LIST_MS = 60_000;

const PAGE = 500;
/** One instance among several on one PostgreSQL runs the containers. */
const SUPERVISOR_LOCK = 'edgeplane container supervisor';
const MAX_BACKOFF_MS = 30_000;

export class ContainerSupervisor {
  readonly replicas = new Replicas();
  /** The anycast endpoints' listeners on the configured address. */
  readonly anycast: AnycastListeners;
  readonly scaler: Autoscaler;
  /** What each application's containers were measured doing, for its charts. */
  readonly usage = new UsageHistory();
  private readonly output: OutputForwarding;
  /**
   * Deleted applications looked for again on the next pass: what podman would not remove yet (a
   * container whose cleanup still holds its mounts, a network still in use), and once more after
   * a teardown that removed everything (a network made by a start under way elsewhere); each with
   * the images its containers ran.
   */
  private readonly unfinished = new Map<string, Set<string>>();
  private measuring = false;
  private readonly failures = new Map<string, string>();
  /** Applications whose network is known to exist (each podman command costs most of a second on a busy host). */
  private readonly networks = new Set<string>();
  private readonly docs = new Map<string, { accountId: number; doc: ContainerAppDoc }>();
  private readonly now: () => number;
  private passing: Promise<void> | undefined;
  private again = false;
  private timers: NodeJS.Timeout[] = [];
  private closed = false;
  private lock: HeldLock | undefined;
  private watching: RuntimeWatch | undefined;
  /** The containers must be listed again: nothing is known yet, an event told of a change, or the watch stopped. */
  private stale = true;
  private listedAt = 0;
  private readonly events = new Map<string, AppEvent[]>();
  /** Resolves after the next complete pass (tests and the bench wait on it). */
  private waiters: (() => void)[] = [];

  constructor(private readonly options: SupervisorOptions) {
    this.now = options.now ?? Date.now;
    this.anycast = new AnycastListeners(options.anycastAddress, this.replicas);
    this.scaler = new Autoscaler(options.scale);
    this.output = new OutputForwarding(options.runtime, options.forwarding.addresses, options.logError, this.now);
  }

  start(): void {
    this.options.store.changes.subscribe((change) => {
      if (change.type === 'all' || (change.type === 'doc' && change.kind === 'containerApp')) void this.soon();
    });
    void this.soon();
    this.timers.push(setInterval(() => void this.soon(), this.options.intervalMs).unref());
    this.timers.push(setInterval(() => this.probeDue(), this.options.probeTickMs).unref());
    this.timers.push(setInterval(() => void this.measure(), this.options.scale.sampleMs).unref());
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.watching?.stop();
    this.watching = undefined;
    this.anycast.close();
    this.output.close();
    await this.passing;
    await this.lock?.release();
  }

  /** A pass as soon as the current one ends. */
  soon(): Promise<void> {
    const done = new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.passing) {
      this.again = true;
      return done;
    }
    this.passing = (async () => {
      do {
        this.again = false;
        const waiting = this.waiters.splice(0);
        try {
          await this.pass();
        } catch (error) {
          this.options.logError(error, 'reconciling containers failed');
        }
        for (const w of waiting) w();
      } while (this.again && !this.closed);
      this.passing = undefined;
    })();
    return done;
  }

  stateOf(appId: string): AppRuntimeState {
    return {
      failure: this.failures.get(appId),
      replicas: this.replicas.ofApp(appId),
      desired: this.scaler.current(appId),
      load: this.scaler.lastLoad(appId)?.cpu,
      events: this.events.get(appId) ?? [],
    };
  }

  /** Whether this instance runs the containers: with several instances on PostgreSQL, the one holding the supervisor's lock. */
  get owner(): boolean {
    return this.lock?.held() ?? false;
  }

  private async pass(): Promise<void> {
    const { store, runtime } = this.options;
    if (!this.owner) {
      this.lock = await store.holdLock(SUPERVISOR_LOCK);
      // Another instance supervises; this one looks again on its next pass (and takes over should that one go).
      if (!this.lock) return;
    }
    if (!this.watching && !this.closed) {
      // Watched before listing: a change between the two is told, and listed on the next pass.
      this.watching = runtime.watch(
        (event) => this.told(event),
        (reason) => {
          this.watching = undefined;
          this.stale = true;
          this.options.logError(new Error(reason), 'the containers are no longer watched; they are listed on every pass until they are again');
        },
      );
    }
    const seen = new Map<string, { accountId: number; doc: ContainerAppDoc }>();
    for (let offset = 0; ; offset += PAGE) {
      const page = await store.docs.scan<ContainerAppDoc>('containerApp', offset, PAGE);
      for (const d of page) seen.set(d.id, { accountId: d.accountId, doc: d.doc });
      if (page.length < PAGE) break;
    }
    if (this.stale || this.now() - this.listedAt >= FULL_LIST_MS) {
      this.stale = false;
      this.listedAt = this.now();
      this.sync(await runtime.list());
    }
    // Stopped meanwhile (a restart of edgeplane): nothing is opened or started again.
    if (this.closed) return;
    this.docs.clear();
    for (const [id, app] of seen) this.docs.set(id, app);
    this.syncEndpoints();
    await this.syncAnycast();
    for (const [appId, { accountId, doc }] of seen) {
      if (this.closed) return;
      const account = await store.accounts.get(accountId);
      try {
        await this.reconcile(appId, accountId, doc, account !== undefined && hasFunds(account.balance));
        this.failures.delete(appId);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (this.failures.get(appId) !== message) this.note(appId, undefined, 'failed', message);
        this.failures.set(appId, message);
      }
    }
    const gone = new Set([...[...this.replicas.byId.values()].map((r) => r.appId), ...this.unfinished.keys()].filter((id) => !seen.has(id)));
    for (const appId of gone) await this.teardown(appId);
    this.usage.retain(seen, this.now());
    const forwarded = await this.options.forwarding.targets();
    if (!this.closed) this.output.sync(forwarded, this.replicas.byId.values());
  }

  /** An event of one of the containers: kept for its application, and the containers listed again on the next pass. */
  private told(event: RuntimeEvent): void {
    const appId = event.labels[LABELS.app];
    if (appId) {
      const exit = event.exitCode === null ? '' : ` (exit code ${event.exitCode})`;
      this.note(appId, event.name, event.status, `container ${event.status}${exit}`, event.at);
    }
    // Creating and initialising are steps of a start this supervisor makes and waits for itself.
    if (event.status === 'create' || event.status === 'init' || event.status === 'health_status') return;
    this.stale = true;
    void this.soon();
  }

  private note(appId: string, container: string | undefined, reason: string, message: string, at = this.now()): void {
    let kept = this.events.get(appId);
    if (!kept) this.events.set(appId, (kept = []));
    kept.push({ at, container, reason, message });
    if (kept.length > EVENTS_KEPT) kept.splice(0, kept.length - EVENTS_KEPT);
  }

  /** The replicas as podman lists them: new ones adopted, vanished ones dropped, states refreshed. */
  private sync(listed: Awaited<ReturnType<ContainerRuntime['list']>>): void {
    const ids = new Set<string>();
    for (const container of listed) {
      ids.add(container.id);
      const known = this.replicas.byId.get(container.id);
      if (known) {
        const restartedElsewhere = known.container.startedAt !== container.startedAt;
        known.container = container;
        if (container.state !== 'running') known.ready = false;
        if (restartedElsewhere) Object.assign(known, { started: false, ready: false, failures: 0, successes: 0, livenessFailures: 0, cpu: undefined });
      } else {
        this.replicas.byId.set(container.id, replicaOf(container, this.now()));
      }
    }
    for (const id of this.replicas.byId.keys()) if (!ids.has(id)) this.replicas.byId.delete(id);
  }

  private syncEndpoints(): void {
    this.replicas.endpoints.clear();
    for (const [appId, { doc }] of this.docs) {
      for (const t of doc.containerTemplates) {
        for (const e of t.endpoints) {
          const containerPort = e.portMappings[0]?.containerPort;
          if (containerPort !== undefined) this.replicas.endpoints.set(e.id, { appId, templateId: t.id, containerPort, sticky: e.stickySessions });
        }
      }
    }
  }

  /** A listener for each anycast endpoint's port of every stored application; one that cannot listen is an event of its app. */
  private async syncAnycast(): Promise<void> {
    const wanted: AnycastPort[] = [];
    for (const [appId, { doc }] of this.docs) {
      for (const t of doc.containerTemplates) {
        for (const e of t.endpoints) {
          if (e.type !== 'anycast') continue;
          for (const m of e.portMappings)
            wanted.push({ appId, endpointId: e.id, templateId: t.id, containerPort: m.containerPort, exposedPort: m.exposedPort });
        }
      }
    }
    for (const { port, reason } of await this.anycast.sync(wanted)) {
      const last = this.events.get(port.appId)?.at(-1);
      if (last?.message !== reason) this.note(port.appId, undefined, 'failed', reason);
    }
  }

  private async reconcile(appId: string, accountId: number, doc: ContainerAppDoc, funded: boolean): Promise<void> {
    const { runtime } = this.options;
    const grace = doc.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    const runs = doc.lifecycle.deployed && funded && doc.containerTemplates.length > 0;
    if (!runs) this.scaler.forget(appId);
    const mine = this.replicas.ofApp(appId);
    // A restarted edgeplane keeps the replicas its previous run scaled to (within the limits).
    const slots = new Set(mine.filter((r) => !r.draining).map((r) => r.slot)).size;
    const wanted = runs ? this.scaler.replicasOf(appId, doc.autoScaling.min, doc.autoScaling.max, this.now(), slots) : 0;
    const keep = new Set<Replica>();
    // The network is made while the image is pulled: each podman command takes most of a second on a busy host.
    let network: Promise<void> | undefined;
    if (wanted > 0 && !this.networks.has(appId)) {
      network = runtime.ensureNetwork(networkName(appId), { [LABELS.app]: appId }).then(() => {
        this.networks.add(appId);
      });
      network.catch(() => undefined);
    }
    const pulled = new Set<string>();
    try {
      for (const template of doc.containerTemplates) {
        const revision = revisionOf(doc, template);
        for (let slot = 0; slot < wanted; slot++) {
          const inSlot = mine.filter((r) => r.templateId === template.id && r.slot === slot);
          let current = inSlot.find((r) => r.revision === revision);
          if (!current) {
            const source = await this.options.pullSource(accountId, template.imageRegistryId);
            const image = pullReference(source?.host ?? null, template);
            if (!pulled.has(image)) {
              if (await runtime.pull(image, source, template.imagePullPolicy === 'always')) this.note(appId, undefined, 'pulled', `image ${image} pulled`);
              pulled.add(image);
            }
            for (const m of template.volumeMounts) {
              await runtime.ensureVolume(volumeName(appId, m.name, slot), { [LABELS.app]: appId });
            }
            await network;
            const container = await runtime.run(containerSpec({ accountId, appId, doc, template, replica: slot, image }));
            current = replicaOf(container, this.now() + initialDelayMs(template.probes.startup ?? template.probes.liveness));
            this.replicas.byId.set(container.id, current);
          } else if (!current.checking && current.container.state !== 'running' && current.container.state !== 'stopping' && this.now() >= current.retryAt) {
            // A container that stopped on its own is started again, later each time it keeps stopping;
            // not one its probe is restarting (a start would race podman's own restart of it).
            current.restarts++;
            current.retryAt = this.now() + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(current.restarts, 5));
            await runtime.start(current.container.id);
          }
          keep.add(current);
          // The old revision goes once the new one takes traffic: no moment without a ready replica.
          for (const old of inSlot) {
            if (old === current) continue;
            if (current.ready) this.retire(old, grace);
            else keep.add(old);
          }
        }
      }
    } finally {
      // A pass that failed midway (a pull, a start) still waits for the network it began to make:
      // made after a later pass removed the deleted application's, it would be left behind.
      await network?.catch(() => undefined);
    }
    await network;
    for (const r of mine) if (!keep.has(r)) this.retire(r, grace);
  }

  /** Out of the balance now, stopped after the drain. */
  private retire(replica: Replica, graceSeconds: number): void {
    if (replica.draining) return;
    replica.draining = true;
    replica.ready = false;
    setTimeout(() => {
      this.options.runtime.remove(replica.container.id, graceSeconds).then(
        () => this.replicas.byId.delete(replica.container.id),
        (error: unknown) => {
          replica.draining = false;
          this.options.logError(error, 'a container could not be removed');
        },
      );
    }, this.options.drainMs).unref();
  }

  /**
   * Everything of a deleted application: containers, volumes, networks, and the images no other
   * container uses. Whatever podman refuses is tried again on the next passes (`unfinished`).
   */
  private async teardown(appId: string): Promise<void> {
    const { runtime } = this.options;
    const again = this.unfinished.has(appId);
    const images = this.unfinished.get(appId) ?? new Set<string>();
    this.unfinished.set(appId, images);
    this.networks.delete(appId);
    this.events.delete(appId);
    this.scaler.forget(appId);
    this.usage.forget(appId);
    this.failures.delete(appId);
    const mine = this.replicas.ofApp(appId);
    for (const r of mine) {
      r.draining = true;
      const image = r.container.labels[LABELS.image];
      if (image !== undefined) images.add(image);
    }
    try {
      const removed = await Promise.allSettled(
        mine.map(async (r) => {
          await runtime.remove(r.container.id, 0);
          this.replicas.byId.delete(r.container.id);
        }),
      );
      const refused = removed.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (refused) throw refused.reason;
      for (const volume of await runtime.volumesOf(appId)) await runtime.removeVolume(volume);
      for (const network of await runtime.networksOf(appId)) await runtime.removeNetwork(network);
      const used = new Set([...this.replicas.byId.values()].map((r) => r.container.labels[LABELS.image]));
      for (const image of images) if (!used.has(image)) await runtime.removeImage(image);
      if (again) this.unfinished.delete(appId);
    } catch (error) {
      if (!again) this.options.logError(error, `deleted application ${appId} could not be removed whole yet; tried again on the next passes`);
    }
  }

  /**
   * Measures every running replica's CPU since the last measure, as a fraction of its limit, and
   * gives each running application's load to the autoscaler (and its instances and load to the
   * usage history): a changed count is an event of the application, and acted on at once.
   */
  private async measure(): Promise<void> {
    if (this.measuring || this.closed || !this.owner) return;
    this.measuring = true;
    try {
      const running = [...this.replicas.byId.values()].filter((r) => !r.draining && r.container.state === 'running');
      const times = await this.options.runtime.cpuTimes(running.map((r) => r.container));
      const now = this.now();
      for (const r of running) {
        const ns = times.get(r.container.id);
        const app = this.docs.get(r.appId);
        if (ns === undefined || !app) continue;
        const last = r.cpuTime;
        r.cpuTime = { ns, at: now, startedAt: r.container.startedAt };
        if (!last || last.startedAt !== r.container.startedAt || now <= last.at || ns < last.ns) continue;
        r.cpu = (ns - last.ns) / ((now - last.at) * 1e6) / RESOURCE_BOUNDS[app.doc.runtimeType].cpus;
      }
      for (const [appId, { doc }] of this.docs) {
        const wanted = this.scaler.current(appId);
        if (wanted === undefined) continue;
        const live = this.replicas.ofApp(appId).filter((r) => !r.draining);
        const loads = doc.containerTemplates.map((t) => {
          const mine = live.filter((r) => r.templateId === t.id);
          // Started, not necessarily ready: replicas an overload makes fail their readiness probe still count.
          const measured = mine.every((r) => r.started && r.container.state === 'running' && r.cpu !== undefined && r.cpuTime?.at === now);
          return mine.length === wanted && measured ? mine.reduce((sum, r) => sum + (r.cpu ?? 0), 0) / wanted : undefined;
        });
        // Every template's replicas ready and measured; else the window starts over.
        const settled = loads.length > 0 && loads.every((l) => l !== undefined);
        const sample = settled ? { at: now, cpu: Math.max(...(loads as number[])) } : undefined;
        // Instances: pods (replica slots) with a container running.
        const instances = new Set(live.filter((r) => r.container.state === 'running').map((r) => r.slot)).size;
        this.usage.record(appId, now, instances, sample?.cpu);
        const decision = this.scaler.record(appId, sample, doc.autoScaling.min, doc.autoScaling.max, now);
        if (decision.reason !== undefined) {
          this.note(appId, undefined, 'scaled', `scaled from ${wanted} to ${decision.replicas} replicas: ${decision.reason}`);
          void this.soon();
        }
      }
    } catch (error) {
      this.options.logError(error, 'measuring the containers failed');
    } finally {
      this.measuring = false;
    }
  }

  private probeDue(): void {
    const now = this.now();
    for (const replica of this.replicas.byId.values()) {
      if (replica.checking || replica.draining || replica.container.state !== 'running' || now < replica.nextCheck) continue;
      const app = this.docs.get(replica.appId);
      const template = app?.doc.containerTemplates.find((t) => t.id === replica.templateId);
      if (!template) continue;
      replica.checking = true;
      void this.probe(replica, template).finally(() => {
        replica.checking = false;
      });
    }
  }

  private async probe(replica: Replica, template: ContainerAppDoc['containerTemplates'][number]): Promise<void> {
    const { startup, readiness, liveness } = template.probes;
    const portOf = (probe: typeof startup) => (probe ? probePort(probe, template) : firstPort(template));
    const hostPort = (port: number | undefined) => (port === undefined ? undefined : replica.container.ports.get(port));
    const check = async (probe: typeof startup): Promise<boolean> => {
      const port = hostPort(portOf(probe));
      // A template with no port to check is taken as healthy once running.
      if (port === undefined) return true;
      return probe ? checkProbe(probe, port, (probe.timeoutSeconds ?? 1) * 1000) : tcpCheck(port, 1000);
    };
    const period = (probe: typeof startup) => (probe?.periodSeconds ?? 1) * 1000;
    if (!replica.started) {
      const ok = await check(startup);
      replica.started = ok;
      replica.nextCheck = this.now() + (ok ? 0 : startup ? period(startup) : 200);
      return;
    }
    if (liveness) {
      const alive = await check(liveness);
      replica.livenessFailures = alive ? 0 : replica.livenessFailures + 1;
      if (replica.livenessFailures >= (liveness.failureThreshold ?? 3)) {
        this.note(replica.appId, replica.container.name, 'unhealthy', 'liveness probe failed: the container is restarted');
        replica.ready = false;
        replica.started = false;
        replica.livenessFailures = 0;
        replica.restarts++;
        const grace = this.docs.get(replica.appId)?.doc.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
        await this.options.runtime
          .restart(replica.container.id, Math.min(grace, 10))
          .catch((error: unknown) => this.options.logError(error, 'a container could not be restarted'));
        const after = await this.options.runtime.inspect(replica.container.id);
        if (after) replica.container = after;
        replica.nextCheck = this.now() + initialDelayMs(startup ?? liveness);
        return;
      }
    }
    const ready = await check(readiness);
    if (ready) {
      replica.lastPassed = this.now();
      replica.successes++;
      replica.failures = 0;
      if (!replica.ready && replica.successes >= (readiness?.successThreshold ?? 1)) {
        replica.ready = true;
        // The slot's older revision may go now.
        void this.soon();
      }
    } else {
      replica.failures++;
      replica.successes = 0;
      if (replica.failures >= (readiness?.failureThreshold ?? 1)) replica.ready = false;
    }
    replica.nextCheck = this.now() + Math.min(period(readiness), liveness ? period(liveness) : Number.POSITIVE_INFINITY);
  }
}

const initialDelayMs = (probe: { initialDelaySeconds?: number | null } | undefined) => (probe?.initialDelaySeconds ?? 0) * 1000;
