/** A storage zone's statistics, from what really happened: its files day by day, and what was downloaded. */
import type { StorageZoneEgressStatisticsT, StorageZoneStatisticsT } from '../../schemas/statistics.js';
import type { FileService } from '../files/service.js';
import type { Clock, Principal } from '../principal.js';
import { chartOf, metricChart, periodOf, pointName, total } from '../usage/charts.js';
import type { UsageRecorder } from '../usage/recorder.js';
import type { StorageZoneService } from './service.js';

export interface StatisticsQuery {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  hourly?: boolean | undefined;
}

/** Metrics the planes count per zone (subject `storageZone:<id>`). */
export const EGRESS_METRICS = { http: 'egress.http', s3: 'egress.s3', s3Presigned: 'egress.s3presigned' } as const;

export class StorageZoneStatistics {
  constructor(
    private readonly zones: StorageZoneService,
    private readonly files: FileService,
    private readonly usage: UsageRecorder,
    private readonly clock: Clock,
  ) {}

  async storage(principal: Principal, id: number, query: StatisticsQuery): Promise<StorageZoneStatisticsT> {
    await this.zones.stored(principal, id);
    const period = periodOf(query.dateFrom, query.dateTo, this.clock());
    const days = await this.files.dailyUsage(String(id), period.from, period.to);
    const StorageUsedChart: Record<string, number> = {};
    const FileCountChart: Record<string, number> = {};
    for (const d of days) {
      const point = pointName(new Date(`${d.day}T00:00:00Z`));
      StorageUsedChart[point] = d.bytes;
      FileCountChart[point] = d.files;
    }
    return { StorageUsedChart, FileCountChart };
  }

  async egress(principal: Principal, id: number, query: StatisticsQuery): Promise<StorageZoneEgressStatisticsT> {
    await this.zones.stored(principal, id);
    const period = periodOf(query.dateFrom, query.dateTo, this.clock(), query.hourly ?? false);
    const entries = await this.usage.series(`storageZone:${id}`, Object.values(EGRESS_METRICS), period.from, period.to);
    const http = metricChart(entries, period, EGRESS_METRICS.http);
    const s3 = metricChart(entries, period, EGRESS_METRICS.s3);
    const presigned = metricChart(entries, period, EGRESS_METRICS.s3Presigned);
    const none = chartOf([], period);
    const all = chartOf(entries, period);
    return {
      HttpEgressChart: http,
      S3EgressChart: s3,
      S3PresignedEgressChart: presigned,
      FtpEgressChart: none,
      SftpEgressChart: none,
      TotalEgressChart: all,
      HttpEgressTotal: total(http),
      S3EgressTotal: total(s3),
      S3PresignedEgressTotal: total(presigned),
      FtpEgressTotal: 0,
      SftpEgressTotal: 0,
      TotalEgress: total(all),
    };
  }
}
