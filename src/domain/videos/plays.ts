/**
 * The figures of a library's videos from what its pull zone really served: a 2xx answer for a
 * video's master playlist (or its MP4 fallback from the first byte) is a view, each media segment
 * served adds its seconds to the watch time and one to its count (the heatmap: segment index to
 * intensity, 100 for the most served segment, as the reference describes it).
 *
 * The edge only adds to memory (`served`, never waiting for the store); a flush every second
 * checks each video (it is the zone's library's, its length cuts the last segment) and writes, in
 * one transaction, its totals on the video (`views`, `totalWatchTime`, `averageWatchTime`) and the
 * hourly counters of the video and of its library, which the statistics and the heatmap read. So
 * the counts of every instance add up in the store; a crash loses at most the last second.
 */
import { HLS_SEGMENT_SECONDS } from '../../media/video-encoders.js';
import type { HeatmapT, VideoStatisticsT } from '../../schemas/video-reports.js';
import type { Store, StoreTx, UsageEntry } from '../../store/types.js';
import { locateToken } from '../edge/policy/token/locate.js';
import type { ServedEvent } from '../edge/types.js';
import type { Clock } from '../principal.js';
import { metricChart, periodOf, total } from '../usage/charts.js';
import { hourOf } from '../usage/recorder.js';
import { OFFERED_SECONDS, segmentMetric, VIEWS, videoSubject, WATCHED_SECONDS } from '../usage/video-metrics.js';
import { libraryUsageSubject } from '../video-libraries/statistics.js';
import { playedFile, segmentSeconds } from './played-files.js';
import type { VideoService } from './service.js';
import type { LibraryAccess, VideoDoc } from './types.js';

const FLUSH_MS = 1000;
/** Videos with counts waiting for a flush beyond which new ones are dropped (counted): a store that is down must not eat the memory. */
const MAX_PENDING_VIDEOS = 10_000;
/** Every hour there is: the totals and the heatmap add up a video's whole life. */
const ALL_HOURS = { from: 0, to: Number.MAX_SAFE_INTEGER };
const CHART_METRICS = [VIEWS, WATCHED_SECONDS, OFFERED_SECONDS];

/** One hour of a video's playback: views started, and how often each segment was served. */
interface HourPlays {
  views: number;
  segments: Map<number, number>;
}

interface PendingVideo {
  libraryId: number;
  accountId: number;
  guid: string;
  hours: Map<number, HourPlays>;
}

export interface StatisticsQuery {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  hourly: boolean;
  videoGuid?: string | null | undefined;
}

export class VideoPlays {
  private pending = new Map<string, PendingVideo>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Counts dropped because the store could not take them fast enough. */
  dropped = 0;

  constructor(
    private readonly store: Store,
    private readonly videos: VideoService,
    private readonly clock: Clock,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => {}), FLUSH_MS);
    this.timer.unref();
  }

  /** Counts an answer of a video library's pull zone: memory only, and it never throws into the request. */
  served(event: ServedEvent): void {
    const { request } = event;
    if (request.method !== 'GET' || event.status < 200 || event.status >= 300) return;
    // A directory token in the path (`/bcdn_token=…/{guid}/…`) is not part of the file's path.
    const path = request.path.startsWith('/bcdn_token=') ? (locateToken(request)?.path ?? request.path) : request.path;
    const played = playedFile(path, request.headers['range']);
    if (!played) return;
    const key = `${event.zone.VideoLibraryId}/${played.guid}`;
    let video = this.pending.get(key);
    if (!video) {
      if (this.pending.size >= MAX_PENDING_VIDEOS) {
        this.dropped++;
        return;
      }
      video = { libraryId: event.zone.VideoLibraryId, accountId: event.accountId, guid: played.guid, hours: new Map() };
      this.pending.set(key, video);
    }
    const hour = hourOf(event.at);
    let plays = video.hours.get(hour);
    if (!plays) {
      plays = { views: 0, segments: new Map() };
      video.hours.set(hour, plays);
    }
    if (played.kind === 'start') plays.views++;
    else plays.segments.set(played.index, (plays.segments.get(played.index) ?? 0) + 1);
  }

  /** Writes what was counted so far; on failure the counts wait for the next flush. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.store.transaction(async (tx) => {
          for (const video of batch.values()) await this.write(tx, video);
        });
      } catch (error) {
        this.requeue(batch);
        throw error;
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }

  /** One video's counts: onto the video and into the counters, or nowhere when it is not (any more) the library's. */
  private async write(tx: StoreTx, video: PendingVideo): Promise<void> {
    const current = await this.videos.videos.find(tx, video.accountId, video.guid);
    if (!current || current.doc.videoLibraryId !== video.libraryId) return;
    const length = current.doc.length;
    const entries: UsageEntry[] = [];
    const subject = videoSubject(video.guid);
    const library = libraryUsageSubject(video.libraryId);
    let views = 0;
    let watched = 0;
    for (const [hour, plays] of video.hours) {
      let seconds = 0;
      for (const [index, count] of plays.segments) {
        const { from, to } = segmentSeconds(index, length);
        if (to === from) continue;
        seconds += (to - from) * count;
        entries.push({ subject, metric: segmentMetric(index), hour, value: count });
      }
      for (const [metric, value] of [
        [VIEWS, plays.views],
        [WATCHED_SECONDS, seconds],
        [OFFERED_SECONDS, plays.views * length],
      ] as const) {
        if (value > 0) entries.push({ subject, metric, hour, value }, { subject: library, metric, hour, value });
      }
      views += plays.views;
      watched += seconds;
    }
    if (entries.length === 0) return;
    await tx.usage.add(entries);
    const next: VideoDoc = { ...current.doc, views: current.doc.views + views, totalWatchTime: current.doc.totalWatchTime + watched };
    next.averageWatchTime = next.views > 0 ? Math.round(next.totalWatchTime / next.views) : 0;
    await this.videos.videos.update(tx, video.accountId, current, next);
  }

  /** A failed batch goes back with what came since. */
  private requeue(batch: Map<string, PendingVideo>): void {
    for (const [key, newer] of this.pending) {
      const older = batch.get(key);
      if (!older) {
        batch.set(key, newer);
        continue;
      }
      for (const [hour, plays] of newer.hours) {
        const into = older.hours.get(hour);
        if (!into) older.hours.set(hour, plays);
        else {
          into.views += plays.views;
          for (const [index, count] of plays.segments) into.segments.set(index, (into.segments.get(index) ?? 0) + count);
        }
      }
    }
    this.pending = batch;
  }

  /** Views of each second of the video (`"0": 12, "1": 12, …`): the seconds its served segments cover; seconds never watched are left out. */
  async heatmap(access: LibraryAccess, guid: string): Promise<HeatmapT> {
    await this.flush().catch(() => {});
    const video = (await this.videos.find(access, guid)).doc;
    const metrics = Array.from({ length: Math.ceil(video.length / HLS_SEGMENT_SECONDS) }, (_, i) => segmentMetric(i));
    const indexOf = new Map(metrics.map((metric, index) => [metric, index]));
    const entries = metrics.length === 0 ? [] : await this.store.usage.series(videoSubject(guid), metrics, ALL_HOURS.from, ALL_HOURS.to);
    const served = new Map<number, number>();
    for (const entry of entries) {
      const index = indexOf.get(entry.metric);
      if (index !== undefined) served.set(index, (served.get(index) ?? 0) + entry.value);
    }
    // As the reference describes it: segment index -> intensity, 100 for the most served segment; a segment never served is left out (0).
    const most = Math.max(0, ...served.values());
    const heatmap: Record<string, number> = {};
    for (const [index, count] of [...served].sort(([a], [b]) => a - b)) heatmap[index] = Math.round((count / most) * 100);
    return { heatmap };
  }

  /**
   * Views and seconds watched per day (or hour) from `dateFrom` to `dateTo` (default: the 30 days
   * up to now), for the library or one of its videos; the engagement score is the share of the
   * viewed videos' length that was watched.
   */
  async statistics(access: LibraryAccess, q: StatisticsQuery): Promise<VideoStatisticsT> {
    await this.flush().catch(() => {});
    const subject = q.videoGuid ? videoSubject((await this.videos.find(access, q.videoGuid)).doc.guid) : libraryUsageSubject(access.libraryId);
    const period = periodOf(q.dateFrom, q.dateTo, this.clock(), q.hourly);
    const entries = await this.store.usage.series(subject, CHART_METRICS, hourOf(period.from), hourOf(period.to));
    const watchTimeChart = metricChart(entries, period, WATCHED_SECONDS);
    const offered = total(metricChart(entries, period, OFFERED_SECONDS));
    return {
      viewsChart: metricChart(entries, period, VIEWS),
      watchTimeChart,
      countryViewCounts: {},
      countryWatchTime: {},
      engagementScore: offered > 0 ? Math.min(100, Math.round((total(watchTimeChart) / offered) * 100)) : 0,
    };
  }

  /** Stops the flushes, writing what is pending. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => {});
  }
}
