/**
 * The containers' output sent to their application's log forwarding (`/mc/log/forwarding`): while
 * an application has an enabled configuration, each of its running containers is followed (one
 * `podman logs --follow` each, tied to edgeplane) and every line goes, written as its message
 * (container-syslog.ts), to the configuration's syslog collector: the edge's log collector, which
 * queues while the collector is down and reconnects. A container is followed from when it started, or from when
 * forwarding was turned on if later; a follow that ends (the container stopped or restarted) is
 * taken up on the next pass from the last line sent, so nothing is sent twice. A changed
 * configuration gets a new collector; a removed or disabled one stops the follows.
 */
import { Collector, type Framing } from '../../edge/logs/forwarding/collector.js';
import { type CollectorAddresses, containerSyslogMessage, type ForwardingTarget } from './container-syslog.js';
import type { Replica } from './replicas.js';
import type { ContainerRuntime, RuntimeWatch } from './types.js';

/** Lines queued per application while its collector is down; more are dropped (counted). */
const QUEUE_MAX = 10_000;
/** How often queued lines leave, and the first and longest wait before reconnecting. */
const BATCH_MS = 50;
const RETRY = { minMs: 100, maxMs: 5000 };
/** A container's line is queued already written as its message. */
const WRITTEN: Framing<null> = { head: () => '', body: (_source, message) => message };

export class OutputForwarding {
  private readonly collectors = new Map<string, { key: string; target: ForwardingTarget; collector: Collector<null> }>();
  private readonly follows = new Map<string, RuntimeWatch>();
  /** The time of the last line sent of each container (a follow taken up again starts after it). */
  private readonly lastAt = new Map<string, number>();
  /** When this process saw each application's forwarding turned on. */
  private readonly since = new Map<string, number>();

  constructor(
    private readonly runtime: Pick<ContainerRuntime, 'follow'>,
    private readonly addresses: CollectorAddresses,
    private readonly logError: (error: unknown, message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Follows the running containers of the applications in `targets` (enabled configurations, by application id); stops the rest. */
  sync(targets: ReadonlyMap<string, ForwardingTarget>, replicas: Iterable<Replica>): void {
    for (const [appId, entry] of this.collectors) {
      const target = targets.get(appId);
      if (target && JSON.stringify(target) === entry.key) continue;
      entry.collector.close();
      this.collectors.delete(appId);
      if (!target) this.since.delete(appId);
    }
    for (const [appId, target] of targets) {
      if (!this.since.has(appId)) this.since.set(appId, this.now());
      if (!this.collectors.has(appId)) {
        const collector = new Collector(
          { transport: target.type === 'SyslogTcp' ? 'tcp' : 'udp', host: target.endpoint, port: target.port },
          WRITTEN,
          {
            // Named, not spread: the address policy is a class, its methods on its prototype.
            lookupFor: (port) => this.addresses.lookupFor(port),
            refusal: (address, port) => this.addresses.refusal(address, port),
            maxQueued: QUEUE_MAX,
            batchMs: BATCH_MS,
            retry: RETRY,
            ca: [],
          },
          (error) => this.logError(error, `log forwarding of application ${appId}`),
        );
        this.collectors.set(appId, { key: JSON.stringify(target), target, collector });
      }
    }
    const present = new Set<string>();
    const wanted = new Map<string, Replica>();
    for (const r of replicas) {
      present.add(r.container.id);
      if (r.container.state === 'running' && targets.has(r.appId)) wanted.set(r.container.id, r);
    }
    for (const [id, follow] of this.follows) {
      if (wanted.has(id)) continue;
      follow.stop();
      this.follows.delete(id);
    }
    for (const id of this.lastAt.keys()) if (!present.has(id)) this.lastAt.delete(id);
    for (const [id, replica] of wanted) if (!this.follows.has(id)) this.follow(replica);
  }

  close(): void {
    for (const follow of this.follows.values()) follow.stop();
    this.follows.clear();
    for (const { collector } of this.collectors.values()) collector.close();
    this.collectors.clear();
  }

  private follow(replica: Replica): void {
    const { id, name } = replica.container;
    const appId = replica.appId;
    const after = this.lastAt.get(id);
    const from = after ?? Math.max(replica.container.startedAt ?? 0, this.since.get(appId) ?? this.now());
    const follow: RuntimeWatch = this.runtime.follow(
      id,
      from,
      (at, line) => {
        // podman's --since is to the second's start on some versions: what was sent, or came before, is left out.
        if (after !== undefined ? at <= after : at < from) return;
        this.lastAt.set(id, Math.max(at, this.lastAt.get(id) ?? 0));
        const entry = this.collectors.get(appId);
        entry?.collector.add(null, containerSyslogMessage(entry.target, { at, line, container: name, appId }));
      },
      // Told later, never during this call (the follow's process ends): `follow` is set by then.
      () => {
        if (this.follows.get(id) === follow) this.follows.delete(id);
      },
    );
    this.follows.set(id, follow);
  }
}
