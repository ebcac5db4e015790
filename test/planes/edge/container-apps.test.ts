/**
 * Container applications run for real (podman): a small HTTP server image, pushed to a local
 * registry that asks for a password (the registry's stored credentials pull it), deployed through `POST /mc/apps` with a CDN endpoint; its pull zone reaches it through
 * the edge, its anycast endpoint on the configured address; the overview shows the pods podman
 * runs; its output goes to its log forwarding's syslog collector; CPU load scales it up and idleness back down, and its statistics chart the CPU and instances measured; it scales 1 → 3 with traffic spread; a failing liveness probe restarts it; a change
 * rolls without a failed request; a restarted edgeplane adopts its containers; a delete leaves
 * nothing behind. One deployment, exercised in turn. Skipped, saying why, where podman cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../../src/domain/containers/runtime/app-runtime.js';
import { createTestApp, TestClock, type TestContext } from '../../helpers/app.js';
import { execFile } from 'node:child_process';
import { get } from 'node:http';
import { promisify } from 'node:util';
import { freePort, type LocalRegistry, managedLeftovers, podmanUnavailable, startRegistryWithImage, testTemplate } from '../../helpers/container-image.js';
import { type EdgePlane, startEdgePlane } from '../../helpers/edge-plane.js';
import { startSyslogReceiver } from '../../helpers/syslog-receiver.js';

const unavailable = await podmanUnavailable();

/** The API's clock on real time, as the supervisor's is: the charts read what it measured, when it measured it. */
class RealTime extends TestClock {
  override read = (): Date => new Date();
}

/** Polls `check` every 100 ms until it returns a value, for at most `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Each podman command takes most of a second on a busy machine: generous limits, rarely reached.
describe.skipIf(unavailable !== undefined)(`container apps on podman${unavailable ? ` (skipped: ${unavailable})` : ''}`, { timeout: 90_000 }, () => {
  let t: TestContext;
  let edge: EdgePlane;
  let registry: LocalRegistry;
  let runtime: AppRuntime;
  let appId: string;
  let publicHost: string;
  let zoneId: number;
  let seq = 0;
  let anycastPort: number;

  const status = async () => (await t.get(`/mc/apps/${appId}`)).body.status as string;
  const active = () => until('the application to be active', async () => ((await status()) === 'active' ? true : undefined));
  /** A fresh path each time, so no answer comes from the edge's cache. */
  const ask = () => edge.get(publicHost, `/n${seq++}`);
  /** The anycast endpoint's port on the loopback address, straight to a replica. */
  const askAnycast = () =>
    new Promise<string>((resolve, reject) => {
      get(`http://127.0.0.1:${anycastPort}/anycast`, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(text));
      }).once('error', reject);
    });
  const overviewPods = async () => {
    const regions = (await t.get(`/mc/apps/${appId}/overview`)).body.regions as {
      pods: { status: string; containers: { status: string; numberOfRestarts: number }[] }[];
    }[];
    return regions.flatMap((r) => r.pods);
  };

  beforeAll(async () => {
    // The image is compiled and pushed while the app starts.
    [t, registry] = await Promise.all([
      // Autoscaling's windows short: a sample each 0.5 s (the shortest allowed), up after 1 s above
      // the span, down after 1 s below it.
      createTestApp(
        {
          containerRuntime: 'podman',
          containerReconcileMs: 1000,
          containerDrainMs: 300,
          containerScaleSampleMs: 500,
          containerScaleUpMs: 1000,
          containerScaleDownMs: 1000,
        },
        { clock: new RealTime() },
      ),
      // A registry that lets only its user in: the app's pulls use the registry's stored credentials.
      startRegistryWithImage('1', { userName: 'team', password: `pw-${Math.random().toString(36).slice(2)}` }),
    ]);
    edge = await startEdgePlane(t);
    runtime = t.app.services.appRuntime;
    runtime.start();
  });

  afterAll(async () => {
    await edge?.close();
    await t?.close();
    await registry?.close();
  });

  it('deploys a template from the registry; its CDN endpoint gets a pull zone that reaches it through the edge, its anycast endpoint listens', async () => {
    anycastPort = await freePort();
    expect(runtime.kind).toBe('podman');
    expect((await t.get('/_edgeplane/health', null)).body.containers).toEqual({ runtime: 'podman', description: runtime.description });
    const reg = await t.post('/mc/registries', {
      displayName: 'local',
      type: 'vendorRegistry',
      hostName: `http://${registry.host}`,
      passwordCredentials: registry.credentials,
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    // The image cannot be had without them.
    await expect(promisify(execFile)('podman', ['pull', '--tls-verify=false', `${registry.host}/team/http-server:1`], { timeout: 30_000 })).rejects.toThrow(
      /unauthorized|authentication required/i,
    );
    const probe = {
      initialDelaySeconds: 1,
      periodSeconds: 1,
      timeoutSeconds: 1,
      failureThreshold: 1,
      httpGet: { request: { path: '/healthz', portNumber: 8080 } },
    };
    const created = await t.post('/mc/apps', {
      name: 'web',
      runtimeType: 'shared',
      autoScaling: { min: 1, max: 3 },
      regionSettings: {},
      terminationGracePeriodSeconds: 1,
      containerTemplates: [
        testTemplate(reg.body.id, registry, {
          environmentVariables: [{ name: 'GREETING', value: 'hello' }],
          probes: { readiness: probe, liveness: probe },
          endpoints: [
            { displayName: 'public', cdn: { portMappings: [{ containerPort: 8080 }] } },
            { displayName: 'direct', anycast: { type: 'iPv4', portMappings: [{ containerPort: 8080, exposedPort: anycastPort }] } },
          ],
        }),
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    appId = created.body.id;
    const [endpoint, anycast] = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].endpoints;
    // The anycast endpoint's address is the one its port listens on (EDGEPLANE_CONTAINER_ANYCAST_ADDRESS).
    expect(anycast.publicIpAddresses.map((a: { address: string }) => a.address)).toEqual(anycast.publicIpAddresses.map(() => '127.0.0.1'));
    expect(anycast.publicIpAddresses.length).toBeGreaterThan(0);
    expect(endpoint.pullZoneId).toMatch(/^\d+$/);
    publicHost = endpoint.publicHost;
    zoneId = Number(endpoint.pullZoneId);
    const zone = (await t.get(`/pullzone/${zoneId}`)).body;
    expect(zone).toMatchObject({ OriginType: 5, ManagedContainersAppId: appId, ManagedContainersEndpointId: endpoint.id });
    expect(zone.Hostnames.map((h: { Value: string }) => h.Value)).toEqual([`app-${endpoint.id}.${t.config.cdnDomain}`, publicHost]);

    await active();
    const answer = await ask();
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/^hello from [0-9a-f]{12}$/);
    expect((await edge.get(`app-${endpoint.id}.${t.config.cdnDomain}`, '/system-host')).text).toBe(answer.text);
    const containers = (await managedLeftovers(appId)).containers;
    expect(containers).toHaveLength(1);
    expect(await askAnycast()).toBe(answer.text);
    // The overview's pods are podman's: one, its container ready.
    expect(await overviewPods()).toMatchObject([{ status: 'ready', containers: [{ status: 'ready', numberOfRestarts: 0 }] }]);
  });

  it("forwards the containers' output to the application's log forwarding collector", async () => {
    const receiver = await startSyslogReceiver('tcp');
    try {
      const forwarding = { app: appId, type: 'SyslogTcp', endpoint: '127.0.0.1', port: receiver.port, format: 'SyslogRfc5424', enabled: true, token: 'tk"1' };
      expect((await t.post('/mc/log/forwarding', forwarding)).status).toBe(201);
      await runtime.settled();
      // The follow starts with the pass: lines said from then on arrive.
      const said = await until(
        'a forwarded line',
        async () => {
          expect((await edge.get(publicHost, `/say/hi-${seq++}`)).status).toBe(200);
          return receiver.messages.find((m) => m.includes('said hi-'));
        },
        15_000,
      );
      expect(said).toMatch(/^<134>1 \S+Z - - - - \[edgeplane@32473 token="tk\\"1"\] \{"log":"said hi-\d+","time":"[^"]+Z","container":"ep-[a-z0-9]+-/);
      // Off: nothing more is sent.
      expect((await t.put(`/mc/log/forwarding/${appId}`, { ...forwarding, enabled: false })).status).toBe(200);
      await runtime.settled();
      const before = receiver.messages.length;
      await edge.get(publicHost, `/say/late-${seq++}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.messages.slice(before)).toEqual([]);
      expect((await t.del(`/mc/log/forwarding/${appId}`)).status).toBe(204);
    } finally {
      await receiver.stop();
    }
  });

  it('scales up on CPU load and back down to min once idle', async () => {
    const observed = () => runtime.observe(appId);
    expect(observed()?.desired).toBe(1);
    // Four clients asking for 100 ms of CPU each, over and over: the one replica's 0.5 CPU is spent.
    let loaded = true;
    const failed: number[] = [];
    const clients = Array.from({ length: 4 }, async () => {
      while (loaded) {
        const a = await edge.get(publicHost, `/burn/${seq++}`);
        if (a.status !== 200) failed.push(a.status);
      }
    });
    try {
      await until('a scale up', async () => ((observed()?.desired ?? 0) > 1 ? true : undefined), 20_000);
      const overview = (await t.get(`/mc/apps/${appId}/overview`)).body;
      expect(overview.averageCPU.indicator).toBeGreaterThan(80);
      expect(overview.desiredInstances).toBeGreaterThan(1);
      await active();
      expect((await managedLeftovers(appId)).containers.length).toBe(observed()?.desired);
      // The statistics chart what was measured: the load's CPU, and the instances it scaled to.
      const fromDate = new Date(Date.now() - 5 * 60_000).toISOString();
      const peaks = async () => {
        const stats = (await t.get(`/mc/apps/${appId}/statistics?fromDate=${fromDate}&granularity=Minute`)).body;
        const peak = (chart: Record<string, number | null>) => Math.max(...Object.values(chart).map(Number));
        return { cpu: peak(stats.cpuUsageChart), instances: peak(stats.instancesChart) };
      };
      const charted = await until(
        'the charts to show the scale up',
        async () => {
          const p = await peaks();
          return p.instances > 1 ? p : undefined;
        },
        2000,
      );
      expect(charted.cpu).toBeGreaterThan(0);
    } finally {
      loaded = false;
      await Promise.all(clients);
    }
    expect(failed).toEqual([]);
    expect(observed()?.events.find((e) => e.reason === 'scaled')?.message).toMatch(/^scaled from 1 to [23] replicas: CPU \d+% of the limit/);
    // Idle: back to one replica once the down window has passed, its container stopped.
    await until('a scale down', async () => (observed()?.desired === 1 ? true : undefined), 20_000);
    await active();
    await until('the scaled-away containers to go', async () => ((await managedLeftovers(appId)).containers.length === 1 ? true : undefined));
    expect(observed()?.events.some((e) => e.reason === 'scaled' && /to 1 replicas: CPU \d+% of the limit for 1 s \(below 30%\)/.test(e.message))).toBe(true);
  });

  it('scales 1 → 3 and spreads requests over the replicas', async () => {
    expect((await t.put(`/mc/apps/${appId}/autoscaling`, { min: 3, max: 3 })).status).toBe(200);
    await active();
    const answers = await Promise.all(Array.from({ length: 9 }, () => ask()));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.text)).size).toBe(3);
    const direct = await Promise.all(Array.from({ length: 6 }, () => askAnycast()));
    expect(new Set(direct).size).toBe(3);
    expect((await overviewPods()).map((p) => p.status)).toEqual(['ready', 'ready', 'ready']);
  });

  it('restarts a container whose liveness probe fails', async () => {
    // One replica at once (with max 3 the idle three would go only after the down window).
    expect((await t.put(`/mc/apps/${appId}/autoscaling`, { min: 1, max: 1 })).status).toBe(200);
    await active();
    expect((await ask()).text).toMatch(/^hello/);
    expect((await edge.get(publicHost, '/sick')).status).toBe(200);
    await until('a restart', async () => (runtime.observe(appId)?.replicas.some((r) => r.restarts > 0) ? true : undefined), 10_000);
    await active();
    expect((await ask()).status).toBe(200);
    // podman's events and the supervisor's own: the probe's verdict, the container's death and new start.
    const reasons = runtime.observe(appId)?.events.map((e) => e.reason) ?? [];
    expect(reasons).toEqual(expect.arrayContaining(['unhealthy', 'died', 'start']));
    expect((await overviewPods())[0]?.containers[0]?.numberOfRestarts).toBe(1);
  });

  it('rolls a changed template new before old, without a failed request', async () => {
    const templateId = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].id;
    const statuses: number[] = [];
    let rolled = false;
    const load = (async () => {
      while (!rolled) {
        const a = await ask();
        statuses.push(a.status);
        if (a.text.startsWith('bonjour')) rolled = true;
      }
    })();
    expect((await t.put(`/mc/apps/${appId}/containers/${templateId}/env`, { GREETING: 'bonjour' })).status).toBe(200);
    await load;
    await active();
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // The old container is stopped after its drain.
    await until('the old container to go', async () => ((await managedLeftovers(appId)).containers.length === 1 ? true : undefined));
  });

  it('adopts its containers after a restart of edgeplane, without duplicating them', async () => {
    const before = (await managedLeftovers(appId)).containers;
    await edge.close();
    await t.restart();
    runtime = t.app.services.appRuntime;
    runtime.start();
    await runtime.settled();
    edge = await startEdgePlane(t);
    await active();
    expect((await managedLeftovers(appId)).containers).toEqual(before);
    expect((await ask()).text).toMatch(/^bonjour/);
  });

  it('deletes the application with its containers, network, volumes, pull zone and measures', async () => {
    const measures = () => runtime.measured(appId, 60_000, Date.now() - 3_600_000, Date.now(), Date.now())?.size ?? 0;
    await until('a measure', async () => (measures() > 0 ? true : undefined), 2000);
    expect((await t.del(`/mc/apps/${appId}`)).status).toBe(200);
    expect((await t.get(`/pullzone/${zoneId}`)).status).toBe(404);
    await runtime.settled();
    // A network a container's cleanup still holds is removed on a later pass (one a second here;
    // on a loaded machine each podman command of a pass takes up to a second or two).
    const empty = JSON.stringify({ containers: [], volumes: [], networks: [] });
    let left = '';
    await until(
      'nothing left',
      async () => {
        left = JSON.stringify(await managedLeftovers(appId));
        return left === empty ? true : undefined;
      },
      30_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${left}`);
    });
    await expect(askAnycast()).rejects.toThrow(/ECONNREFUSED/);
    expect(measures()).toBe(0);
  });
});
