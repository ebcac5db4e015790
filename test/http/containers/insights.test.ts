/**
 * Statistics, usage summary and overview of an application: computed from its stored state and
 * history; what only running containers could measure is 0 (the simulation runs none), and where
 * a runtime measured what ran (podman's usage history, fed here directly), the instances and CPU
 * charts show that for the periods it measured.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageHistory } from '../../../src/domain/containers/runtime/usage-history.js';
import { ApplicationStatistics, Overview, UsageSummary } from '../../../src/schemas/container-platform.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { createApp, expectSchema, fields400, minimalTemplate } from './fixtures.js';

const DELAY = 5000;

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ jobDelayMs: DELAY });
});
afterEach(async () => {
  await t.close();
});

/** Two pods over DE and NY, a 5 GB volume mounted by `web`, a sidecar. */
const appWithPods = () =>
  createApp(t, {
    autoScaling: { min: 2, max: 4 },
    regionSettings: { allowedRegionIds: ['NY'], requiredRegionIds: ['DE'] },
    volumes: [{ name: 'data', size: 5 }],
    containerTemplates: [
      { ...minimalTemplate(), volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      { ...minimalTemplate(), name: 'sidecar', imageName: 'envoy', imageNamespace: 'proxy', imageTag: 'v1' },
    ],
  });

const HOUR = 3_600_000;
const keys = (chart: Record<string, unknown>) => Object.keys(chart);
const values = (chart: Record<string, unknown>) => Object.values(chart);

describe('GET /mc/apps/{appId}/statistics', () => {
  it('charts the instances and regions that ran and the space reserved, hour by hour, from the history of the application', async () => {
    // Created at 00:00 with two pods; three from 02:00; undeployed at 03:00 (stopped 5 s later); read at 04:00.
    const appId = await appWithPods();
    t.clock.advance(2 * HOUR);
    expect((await t.put(`/mc/apps/${appId}/autoscaling`, { min: 3, max: 4 })).status).toBe(200);
    t.clock.advance(HOUR);
    expect((await t.post(`/mc/apps/${appId}/undeploy`)).status).toBe(200);
    t.clock.advance(HOUR);

    const res = await t.get(`/mc/apps/${appId}/statistics?fromDate=2025-12-31T22:30:00Z&granularity=Hourly`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(ApplicationStatistics, res.body);
    const hours = ['2025-12-31T22:00:00Z', '2025-12-31T23:00:00Z', ...[0, 1, 2, 3, 4].map((h) => `2026-01-01T0${h}:00:00Z`)];
    const stats = res.body;
    expect(keys(stats.instancesChart)).toEqual(hours);
    // null: before the application existed.
    expect(values(stats.instancesChart)).toEqual([null, null, 2, 2, 3, 3, 0]);
    expect(values(stats.activeRegionsChart)).toEqual([null, null, 2, 2, 2, 2, 0]);
    // Instances keep their volume instances while stopped: the space stays reserved.
    expect(values(stats.volumesCapacityChart)).toEqual([0, 0, 10, 10, 15, 15, 15]);
    expect(values(stats.volumesSplitCapacityChart.data)).toEqual([0, 0, 10, 10, 15, 15, 15]);
    for (const chart of ['targetLatencyChart', 'latencyChart', 'cpuUsageChart', 'ramUsageChart', 'trafficChart', 'volumesUsageChart']) {
      expect(stats[chart], chart).toEqual(Object.fromEntries(hours.map((h) => [h, 0])));
    }
    expect(stats.volumesSplitUsageChart).toEqual({ data: Object.fromEntries(hours.map((h) => [h, 0])) });
  });

  it('takes the most of each period: days, and minutes around a change', async () => {
    const appId = await appWithPods();
    t.clock.advance(90_000);
    await t.put(`/mc/apps/${appId}/autoscaling`, { min: 4, max: 4 });
    t.clock.advance(90_000);
    const daily = (await t.get(`/mc/apps/${appId}/statistics?fromDate=2025-12-30T12:00:00Z&granularity=Daily`)).body;
    expect(daily.instancesChart).toEqual({ '2025-12-30T00:00:00Z': null, '2025-12-31T00:00:00Z': null, '2026-01-01T00:00:00Z': 4 });
    const minutes = (await t.get(`/mc/apps/${appId}/statistics?fromDate=2026-01-01T00:00:00Z&toDate=2026-01-01T00:10:00Z&granularity=Minute`)).body;
    // Periods after now have no point yet.
    expect(minutes.instancesChart).toEqual({ '2026-01-01T00:00:00Z': 2, '2026-01-01T00:01:00Z': 4, '2026-01-01T00:02:00Z': 4, '2026-01-01T00:03:00Z': 4 });
  });

  it('charts the instances and CPU a runtime measured for the periods it measured, the stored history and 0 elsewhere', async () => {
    const appId = await appWithPods();
    // What podman's supervisor records at its measures: 01:10 three instances at 50 % of the limit,
    // 01:20 one at 70 %, 02:05 two still starting (no CPU sample).
    const history = new UsageHistory();
    const T0 = t.clock.read().getTime();
    history.record(appId, T0 + HOUR + 600_000, 3, 0.5);
    history.record(appId, T0 + HOUR + 1_200_000, 1, 0.7);
    history.record(appId, T0 + 2 * HOUR + 300_000, 2, undefined);
    t.app.services.appRuntime.measured = (id, stepMs, fromMs, toMs, now) => history.periods(id, stepMs, fromMs, toMs, now);
    t.clock.advance(3 * HOUR);

    const hourly = (await t.get(`/mc/apps/${appId}/statistics?fromDate=2026-01-01T00:00:00Z&granularity=Hourly`)).body;
    expectSchema(ApplicationStatistics, hourly);
    const hours = [0, 1, 2, 3].map((h) => `2026-01-01T0${h}:00:00Z`);
    // 00:00 and 03:00 were not measured: the two pods the application was set to run, and CPU 0.
    expect(hourly.instancesChart).toEqual(Object.fromEntries(hours.map((h, i) => [h, [2, 3, 2, 2][i]])));
    expect(hourly.cpuUsageChart).toEqual(Object.fromEntries(hours.map((h, i) => [h, [0, 60, 0, 0][i]])));
    const daily = (await t.get(`/mc/apps/${appId}/statistics?fromDate=2026-01-01T00:00:00Z&granularity=Daily`)).body;
    expect(daily.instancesChart).toEqual({ '2026-01-01T00:00:00Z': 3 });
    expect(daily.cpuUsageChart).toEqual({ '2026-01-01T00:00:00Z': 60 });
    const minutes = (await t.get(`/mc/apps/${appId}/statistics?fromDate=2026-01-01T01:09:00Z&toDate=2026-01-01T01:11:00Z&granularity=Minute`)).body;
    expect(minutes.instancesChart).toEqual({ '2026-01-01T01:09:00Z': 2, '2026-01-01T01:10:00Z': 3, '2026-01-01T01:11:00Z': 2 });
    expect(minutes.cpuUsageChart).toEqual({ '2026-01-01T01:09:00Z': 0, '2026-01-01T01:10:00Z': 50, '2026-01-01T01:11:00Z': 0 });
  });

  it('ends at toDate, and answers empty charts for a period before the application existed', async () => {
    const appId = await appWithPods();
    t.clock.advance(5 * HOUR);
    const early = (await t.get(`/mc/apps/${appId}/statistics?fromDate=2026-01-01T01:00:00Z&toDate=2026-01-01T02:59:59Z&granularity=Hourly`)).body;
    expect(early.instancesChart).toEqual({ '2026-01-01T01:00:00Z': 2, '2026-01-01T02:00:00Z': 2 });
    const before = (await t.get(`/mc/apps/${appId}/statistics?fromDate=2025-06-01T00:00:00Z&toDate=2025-06-01T00:00:00Z&granularity=Daily`)).body;
    expect(before.instancesChart).toEqual({ '2025-06-01T00:00:00Z': null });
  });

  it.each([
    ['granularity=Hourly', ['fromDate']],
    ['fromDate=2026-01-01T00:00:00Z', ['granularity']],
    ['fromDate=yesterday&granularity=Hourly', ['fromDate']],
    ['fromDate=2026-01-01T00:00:00Z&granularity=Weekly', ['granularity']],
    ['fromDate=2026-01-01T00:00:00Z&toDate=2025-12-31T00:00:00Z&granularity=Hourly', ['toDate']],
    ['fromDate=2025-12-01T00:00:00Z&granularity=Minute', ['granularity']],
    ['fromDate=&granularity=Hourly', ['fromDate']],
  ])('refuses ?%s with a 400 naming %j', async (query, fields) => {
    const appId = await appWithPods();
    expect(fields400(await t.get(`/mc/apps/${appId}/statistics?${query}`))).toEqual(fields);
  });
});

describe('GET /mc/apps/{appId}/summary', () => {
  it('gives the status, the space reserved and a day of latency', async () => {
    const appId = await appWithPods();
    const res = await t.get(`/mc/apps/${appId}/summary`);
    expect(res.status).toBe(200);
    expectSchema(UsageSummary, res.body);
    const hours = Array.from({ length: 24 }, (_, i) => new Date(Date.parse('2025-12-31T01:00:00Z') + i * HOUR).toISOString().replace('.000Z', 'Z'));
    expect(res.body).toEqual({
      averageLatency: 0,
      currentLatency: 0,
      totalVolumeSizeInGb: 10,
      monthlyCost: 0,
      latencyChart: Object.fromEntries(hours.map((h) => [h, 0])),
      status: 'progressing',
    });
    t.clock.advance(DELAY);
    expect((await t.get(`/apps/${appId}/summary`)).body.status).toBe('active');
  });
});

describe('GET /mc/apps/{appId}/overview', () => {
  it('shows each region with its pods and their containers, and grades what runs against what should', async () => {
    const appId = await appWithPods();
    const app = (await t.get(`/mc/apps/${appId}`)).body;
    const [web, sidecar] = app.containerTemplates;
    const podIds: string[] = [...new Set<string>(app.containerInstances.map((i: { podId: string }) => i.podId))];

    const rolling = (await t.get(`/mc/apps/${appId}/overview`)).body;
    expectSchema(Overview, rolling);
    expect(rolling.regions[0].pods[0]).toMatchObject({ status: 'scheduled', containers: [{ status: 'notStarted' }, { status: 'notStarted' }] });

    t.clock.advance(DELAY);
    const res = await t.get(`/mc/apps/${appId}/overview`);
    expect(res.status).toBe(200);
    expectSchema(Overview, res.body);
    const pod = (id: string) => ({
      name: id,
      status: 'ready',
      lastHeartBeat: null,
      outboundTrafficChart: null,
      cpuUsage: 0,
      ramUsage: 0,
      containers: [
        {
          id: `${id}-${web.id}`,
          name: 'web',
          cpuUsage: 0,
          ramUsage: 0,
          reason: '',
          message: '',
          status: 'ready',
          image: web.image,
          imageDisplay: 'library/nginx:1.25-alpine',
          numberOfRestarts: 0,
          exitCode: null,
        },
        expect.objectContaining({ id: `${id}-${sidecar.id}`, name: 'sidecar', imageDisplay: 'proxy/envoy:v1', status: 'ready' }),
      ],
      message: null,
      volumesUtilizationPercentage: { data: 0 },
      ephemeralStorageUsageBytes: null,
      ephemeralStorageLimitBytes: null,
      ephemeralStorageUsageRatio: null,
      outboundConnectionsLimit: null,
      outboundConnectionsRejectedDiff: null,
    });
    const region = (code: string, isRequired: boolean, pods: string[]) => ({
      region: code,
      isRequired,
      instances: pods.length,
      status: 'active',
      averageCPU: 0,
      averageRAM: 0,
      averageVolumesUsagePercentage: 0,
      requests: 0,
      anycastTraffic: 0,
      pods: pods.map(pod),
    });
    const good = (indicator: number) => ({ indicator, statusGrade: 'doingGreat' });
    expect(res.body).toEqual({
      targetLatency: good(0),
      currentLatency: good(0),
      activeRegions: good(2),
      activeInstances: good(2),
      desiredInstances: 2,
      status: 'active',
      averageCPU: good(0),
      averageRAM: good(0),
      averageVolumesUsage: good(0),
      regions: [region('DE', true, [podIds[0]!]), region('NY', false, [podIds[1]!])],
      averageLatency: 0,
      totalVolumeSizeInGb: 10,
      monthlyCost: 0,
      latencyChart: expect.any(Object),
    });
  });

  it('shows pods deleting while the application stops, none once stopped, and none while suspended', async () => {
    const appId = await appWithPods();
    t.clock.advance(DELAY);
    await t.post(`/mc/apps/${appId}/undeploy`);
    const stopping = (await t.get(`/mc/apps/${appId}/overview`)).body;
    expect(stopping.regions[0].pods[0].status).toBe('deleting');
    expect(stopping).toMatchObject({ status: 'progressing', desiredInstances: 0, activeInstances: { indicator: 2 } });
    t.clock.advance(DELAY);
    const stopped = (await t.get(`/mc/apps/${appId}/overview`)).body;
    expect(stopped).toMatchObject({ status: 'inactive', desiredInstances: 0, activeInstances: { indicator: 0, statusGrade: 'doingGreat' } });
    expect(stopped.regions.map((r: { instances: number; status: string }) => [r.instances, r.status])).toEqual([
      [0, 'inactive'],
      [0, 'inactive'],
    ]);

    await t.post(`/mc/apps/${appId}/deploy`);
    t.clock.advance(DELAY);
    await t.store.accounts.setBalance(t.accountId, 0);
    const suspended = (await t.get(`/mc/apps/${appId}/overview`)).body;
    expect(suspended).toMatchObject({ status: 'suspended', desiredInstances: 2, activeInstances: { indicator: 0, statusGrade: 'couldBeBetter' } });
    expect(suspended.regions[0].status).toBe('inactive');
  });
});

describe('insights: who may read them', () => {
  it("answers 404 for an unknown application and another account's; a read-only key reads them", async () => {
    const appId = await appWithPods();
    const other = await t.newAccount();
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const path of ['statistics?fromDate=2026-01-01T00:00:00Z&granularity=Daily', 'summary', 'overview']) {
      expectErrorBody(await t.get(`/mc/apps/nosuchapplication/${path}`), 404, `/mc/apps/nosuchapplication/${path.split('?')[0]}`);
      expectErrorBody(await t.get(`/mc/apps/${appId}/${path}`, other.key), 404);
      expect((await t.get(`/mc/apps/${appId}/${path}`, readOnly)).status).toBe(200);
    }
  });
});
