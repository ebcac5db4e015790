/**
 * The contract of a container runtime (podman.ts runs real containers; simulated.ts runs none and
 * leaves the documents' computed state as the answer), and the documents the supervisor and the
 * edge share: what to run, what runs, which replicas an endpoint balances over.
 */

/** The labels every container, network and volume edgeplane makes carries: operators find an app's parts by them. */
export const LABELS = {
  /**
   * Marks what edgeplane made, its value the installation's key (a hash of the store's location,
   * choose.ts): nothing else on the host is ever touched, not even another installation's containers.
   */
  managed: 'io.edgeplane.managed',
  app: 'io.edgeplane.app',
  template: 'io.edgeplane.template',
  account: 'io.edgeplane.account',
  /** Hash of the template's and application's settings the container was made from: a change rolls it. */
  revision: 'io.edgeplane.revision',
  /** The replica's place (0, 1, …): a rolled container takes the place of the one with the same. */
  replica: 'io.edgeplane.replica',
  /** The image reference the container was made from: removed with the application when no other uses it. */
  image: 'io.edgeplane.image',
} as const;

export type RuntimeKind = 'podman' | 'simulated';

/** A registry's address and credentials for one pull. */
export interface PullSource {
  /** `host[:port]` as image references name it. */
  host: string;
  /** Plain HTTP (a local registry). */
  insecure: boolean;
  credentials: { userName: string; password: string } | null;
}

export interface ContainerSpec {
  name: string;
  image: string;
  labels: Record<string, string>;
  env: Record<string, string>;
  /** Replaces the image's entrypoint when given. */
  entrypoint: string[] | null;
  /** Replaces the image's command (arguments) when given. */
  args: string[] | null;
  workingDirectory: string | null;
  network: string;
  /** Container ports published on the loopback address, each on a port the system picks. */
  ports: number[];
  memoryMb: number;
  cpus: number;
  pids: number;
  volumes: { name: string; mountPath: string }[];
  /** Other names the container answers to on its network. */
  aliases: string[];
}

export interface RunningContainer {
  id: string;
  name: string;
  labels: Record<string, string>;
  /** podman's state: created, running, exited, stopped, paused, … */
  state: string;
  exitCode: number | null;
  startedAt: number | null;
  /** The container's main process on the host (null when it does not run). */
  pid: number | null;
  restarts: number;
  /** Container port → host port on the loopback address. */
  ports: Map<number, number>;
}

/** Something that happened to one of the installation's containers (podman's event stream). */
export interface RuntimeEvent {
  at: number;
  containerId: string;
  name: string;
  /** The container's labels (its app, template, replica). */
  labels: Record<string, string>;
  /** podman's word: create, init, start, died, kill, stop, restart, remove, health_status, … */
  status: string;
  exitCode: number | null;
}

/** A running watch of the runtime's events. */
export interface RuntimeWatch {
  stop(): void;
}

export interface ContainerRuntime {
  readonly kind: RuntimeKind;
  /** One line for the start log and the health report: what runs apps, and why this one. */
  readonly description: string;
  /** Every container edgeplane made, in whatever state. */
  list(): Promise<RunningContainer[]>;
  inspect(id: string): Promise<RunningContainer | undefined>;
  /** Fetches the image unless it is there already (`always`: fetches anyway); true when it fetched it. */
  pull(image: string, source: PullSource | null, always: boolean): Promise<boolean>;
  hasImage(image: string): Promise<boolean>;
  removeImage(image: string): Promise<void>;
  ensureNetwork(name: string, labels: Record<string, string>): Promise<void>;
  /** Rejects when it could not be removed (tried again later). */
  removeNetwork(name: string): Promise<void>;
  /** Names of networks and volumes edgeplane made with this app label value. */
  networksOf(appId: string): Promise<string[]>;
  ensureVolume(name: string, labels: Record<string, string>): Promise<void>;
  volumesOf(appId: string): Promise<string[]>;
  removeVolume(name: string): Promise<void>;
  run(spec: ContainerSpec): Promise<RunningContainer>;
  start(id: string): Promise<void>;
  restart(id: string, graceSeconds: number): Promise<void>;
  /** Stops (SIGTERM, then SIGKILL after the grace period) and removes. */
  remove(id: string, graceSeconds: number): Promise<void>;
  /**
   * Tells every event of the installation's containers as it happens, until stopped; `ended` once
   * the watch stops on its own (the watcher exited), so the caller polls until it watches again.
   */
  watch(onEvent: (event: RuntimeEvent) => void, ended: (reason: string) => void): RuntimeWatch;
  /**
   * The CPU time each running container has used since it started (ns), by container id; one
   * whose time cannot be read is left out.
   */
  cpuTimes(containers: readonly RunningContainer[]): Promise<Map<string, number>>;
  /**
   * Tells each line the container writes (standard output and error) from `since` (epoch ms) on,
   * until stopped or the container stops (`ended`).
   */
  follow(id: string, since: number, onLine: (at: number, line: string) => void, ended: (reason: string) => void): RuntimeWatch;
  /** The container's output, oldest first, at most `lines` lines. */
  logs(id: string, lines: number): Promise<{ at: number; line: string }[]>;
}
