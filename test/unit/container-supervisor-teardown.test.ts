/**
 * A deleted application's teardown when podman refuses part of it. `podman rm --force` can remove
 * a container yet fail (`unlinkat …/userdata/shm: device or resource busy`, its cleanup still
 * holding the mount): the container is gone from podman's list, so the next pass knows no replica
 * of the application, and its volumes and network were left behind for good. The supervisor runs
 * here over a runtime kept in memory that refuses the way podman did; the rest (the API, the
 * store, the supervisor) is edgeplane's own.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CPU_SPAN } from '../../src/domain/containers/runtime/autoscale.js';
import { ContainerSupervisor } from '../../src/domain/containers/runtime/supervisor.js';
import type { ContainerRuntime, ContainerSpec, RunningContainer, RuntimeEvent } from '../../src/domain/containers/runtime/types.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

/** Containers, networks and volumes in maps; `refuseRemovals` removals remove yet reject, as podman's did. */
class RefusingRuntime implements ContainerRuntime {
  readonly kind = 'podman' as const;
  readonly description = 'in memory';
  readonly containers = new Map<string, RunningContainer>();
  readonly networks = new Map<string, string>();
  readonly volumes = new Map<string, string>();
  refuseRemovals = 0;
  private listener: ((event: RuntimeEvent) => void) | undefined;
  private seq = 0;

  list = async () => [...this.containers.values()];
  inspect = async (id: string) => this.containers.get(id);
  pull = async () => false;
  hasImage = async () => true;
  removeImage = async () => undefined;
  ensureNetwork = async (name: string, labels: Record<string, string>) => void this.networks.set(name, labels['io.edgeplane.app'] ?? '');
  removeNetwork = async (name: string) => void this.networks.delete(name);
  networksOf = async (appId: string) => [...this.networks].filter(([, app]) => app === appId).map(([name]) => name);
  ensureVolume = async (name: string, labels: Record<string, string>) => void this.volumes.set(name, labels['io.edgeplane.app'] ?? '');
  volumesOf = async (appId: string) => [...this.volumes].filter(([, app]) => app === appId).map(([name]) => name);
  removeVolume = async (name: string) => void this.volumes.delete(name);
  async run(spec: ContainerSpec): Promise<RunningContainer> {
    const container = {
      id: `c${++this.seq}`.padEnd(64, '0'),
      name: spec.name,
      labels: spec.labels,
      state: 'running',
      exitCode: null,
      startedAt: Date.now(),
      pid: 1,
      restarts: 0,
      ports: new Map(spec.ports.map((p, i) => [p, 40000 + i])),
    };
    this.containers.set(container.id, container);
    return container;
  }
  start = async () => undefined;
  restart = async () => undefined;
  async remove(id: string): Promise<void> {
    const container = this.containers.get(id);
    this.containers.delete(id);
    if (container) this.listener?.({ at: Date.now(), containerId: id, name: container.name, labels: container.labels, status: 'remove', exitCode: null });
    if (this.refuseRemovals > 0) {
      this.refuseRemovals--;
      throw new Error(`podman rm --force: unlinkat /var/lib/containers/storage/overlay-containers/${id}/userdata/shm: device or resource busy`);
    }
  }
  watch(onEvent: (event: RuntimeEvent) => void) {
    this.listener = onEvent;
    return { stop: () => (this.listener = undefined) };
  }
  cpuTimes = async () => new Map<string, number>();
  follow = () => ({ stop: () => undefined });
  logs = async () => [];
}

describe('a deleted application podman refuses to remove at once', () => {
  let t: TestContext;
  let supervisor: ContainerSupervisor;
  const runtime = new RefusingRuntime();
  const logged: string[] = [];

  beforeEach(async () => {
    t = await createTestApp();
    supervisor = new ContainerSupervisor({
      store: t.store,
      runtime,
      pullSource: async () => null,
      logError: (_error, message) => logged.push(message),
      intervalMs: 60_000,
      probeTickMs: 60_000,
      drainMs: 0,
      anycastAddress: '127.0.0.1',
      scale: { sampleMs: 60_000, upWindowMs: 60_000, downWindowMs: 60_000, ...CPU_SPAN },
      forwarding: { targets: async () => new Map(), addresses: { lookupFor: () => () => undefined, refusal: () => undefined } },
    });
  });
  afterEach(async () => {
    await supervisor.close();
    await t.close();
  });

  it('is torn down whole on a later pass: volumes and network too, the refusal logged once', async () => {
    const created = await t.post('/mc/apps', {
      name: 'web',
      runtimeType: 'shared',
      autoScaling: { min: 2, max: 2 },
      regionSettings: {},
      containerTemplates: [
        {
          name: 'server',
          imageRegistryId: '1',
          imageNamespace: 'team',
          imageName: 'server',
          imageTag: '1',
          endpoints: [{ displayName: 'public', cdn: { portMappings: [{ containerPort: 8080 }] } }],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    supervisor.start();
    await supervisor.soon();
    expect(runtime.containers.size).toBe(2);
    expect(runtime.networks.size).toBe(1);
    expect(runtime.volumes.size).toBe(2);

    runtime.refuseRemovals = 1;
    expect((await t.del(`/mc/apps/${created.body.id}`)).status).toBe(200);
    // The delete's change starts a pass of its own: two more make sure a pass followed the refusal.
    await supervisor.soon();
    await supervisor.soon();
    expect(runtime.refuseRemovals).toBe(0);
    expect({ containers: runtime.containers.size, networks: runtime.networks.size, volumes: runtime.volumes.size }).toEqual({
      containers: 0,
      networks: 0,
      volumes: 0,
    });
    expect(logged.filter((m) => m.includes('could not be removed whole'))).toHaveLength(1);
  });
});
