/**
 * The podman driver: each operation one `podman` command, run without a shell. Containers run
 * under a user namespace (root inside is an unprivileged user outside), with a read-only root
 * file system (podman's tmpfs /tmp, /var/tmp and /run stay writable), no capabilities, no new
 * privileges, and bounded memory, CPU, processes and open files. The OCI runtime is named on each
 * run (`runc` by default: `crun` fails on hosts with hybrid cgroups). `CONTAINERS_CONF`, when set,
 * reaches podman as it is.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cgroupCpuNs } from './cgroup-cpu.js';
import { spawnTied } from './tied-child.js';
import { LABELS, type ContainerRuntime, type ContainerSpec, type PullSource, type RunningContainer, type RuntimeEvent, type RuntimeWatch } from './types.js';

export interface PodmanOptions {
  /** The podman binary (`EDGEPLANE_PODMAN`). */
  binary: string;
  /** The OCI runtime passed with `--runtime`; empty: podman's own choice. */
  ociRuntime: string;
  /** `nofile` and `nproc` limits given to every container (podman's defaults exceed what an unprivileged host may grant). */
  ulimits: { nofile: number; nproc: number };
  /** First host id of the range container ids 0…65535 map to. */
  uidBase: number;
  /** The value of the `io.edgeplane.managed` label on everything this installation makes, and the only one it touches. */
  installation: string;
}

export class PodmanError extends Error {}

interface PsEntry {
  Id: string;
  Names: string[];
  Labels: Record<string, string> | null;
  State: string;
  ExitCode: number;
  Exited: boolean;
  StartedAt: number;
  Pid?: number;
  Ports: { host_ip: string; container_port: number; host_port: number; range: number; protocol: string }[] | null;
}

const COMMAND_TIMEOUT_MS = 120_000;

export class PodmanRuntime implements ContainerRuntime {
  readonly kind = 'podman' as const;

  /** The filter that finds only what this installation made. */
  private readonly mine: string;

  constructor(
    private readonly options: PodmanOptions,
    readonly description: string,
  ) {
    this.mine = `label=${LABELS.managed}=${options.installation}`;
  }

  private labelArgs(labels: Record<string, string>): string[] {
    return labelArgs({ ...labels, [LABELS.managed]: this.options.installation });
  }

  /** Runs podman; its stderr's last line is the error's message. */
  exec(args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(this.options.binary, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const said = stderr.trim().split('\n').filter(Boolean).at(-1) ?? error.message;
        reject(new PodmanError(`podman ${args[0]} ${args[1] ?? ''}: ${said}`.replace(/\s+/g, ' ')));
      });
    });
  }

  /**
   * Runs a podman command that starts a container (run, start, restart): its conmon lives on
   * holding whatever pipes podman had, so the command's end is its exit, and what it printed and
   * said go through files. Resolves with what it printed.
   */
  private async execDetached(args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'edgeplane-podman-'));
    const errFile = join(dir, 'stderr');
    const outFile = join(dir, 'stdout');
    const err = await open(errFile, 'w');
    const out = await open(outFile, 'w');
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(this.options.binary, args, { stdio: ['ignore', out.fd, err.fd], timeout: timeoutMs });
        child.once('error', reject);
        child.once('exit', (exitCode) => resolve(exitCode));
      });
      if (code !== 0) {
        const said = (await readFile(errFile, 'utf8')).trim().split('\n').filter(Boolean).at(-1) ?? `exit status ${code}`;
        throw new PodmanError(`podman ${args[0]}: ${said}`);
      }
      return await readFile(outFile, 'utf8');
    } finally {
      await err.close();
      await out.close();
      await rm(dir, { recursive: true, force: true });
    }
  }

  async list(): Promise<RunningContainer[]> {
    const out = await this.exec(['ps', '-a', '--filter', this.mine, '--format', 'json']);
    return (JSON.parse(out || '[]') as PsEntry[]).map(fromPs);
  }

  async inspect(id: string): Promise<RunningContainer | undefined> {
    const out = await this.exec(['ps', '-a', '--filter', `id=${id}`, '--format', 'json']);
    const found = (JSON.parse(out || '[]') as PsEntry[])[0];
    return found && fromPs(found);
  }

  hasImage(image: string): Promise<boolean> {
    return this.exists(['image', 'exists', image]);
  }

  /** `podman … exists`: exit status 0 yes, 1 no. */
  private async exists(args: string[]): Promise<boolean> {
    try {
      await this.exec(args);
      return true;
    } catch {
      return false;
    }
  }

  async pull(image: string, source: PullSource | null, always: boolean): Promise<boolean> {
    if (!always && (await this.hasImage(image))) return false;
    const args = ['pull', '--quiet'];
    if (source?.insecure) args.push('--tls-verify=false');
    // Credentials go through a file only this process reads, never on a command line others can see.
    const dir = source?.credentials ? await mkdtemp(join(tmpdir(), 'edgeplane-auth-')) : undefined;
    try {
      if (dir && source?.credentials) {
        const auth = Buffer.from(`${source.credentials.userName}:${source.credentials.password}`).toString('base64');
        const file = join(dir, 'auth.json');
        await writeFile(file, JSON.stringify({ auths: { [source.host]: { auth } } }), { mode: 0o600 });
        args.push('--authfile', file);
      }
      await this.exec([...args, image]);
      return true;
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  }

  async removeImage(image: string): Promise<void> {
    await this.exec(['rmi', image]).catch(() => undefined);
  }

  async ensureNetwork(name: string, labels: Record<string, string>): Promise<void> {
    // `isolate`: the app's bridge cannot reach other apps' bridges. One command: one that exists already is fine.
    await this.exec(['network', 'create', '--opt', 'isolate=true', ...this.labelArgs(labels), name]).catch((error: unknown) => {
      if (!/already (used|exists)/.test((error as Error).message)) throw error;
    });
  }

  /** Fails when the network is still there (a container's cleanup may hold it a moment); one already gone is fine. */
  async removeNetwork(name: string): Promise<void> {
    await this.exec(['network', 'rm', '-f', name]).catch((error: unknown) => {
      if (!/not found|no such network|unknown network/i.test((error as Error).message)) throw error;
    });
  }

  async networksOf(appId: string): Promise<string[]> {
    const out = await this.exec(['network', 'ls', '--filter', this.mine, '--filter', `label=${LABELS.app}=${appId}`, '--format', '{{.Name}}']);
    return out.split('\n').filter(Boolean);
  }

  async ensureVolume(name: string, labels: Record<string, string>): Promise<void> {
    if (await this.exists(['volume', 'exists', name])) return;
    await this.exec(['volume', 'create', ...this.labelArgs(labels), name]);
  }

  async volumesOf(appId: string): Promise<string[]> {
    // `volume ls` takes either of two label filters, not both: this installation's are picked here.
    const out = await this.exec(['volume', 'ls', '--filter', `label=${LABELS.app}=${appId}`, '--format', 'json']);
    const volumes = JSON.parse(out || '[]') as { Name: string; Labels: Record<string, string> | null }[];
    return volumes.filter((v) => v.Labels?.[LABELS.managed] === this.options.installation).map((v) => v.Name);
  }

  async removeVolume(name: string): Promise<void> {
    await this.exec(['volume', 'rm', '-f', name]).catch(() => undefined);
  }

  async run(spec: ContainerSpec): Promise<RunningContainer> {
    const { options } = this;
    const args = options.ociRuntime ? ['--runtime', options.ociRuntime] : [];
    // Created and started in one command (`run --detach`), its output through files (execDetached).
    args.push('run', '--detach', '--name', spec.name, ...this.labelArgs(spec.labels));
    args.push('--network', spec.network, ...spec.aliases.flatMap((a) => ['--network-alias', a]));
    for (const port of spec.ports) args.push('--publish', `127.0.0.1::${port}`);
    args.push('--uidmap', `0:${options.uidBase}:65536`, '--gidmap', `0:${options.uidBase}:65536`);
    args.push('--read-only', '--cap-drop', 'all', '--security-opt', 'no-new-privileges');
    args.push('--memory', `${spec.memoryMb}m`, '--cpus', String(spec.cpus), '--pids-limit', String(spec.pids));
    args.push('--ulimit', `nofile=${options.ulimits.nofile}:${options.ulimits.nofile}`, '--ulimit', `nproc=${options.ulimits.nproc}:${options.ulimits.nproc}`);
    for (const [name, value] of Object.entries(spec.env)) args.push('--env', `${name}=${value}`);
    for (const v of spec.volumes) args.push('--volume', `${v.name}:${v.mountPath}:U`);
    if (spec.workingDirectory) args.push('--workdir', spec.workingDirectory);
    if (spec.entrypoint) args.push('--entrypoint', JSON.stringify(spec.entrypoint));
    args.push(spec.image, ...(spec.args ?? []));
    let id: string;
    try {
      id = (await this.execDetached(args)).trim().split('\n').at(-1) ?? '';
    } catch (error) {
      // A container created but not started is removed: the next pass makes it again.
      await this.remove(spec.name, 0).catch(() => undefined);
      throw error;
    }
    if (!/^[0-9a-f]{12,64}$/.test(id)) throw new PodmanError(`podman run: no container id in its answer ("${id.slice(0, 80)}")`);
    const running = await this.inspect(id);
    if (!running) throw new PodmanError(`podman run: container ${spec.name} vanished after it started`);
    return running;
  }

  async start(id: string): Promise<void> {
    await this.execDetached(['start', id]);
  }

  async restart(id: string, graceSeconds: number): Promise<void> {
    await this.execDetached(['restart', '--time', String(graceSeconds), id], COMMAND_TIMEOUT_MS + graceSeconds * 1000);
  }

  async remove(id: string, graceSeconds: number): Promise<void> {
    await this.exec(['rm', '--force', '--ignore', '--time', String(graceSeconds), id], COMMAND_TIMEOUT_MS + graceSeconds * 1000);
  }

  /**
   * One long-lived `podman events` for the installation's containers: nothing is polled while it
   * runs. Tied to this process (tied-child.ts): it dies with edgeplane, even one killed.
   */
  watch(onEvent: (event: RuntimeEvent) => void, ended: (reason: string) => void): RuntimeWatch {
    let said = '';
    const args = ['events', '--format', 'json', '--filter', 'type=container', '--filter', this.mine];
    const { child, watch } = this.tied(args, ended, () => said.trim().split('\n').at(-1) ?? '');
    child.stderr.on('data', (chunk: Buffer) => {
      said = `${said}${chunk.toString()}`.slice(-2000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const event = eventOf(line);
      if (event) onEvent(event);
    });
    return watch;
  }

  /** From each container's control group (cgroup-cpu.ts); those it cannot be read for, from one `podman stats`. */
  async cpuTimes(containers: readonly RunningContainer[]): Promise<Map<string, number>> {
    const times = new Map<string, number>();
    const rest: string[] = [];
    await Promise.all(
      containers.map(async (c) => {
        const ns = c.pid === null ? undefined : await cgroupCpuNs(c.pid, c.id);
        if (ns !== undefined) times.set(c.id, ns);
        else if (c.state === 'running') rest.push(c.id);
      }),
    );
    if (rest.length > 0) {
      const out = await this.exec(['stats', '--no-stream', '--format', '{{.ContainerID}} {{.CPUNano}}', ...rest]).catch(() => '');
      for (const line of out.split('\n')) {
        const [id, ns] = line.trim().split(' ');
        const full = id && rest.find((r) => r.startsWith(id));
        if (full && ns && /^\d+$/.test(ns)) times.set(full, Number(ns));
      }
    }
    return times;
  }

  /** One `podman logs --follow` (tied to this process, tied-child.ts), each line with its time. */
  follow(id: string, since: number, onLine: (at: number, line: string) => void, ended: (reason: string) => void): RuntimeWatch {
    const { child, watch } = this.tied(['logs', '--follow', '--timestamps', '--since', new Date(since).toISOString(), id], ended);
    const read = (stream: NodeJS.ReadableStream) =>
      createInterface({ input: stream }).on('line', (text) => {
        const { at, line } = timestamped(text);
        onLine(at, line);
      });
    read(child.stdout);
    read(child.stderr);
    return watch;
  }

  /**
   * A long-lived podman command tied to this process (tied-child.ts): its end (it could not start,
   * or exited, with `said()` after the code) is told through `ended` once, unless stopped first.
   */
  private tied(args: string[], ended: (reason: string) => void, said: () => string = () => '') {
    const tied = spawnTied(this.options.binary, args);
    let stopped = false;
    const end = (reason: string) => {
      if (!stopped) ended(reason);
      stopped = true;
    };
    tied.process.once('error', (error) => end(`podman ${args[0]}: ${error.message}`));
    tied.process.once('exit', (code) => end(`podman ${args[0]} exited (${code})${said() ? `: ${said()}` : ''}`));
    const watch: RuntimeWatch = {
      stop: () => {
        stopped = true;
        tied.stop();
      },
    };
    return { child: tied.process, watch };
  }

  async logs(id: string, lines: number): Promise<{ at: number; line: string }[]> {
    const out = await this.exec(['logs', '--timestamps', '--tail', String(lines), id]);
    return out.split('\n').filter(Boolean).map(timestamped);
  }
}

/** A line of `podman logs --timestamps`: its time (0 when it has none), then the container's text. */
function timestamped(text: string): { at: number; line: string } {
  const space = text.indexOf(' ');
  const at = Date.parse(text.slice(0, space));
  return Number.isNaN(at) ? { at: 0, line: text } : { at, line: text.slice(space + 1) };
}

const labelArgs = (labels: Record<string, string>) => Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]);

function eventOf(line: string): RuntimeEvent | undefined {
  try {
    const raw = JSON.parse(line) as {
      ID?: string;
      Name?: string;
      Status?: string;
      Time?: string;
      Attributes?: Record<string, string>;
      ContainerExitCode?: number;
    };
    if (!raw.ID || !raw.Status) return undefined;
    const at = Date.parse(raw.Time ?? '');
    return {
      at: Number.isNaN(at) ? Date.now() : at,
      containerId: raw.ID,
      name: raw.Name ?? raw.ID,
      labels: raw.Attributes ?? {},
      status: raw.Status,
      exitCode: raw.Status === 'died' ? (raw.ContainerExitCode ?? null) : null,
    };
  } catch {
    return undefined;
  }
}

function fromPs(entry: PsEntry): RunningContainer {
  const ports = new Map<number, number>();
  for (const p of entry.Ports ?? []) if (p.protocol === 'tcp') ports.set(p.container_port, p.host_port);
  return {
    id: entry.Id,
    name: entry.Names[0] ?? entry.Id,
    labels: entry.Labels ?? {},
    state: entry.State,
    exitCode: entry.Exited ? entry.ExitCode : null,
    startedAt: entry.StartedAt > 0 ? entry.StartedAt * 1000 : null,
    pid: entry.State === 'running' && entry.Pid ? entry.Pid : null,
    restarts: 0,
    ports,
  };
}
