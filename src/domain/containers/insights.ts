/**
 * What the platform tells about one application beyond its configuration: statistics over a
 * period, a usage summary and an overview of the moment. Everything that follows from stored
 * state is computed from it — instances and regions (from the lifecycle and the timeline), volume
 * space, status, pods and containers. When podman runs the containers, the overview's pods and
 * their containers are those running (running-pods.ts); with the simulation, the stored pods. When
 * podman runs the containers, the instances and CPU charts show, for the periods this instance
 * measured, what ran (usage-history.ts); other periods show the stored history (instances) and 0
 * (CPU). What is not measured (latency, memory, traffic, space used) is 0, and figures that are
 * nullable for want of a measurement are null.
 */
import type {
  ApplicationStatisticsT,
  DataGranularity,
  DeploymentStatus,
  DoubleStatusIndicatorT,
  Grade,
  OverviewContainerT,
  OverviewPodT,
  OverviewRegionT,
  OverviewT,
  PodStatus,
  StatisticsQueryT,
  UsageSummaryT,
} from '../../schemas/container-platform.js';
import type { ApplicationStatus } from '../../schemas/containers.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import { podRegions, regionsOf } from './placement.js';
import type { ContainerAppDoc } from './types.js';
import type { AppEditor } from './editor.js';
import type { AppState } from './lifecycle.js';
import { changesOf, momentAt, timelineOf, type Moment } from './timeline.js';
import { mountingContainers, totalReserved } from './volumes.js';
import { percentOf, runningPods } from './running-pods.js';

const STEP_MS: Record<DataGranularity, number> = { Daily: 86_400_000, Hourly: 3_600_000, Minute: 60_000 };
/** Most points one chart may hold: a day of minutes, a month of hours, or four years of days. */
export const MAX_CHART_POINTS = 1500;

/** `2026-01-01T00:00:00Z`: the start of a period, as chart keys name it. */
const keyOf = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Latency in ms, under 50 good, under 150 fair. */
const latencyGrade = (ms: number): Grade => (ms < 50 ? 'doingGreat' : ms < 150 ? 'notBad' : 'couldBeBetter');
/** A share of a resource used, in percent: under 70 good, under 90 fair. */
const usageGrade = (percent: number): Grade => (percent < 70 ? 'doingGreat' : percent < 90 ? 'notBad' : 'couldBeBetter');
/** Running against wanted: all of them good, some fair, none poor. */
const countGrade = (running: number, wanted: number): Grade => (running >= wanted ? 'doingGreat' : running > 0 ? 'notBad' : 'couldBeBetter');

const measured = (value: number, grade: (v: number) => Grade): DoubleStatusIndicatorT => ({ indicator: value, statusGrade: grade(value) });

/** The status of the application as a region reports it: a suspended application runs nowhere. */
const deploymentStatus = (status: ApplicationStatus): DeploymentStatus => (status === 'suspended' ? 'inactive' : status);

function podStatus(doc: ContainerAppDoc, state: AppState): PodStatus {
  if (state.status === 'active') return 'ready';
  return doc.lifecycle.deployed ? 'scheduled' : 'deleting';
}

interface Period {
  start: number;
  /** The moments inside it (the start first) at which what ran is read. */
  samples: number[];
}

/** The periods of a chart, with the moments to read in each: its start, and every change inside it up to now. */
function periodsOf(fromMs: number, toMs: number, now: number, granularity: DataGranularity, changes: readonly number[]): Period[] {
  const step = STEP_MS[granularity];
  const first = Math.floor(fromMs / step) * step;
  const last = Math.min(toMs, now);
  const periods: Period[] = [];
  let c = 0;
  for (let start = first; start <= last; start += step) {
    const end = Math.min(start + step, now + 1);
    while (c < changes.length && changes[c]! <= start) c++;
    const samples = [start];
    for (let k = c; k < changes.length && changes[k]! < end; k++) samples.push(changes[k]!);
    periods.push({ start, samples });
  }
  return periods;
}

/** The most of `pick` over a period's moments; null when none has a record. */
function most(moments: readonly (Moment | null)[], pick: (m: Moment) => number): number | null {
  let best: number | null = null;
  for (const m of moments) if (m) best = Math.max(best ?? 0, pick(m));
  return best;
}

export class ApplicationInsights {
  constructor(private readonly editor: AppEditor) {}

  async statistics(principal: Principal, appId: string, query: StatisticsQueryT): Promise<ApplicationStatisticsT> {
    const now = this.editor.now();
    const fromMs = Date.parse(query.fromDate);
    const toMs = query.toDate === undefined ? now : Date.parse(query.toDate);
    if (toMs < fromMs) throw errors.validation('toDate', 'toDate must not be before fromDate.');
    const step = STEP_MS[query.granularity];
    const points = Math.floor((Math.min(toMs, now) - Math.floor(fromMs / step) * step) / step) + 1;
    if (points > MAX_CHART_POINTS) {
      throw errors.validation(
        'granularity',
        `The period holds ${points} points at ${query.granularity} granularity; at most ${MAX_CHART_POINTS}: shorten it or choose a coarser granularity.`,
      );
    }
    const { stored } = await this.editor.read(principal.accountId, appId);
    const entries = timelineOf(stored.doc);
    const delayMs = this.editor.delayMs;
    const periods = periodsOf(fromMs, toMs, now, query.granularity, changesOf(entries, delayMs));
    const names = [...new Set(entries.flatMap((e) => Object.keys(e.volumes)))];
    const usage = this.editor.runtime?.measured(appId, step, fromMs, toMs, now);

    const charts: ApplicationStatisticsT = {
      targetLatencyChart: {},
      activeRegionsChart: {},
      latencyChart: {},
      instancesChart: {},
      cpuUsageChart: {},
      ramUsageChart: {},
      trafficChart: {},
      volumesSplitUsageChart: Object.fromEntries(names.map((n) => [n, {}])),
      volumesSplitCapacityChart: Object.fromEntries(names.map((n) => [n, {}])),
      volumesUsageChart: {},
      volumesCapacityChart: {},
    };
    for (const { start, samples } of periods) {
      const key = keyOf(start);
      const moments = samples.map((t) => momentAt(entries, t, delayMs));
      const ran = usage?.get(start);
      charts.instancesChart[key] = ran ? ran.instances : most(moments, (m) => m.instances);
      charts.activeRegionsChart[key] = most(moments, (m) => m.regions);
      charts.volumesCapacityChart[key] = most(moments, (m) => Object.values(m.volumes).reduce((sum, gb) => sum + gb, 0)) ?? 0;
      for (const name of names) {
        charts.volumesSplitCapacityChart[name]![key] = most(moments, (m) => m.volumes[name] ?? 0) ?? 0;
        charts.volumesSplitUsageChart[name]![key] = 0;
      }
      for (const chart of [charts.targetLatencyChart, charts.latencyChart, charts.ramUsageChart, charts.trafficChart, charts.volumesUsageChart]) {
        chart[key] = 0;
      }
      charts.cpuUsageChart[key] = percentOf(ran?.cpu);
    }
    return charts;
  }

  async summary(principal: Principal, appId: string): Promise<UsageSummaryT> {
    const { stored, state } = await this.editor.read(principal.accountId, appId);
    return {
      averageLatency: 0,
      currentLatency: 0,
      totalVolumeSizeInGb: totalReserved(stored.doc),
      monthlyCost: 0,
      latencyChart: this.lastDayOfZeros(),
      status: state.status,
    };
  }

  async overview(principal: Principal, appId: string): Promise<OverviewT> {
    const { stored, state } = await this.editor.read(principal.accountId, appId);
    const doc = stored.doc;
    const regions = this.regionsOverview(appId, doc, state);
    const observed = this.editor.runtime?.observe(appId);
    const running = observed ? regions.reduce((sum, r) => sum + r.pods.filter((p) => p.status !== 'deleting').length, 0) : state.running ? doc.pods.length : 0;
    // Running containers: as many as autoscaling decided, and the CPU they use measured.
    const desired = doc.lifecycle.deployed && doc.containerTemplates.length > 0 ? (observed?.desired ?? doc.autoScaling.min) : 0;
    const cpu = percentOf(observed?.load);
    const activeRegions = regions.filter((r) => r.instances > 0).length;
    return {
      targetLatency: measured(0, latencyGrade),
      currentLatency: measured(0, latencyGrade),
      activeRegions: { indicator: activeRegions, statusGrade: countGrade(activeRegions, Math.min(desired, regions.length)) },
      activeInstances: { indicator: running, statusGrade: countGrade(running, desired) },
      desiredInstances: desired,
      status: state.status,
      averageCPU: measured(cpu, usageGrade),
      averageRAM: measured(0, usageGrade),
      averageVolumesUsage: measured(0, usageGrade),
      regions,
      averageLatency: 0,
      totalVolumeSizeInGb: totalReserved(doc),
      monthlyCost: 0,
      latencyChart: this.lastDayOfZeros(),
    };
  }

  /** The application in each region it is placed in, with the pods running there. */
  private regionsOverview(appId: string, doc: ContainerAppDoc, state: AppState): OverviewRegionT[] {
    const placedIn = podRegions(doc);
    const observed = this.editor.runtime?.observe(appId);
    const mounted = doc.volumes.filter((v) => mountingContainers(doc, v.name).length > 0).map((v) => v.name);
    const pods = observed
      ? runningPods(appId, doc, observed, mounted).map(({ slot, pod }) => ({ pod, region: placedIn[slot] ?? placedIn[0] ?? regionsOf(doc.regionSettings)[0] }))
      : state.running
        ? doc.pods.map((pod, i) => ({ pod: this.podOverview(doc, state, pod.id), region: placedIn[i]! }))
        : [];
    return regionsOf(doc.regionSettings).map((region) => {
      const here = pods.filter((p) => p.region === region).map(({ pod }) => pod);
      return {
        region,
        isRequired: doc.regionSettings.requiredRegionIds.includes(region),
        instances: here.length,
        status: deploymentStatus(state.status),
        averageCPU: here.length === 0 ? 0 : Math.round((here.reduce((sum, p) => sum + p.cpuUsage, 0) / here.length) * 10) / 10,
        averageRAM: 0,
        averageVolumesUsagePercentage: 0,
        requests: 0,
        anycastTraffic: 0,
        pods: here,
      };
    });
  }

  private podOverview(doc: ContainerAppDoc, state: AppState, podId: string): OverviewPodT {
    const status = podStatus(doc, state);
    const mounted = doc.volumes.filter((v) => mountingContainers(doc, v.name).length > 0);
    return {
      name: podId,
      status,
      lastHeartBeat: null,
      outboundTrafficChart: null,
      cpuUsage: 0,
      ramUsage: 0,
      containers: doc.containerTemplates.map(
        (t): OverviewContainerT => ({
          id: `${podId}-${t.id}`,
          name: t.name,
          cpuUsage: 0,
          ramUsage: 0,
          reason: '',
          message: '',
          status: status === 'ready' ? 'ready' : status === 'scheduled' ? 'notStarted' : 'started',
          image: t.image,
          imageDisplay: `${t.imageNamespace}/${t.imageName}:${t.imageTag}`,
          numberOfRestarts: 0,
          exitCode: null,
        }),
      ),
      message: null,
      volumesUtilizationPercentage: Object.fromEntries(mounted.map((v) => [v.name, 0])),
      ephemeralStorageUsageBytes: null,
      ephemeralStorageLimitBytes: null,
      ephemeralStorageUsageRatio: null,
      outboundConnectionsLimit: null,
      outboundConnectionsRejectedDiff: null,
    };
  }

  /** The last 24 hours, hour by hour: nothing measures latency, so every point is 0. */
  private lastDayOfZeros(): Record<string, number> {
    const hour = STEP_MS.Hourly;
    const current = Math.floor(this.editor.now() / hour) * hour;
    const chart: Record<string, number> = {};
    for (let start = current - 23 * hour; start <= current; start += hour) chart[keyOf(start)] = 0;
    return chart;
  }
}
