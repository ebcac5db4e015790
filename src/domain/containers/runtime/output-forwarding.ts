/**
 * The containers' output sent to their application's log forwarding (`/mc/log/forwarding`): while
 * an application has an enabled configuration, each of its running containers is followed (one
 * `podman logs --follow` each, tied to edgeplane) and every line goes to the configuration's
 * syslog collector (syslog-sender.ts). A container is followed from when it started, or from when
 * forwarding was turned on if later; a follow that ends (the container stopped or restarted) is
 * taken up on the next pass from the last line sent, so nothing is sent twice. A changed
 * configuration gets a new sender; a removed or disabled one stops the follows.
 */
import type { Replica } from './replicas.js';
import { type CollectorAddresses, containerSyslogMessage, type ForwardingTarget, SyslogSender } from './syslog-sender.js';
import type { ContainerRuntime, RuntimeWatch } from './types.js';

interface Follow {
  appId: string;
  watch: RuntimeWatch;
}

export class OutputForwarding {
  private readonly senders = new Map<string, { key: string; sender: SyslogSender }>();
  private readonly follows = new Map<string, Follow>();
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
    for (const [appId, entry] of this.senders) {
      const target = targets.get(appId);
      if (target && JSON.stringify(target) === entry.key) continue;
      entry.sender.close();
      this.senders.delete(appId);
      if (!target) this.since.delete(appId);
    }
    for (const [appId, target] of targets) {
      if (!this.since.has(appId)) this.since.set(appId, this.now());
      if (!this.senders.has(appId)) {
        const sender = new SyslogSender(target, this.addresses, (error) => this.logError(error, `log forwarding of application ${appId}`));
        this.senders.set(appId, { key: JSON.stringify(target), sender });
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
      follow.watch.stop();
      this.follows.delete(id);
    }
    for (const id of this.lastAt.keys()) if (!present.has(id)) this.lastAt.delete(id);
    for (const [id, replica] of wanted) if (!this.follows.has(id)) this.follow(replica);
  }

  close(): void {
    for (const follow of this.follows.values()) follow.watch.stop();
    this.follows.clear();
    for (const { sender } of this.senders.values()) sender.close();
    this.senders.clear();
  }

  private follow(replica: Replica): void {
    const { id, name } = replica.container;
    const appId = replica.appId;
    const after = this.lastAt.get(id);
    const from = after ?? Math.max(replica.container.startedAt ?? 0, this.since.get(appId) ?? this.now());
    const follow: Follow = {
      appId,
      watch: this.runtime.follow(
        id,
        from,
        (at, line) => {
          // podman's --since is to the second's start on some versions: what was sent, or came before, is left out.
          if (after !== undefined ? at <= after : at < from) return;
          this.lastAt.set(id, Math.max(at, this.lastAt.get(id) ?? 0));
          const entry = this.senders.get(appId);
          entry?.sender.send(containerSyslogMessage(entry.sender.target, { at, line, container: name, appId }));
        },
        () => {
          if (this.follows.get(id) === follow) this.follows.delete(id);
        },
      ),
    };
    this.follows.set(id, follow);
  }
}
