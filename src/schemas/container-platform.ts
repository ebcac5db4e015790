/**
 * What the container API tells about the platform around an account's applications: the account's
 * limits, the nodes its instances run on and the regions they can run in; and what it tells about
 * one application over time: its statistics, usage summary and overview. Shapes of the platform's
 * reference models, in the container API's camelCase.
 */
import { Type, type Static } from 'typebox';
import { APPLICATION_STATUSES } from './containers.js';
import { DateTime, Double, Int32, Int64, Nullable, StringEnum } from './common.js';
import { CursorPage, cursorField, cursorPageQuery } from './paging.js';

const closed = { additionalProperties: false } as const;

/** Query of the container API's cursor-paged lists (nodes, regions). */
export const CursorPageQuery = cursorPageQuery('items');

// ---------------------------------------------------------------------------------------------
// Limits

export const UserLimits = Type.Object(
  {
    maxNumberOfApplications: Int32({ description: 'Most applications the account may have.' }),
    existingNumberOfApplications: Int32({ minimum: 0, description: 'Applications the account has now.' }),
    maxNumberOfRegionsPerApplication: Nullable(Int32(), { description: 'Most regions one application may run in; null when only the region list bounds it.' }),
    maxNumberOfInstancesPerRegion: Int32({ description: 'Most instances of one application in one region.' }),
    maxNumberOfInstancesPerApplication: Nullable(Int32(), { description: 'Most instances of one application (its `autoScaling.max`).' }),
    maxNumberOfVolumesPerApplication: Int32({ description: 'Most persistent volumes of one application.' }),
    maxVolumeSize: Nullable(Int32(), { description: 'Largest persistent volume, in GB.' }),
  },
  { ...closed, description: "The account's container limits, and how much of them it uses." },
);

// ---------------------------------------------------------------------------------------------
// Nodes

export const ListNodesResponse = CursorPage(
  Type.Array(Type.String(), { description: 'IP addresses of the nodes, in address order.' }),
  cursorField('nodes'),
  "One page of the nodes the account's instances run on.",
);

export const NodeAddresses = Type.Array(Type.String(), { description: "IP addresses of the nodes the account's instances run on, in address order." });

// ---------------------------------------------------------------------------------------------
// Regions

export const Region = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Code of the region, as application region settings name it.' }),
    name: Type.String({ minLength: 1, description: 'City the region is in.' }),
    group: Type.String({ minLength: 1, description: 'Continent group of the region.' }),
    hasAnycastSupport: Type.Boolean({ description: 'True when anycast endpoints can be announced from the region.' }),
    hasCapacity: Type.Boolean({ description: 'True when new instances can be placed in the region.' }),
  },
  { ...closed, description: 'A region applications can run in.' },
);

export const ListRegionsResponse = CursorPage(
  Type.Array(Region, { description: 'Regions, by group and name.' }),
  cursorField('regions'),
  'One page of the regions applications can run in.',
);

export const OptimalRegionQuery = Type.Object({
  cdnServerToken: Type.Optional(
    Type.String({ description: 'Token of the delivery server nearest the user; a region code picks that region, anything else the default.' }),
  ),
});

export const OptimalBaseRegionResponse = Type.Object({ region: Region }, { ...closed, description: 'The region to base a new application in.' });

// ---------------------------------------------------------------------------------------------
// Statistics of one application

export const DATA_GRANULARITIES = ['Daily', 'Hourly', 'Minute'] as const;
export type DataGranularity = (typeof DATA_GRANULARITIES)[number];

export const StatisticsQuery = Type.Object({
  fromDate: Type.String({ format: 'date-time', description: 'Start of the period; rounded down to the granularity.' }),
  toDate: Type.Optional(Type.String({ format: 'date-time', description: 'End of the period (default: now); periods after now have no point.' })),
  granularity: StringEnum(DATA_GRANULARITIES, { description: 'One point per day, hour or minute.' }),
});

/** `{"2026-01-01T00:00:00Z": 0, …}`: one point per period, keyed by the period's start, oldest first. */
const MeasuredChart = (description: string) => Type.Record(Type.String(), Double(), { description });
const CountChart = (description: string) => Type.Record(Type.String(), Nullable(Int64()), { description });
const SplitChart = (description: string) => Type.Record(Type.String(), Type.Record(Type.String(), Double()), { description });

const NOT_MEASURED = 'edgeplane keeps no history of it: 0 at every point.';
/** Where the instances and CPU charts come from measurements (usage-history.ts), and where not. */
const MEASURED_HERE =
  'When containers run (podman), a period the answering instance measured shows what ran (measurements are kept in memory by the instance running the containers: minutes for the last 24 hours, hours for the last 32 days; lost at a restart)';
/** CPU as the podman runtime measures it for autoscaling. */
const CPU_MEASURED =
  'CPU used at the last measure, in percent of the CPU limit of the runtime type: measured when containers run (podman); 0 with the simulation.';

export const ApplicationStatistics = Type.Object(
  {
    targetLatencyChart: MeasuredChart(`Latency the application aims for, in ms. ${NOT_MEASURED}`),
    activeRegionsChart: CountChart('Regions with a running instance, the most in each period; null before the application existed.'),
    latencyChart: MeasuredChart(`Average latency of requests, in ms. ${NOT_MEASURED}`),
    instancesChart: CountChart(
      `Running instances, the most in each period. ${MEASURED_HERE}: pods with a container running, the most at any measure. Other periods, and every period with the simulation: the instances the application was set to run; null before the application existed.`,
    ),
    cpuUsageChart: MeasuredChart(
      `CPU used, in percent of the CPU limit of the runtime type (as the overview's averageCPU). ${MEASURED_HERE}: the mean of the load samples taken in the period (the busiest template's replicas, on average). Other periods, periods whose replicas were all starting, and every period with the simulation: 0.`,
    ),
    ramUsageChart: MeasuredChart(`Memory used, in percent. ${NOT_MEASURED}`),
    trafficChart: MeasuredChart(`Bytes served. ${NOT_MEASURED}`),
    volumesSplitUsageChart: SplitChart(`Space used per volume (by name), in GB. ${NOT_MEASURED}`),
    volumesSplitCapacityChart: SplitChart('Space reserved per volume (by name) over all its instances, in GB, the most in each period.'),
    volumesUsageChart: MeasuredChart(`Space used over all volumes, in GB. ${NOT_MEASURED}`),
    volumesCapacityChart: MeasuredChart('Space reserved by all volume instances, in GB, the most in each period; 0 before the application existed.'),
  },
  { ...closed, description: 'Charts of an application over a period.' },
);

export const UsageSummary = Type.Object(
  {
    averageLatency: Double({ description: `Average latency over the last day, in ms. ${NOT_MEASURED}` }),
    currentLatency: Double({ description: `Latency now, in ms. ${NOT_MEASURED}` }),
    totalVolumeSizeInGb: Double({ description: 'Space reserved by all volume instances, in GB.' }),
    monthlyCost: Double({ description: 'What the application costs a month; edgeplane charges nothing for containers, so 0.' }),
    latencyChart: MeasuredChart(`Latency over the last 24 hours, hour by hour, in ms. ${NOT_MEASURED}`),
    status: StringEnum(APPLICATION_STATUSES, { description: 'Overall state of the application.' }),
  },
  { ...closed, description: 'Usage of an application.' },
);

export const GRADES = ['couldBeBetter', 'notBad', 'doingGreat'] as const;
export type Grade = (typeof GRADES)[number];
export const DEPLOYMENT_STATUSES = ['unknown', 'active', 'progressing', 'inactive', 'failing'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];
export const POD_STATUSES = ['notScheduled', 'scheduled', 'ready', 'deleting'] as const;
export type PodStatus = (typeof POD_STATUSES)[number];
export const CONTAINER_STATUSES = ['notStarted', 'started', 'ready'] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

const grade = StringEnum(GRADES, { description: 'How good the figure is.' });

export const DoubleStatusIndicator = Type.Object(
  { indicator: Double({ description: 'The figure.' }), statusGrade: grade },
  { ...closed, description: 'A figure with its grade.' },
);

export const Int32StatusIndicator = Type.Object(
  { indicator: Int32({ description: 'The figure.' }), statusGrade: grade },
  { ...closed, description: 'A count with its grade.' },
);

export const OverviewContainer = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the running container (as in `containerInstances`).' }),
    name: Type.String({ minLength: 1, description: 'Name of its container template.' }),
    cpuUsage: Double({ description: CPU_MEASURED }),
    ramUsage: Double({ description: `Memory used, in percent. ${NOT_MEASURED}` }),
    reason: Type.String({ description: 'Why the container is in its state; empty when nothing is wrong.' }),
    message: Type.String({ description: 'What the runtime last said about the container; empty when nothing is wrong.' }),
    status: StringEnum(CONTAINER_STATUSES, { description: 'Started while its pod is being rolled out or stopped, ready once it serves.' }),
    image: Nullable(Type.String(), { description: 'Full image reference it runs.' }),
    imageDisplay: Nullable(Type.String(), { description: 'The image as `namespace/name:tag`.' }),
    numberOfRestarts: Nullable(Int32(), { description: 'Restarts of the container in its pod; a restart replaces pods, so always 0.' }),
    exitCode: Nullable(Int32(), { description: 'Exit code of its last run; null, as none has ended.' }),
  },
  { ...closed, description: 'A container of a pod.' },
);

export const OverviewPod = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Identifier of the pod (as `podId` in `containerInstances`).' }),
    status: StringEnum(POD_STATUSES, { description: 'Scheduled while rolled out, ready once it serves, deleting while it stops.' }),
    lastHeartBeat: Nullable(DateTime(), { description: 'When the pod last reported; null, as nothing runs to report.' }),
    outboundTrafficChart: Nullable(Type.Record(Type.String(), Nullable(Int64())), { description: 'Bytes sent out; null, as nothing is measured.' }),
    cpuUsage: Double({ description: CPU_MEASURED }),
    ramUsage: Double({ description: `Memory used, in percent. ${NOT_MEASURED}` }),
    containers: Type.Array(OverviewContainer, { description: 'Containers of the pod.' }),
    message: Nullable(Type.String(), { description: 'What the scheduler last said about the pod; null when nothing is wrong.' }),
    volumesUtilizationPercentage: Type.Record(Type.String(), Double(), { description: `Space used per mounted volume (by name), in percent. ${NOT_MEASURED}` }),
    ephemeralStorageUsageBytes: Nullable(Int64(), { description: 'Scratch space used; null, as nothing is measured.' }),
    ephemeralStorageLimitBytes: Nullable(Int64(), { description: 'Scratch space allowed; null, as edgeplane sets no limit.' }),
    ephemeralStorageUsageRatio: Nullable(Double(), { description: 'Scratch space used over allowed; null, as nothing is measured.' }),
    outboundConnectionsLimit: Nullable(Int32(), { description: 'Most outgoing connections; null, as edgeplane sets no limit.' }),
    outboundConnectionsRejectedDiff: Nullable(Int64(), { description: 'Outgoing connections refused lately; null, as nothing is measured.' }),
  },
  { ...closed, description: 'A running pod: one instance of the application.' },
);

export const OverviewRegion = Type.Object(
  {
    region: Type.String({ minLength: 1, description: 'Code of the region.' }),
    isRequired: Type.Boolean({ description: 'True when the region settings require it.' }),
    instances: Int32({ minimum: 0, description: 'Instances running in the region.' }),
    status: StringEnum(DEPLOYMENT_STATUSES, { description: 'State of the application in the region.' }),
    averageCPU: Double({ description: CPU_MEASURED }),
    averageRAM: Double({ description: `Memory used, in percent. ${NOT_MEASURED}` }),
    averageVolumesUsagePercentage: Double({ description: `Volume space used, in percent. ${NOT_MEASURED}` }),
    requests: Double({ description: `Requests served. ${NOT_MEASURED}` }),
    anycastTraffic: Double({ description: `Bytes served through anycast endpoints. ${NOT_MEASURED}` }),
    pods: Type.Array(OverviewPod, { description: 'Pods running in the region.' }),
  },
  { ...closed, description: 'The application in one of its regions.' },
);

export const Overview = Type.Object(
  {
    targetLatency: DoubleStatusIndicator,
    currentLatency: DoubleStatusIndicator,
    activeRegions: Int32StatusIndicator,
    activeInstances: Int32StatusIndicator,
    desiredInstances: Int32({
      minimum: 0,
      description:
        'Instances the application should run while deployed, else 0: with podman, what autoscaling decided on the load (between `autoScaling.min` and `max`); with the simulation, `autoScaling.min`.',
    }),
    status: StringEnum(APPLICATION_STATUSES, { description: 'Overall state of the application.' }),
    averageCPU: DoubleStatusIndicator,
    averageRAM: DoubleStatusIndicator,
    averageVolumesUsage: DoubleStatusIndicator,
    regions: Type.Array(OverviewRegion, { description: 'The regions the application is placed in.' }),
    averageLatency: Double({ description: `Average latency over the last day, in ms. ${NOT_MEASURED}` }),
    totalVolumeSizeInGb: Double({ description: 'Space reserved by all volume instances, in GB.' }),
    monthlyCost: Double({ description: 'What the application costs a month; edgeplane charges nothing for containers, so 0.' }),
    latencyChart: MeasuredChart(`Latency over the last 24 hours, hour by hour, in ms. ${NOT_MEASURED}`),
  },
  { ...closed, description: 'The state of an application at a glance.' },
);

export type UserLimitsT = Static<typeof UserLimits>;
export type ListNodesResponseT = Static<typeof ListNodesResponse>;
export type RegionT = Static<typeof Region>;
export type ListRegionsResponseT = Static<typeof ListRegionsResponse>;
export type StatisticsQueryT = Static<typeof StatisticsQuery>;
export type ApplicationStatisticsT = Static<typeof ApplicationStatistics>;
export type UsageSummaryT = Static<typeof UsageSummary>;
export type OverviewT = Static<typeof Overview>;
export type OverviewRegionT = Static<typeof OverviewRegion>;
export type OverviewPodT = Static<typeof OverviewPod>;
export type OverviewContainerT = Static<typeof OverviewContainer>;
export type DoubleStatusIndicatorT = Static<typeof DoubleStatusIndicator>;
