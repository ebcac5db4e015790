/**
 * What a video library's transcription and DRM did, per day, from the usage counters of subject
 * `videoLibrary:<id>` (metrics below). Nothing counts them yet — edgeplane stores no videos, so it
 * transcribes nothing and issues no license — so every figure is 0 until a plane that handles
 * videos records them.
 */
import type { DrmStatisticsT, TranscribingStatisticsT } from '../../schemas/video-library-statistics.js';
import type { Clock, Principal } from '../principal.js';
import { chartOf, type Period, total } from '../usage/charts.js';
import type { UsageRecorder } from '../usage/recorder.js';
import type { VideoLibraryService } from './service.js';
import { DAY_MS } from '../durations.js';

export const libraryUsageSubject = (id: number) => `videoLibrary:${id}`;
export const TRANSCRIBED_SECONDS = 'transcribing.seconds';
export const DRM_LICENSES = 'drm.licenses';

const DEFAULT_DAYS = 14;

export interface LibraryStatisticsQuery {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

export class VideoLibraryStatistics {
  constructor(
    private readonly libraries: VideoLibraryService,
    private readonly usage: UsageRecorder,
    private readonly clock: Clock,
  ) {}

  async transcribing(principal: Principal, id: number, query: LibraryStatisticsQuery): Promise<TranscribingStatisticsT> {
    const chart = await this.chart(principal, id, query, TRANSCRIBED_SECONDS);
    return { TotalTranscriptionSeconds: total(chart), TranscriptionSecondsChart: chart };
  }

  async drm(principal: Principal, id: number, query: LibraryStatisticsQuery): Promise<DrmStatisticsT> {
    const chart = await this.chart(principal, id, query, DRM_LICENSES);
    return { TotalLicensesIssued: total(chart), LicensesIssuedChart: chart };
  }

  private async chart(principal: Principal, id: number, query: LibraryStatisticsQuery, metric: string): Promise<Record<string, number>> {
    await this.libraries.get(principal, id);
    const to = query.dateTo ? new Date(query.dateTo) : this.clock();
    const from = query.dateFrom ? new Date(query.dateFrom) : new Date(to.getTime() - DEFAULT_DAYS * DAY_MS);
    const period: Period = { from, to, hourly: false };
    return chartOf(await this.usage.series(libraryUsageSubject(id), [metric], from, to), period);
  }
}
