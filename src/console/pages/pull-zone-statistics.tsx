/** What the edge served for a pull zone, per hour over the last day or per day over the last 30: bandwidth, requests, cache hit rate, answers by class. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Chart, colorAt } from '../chart';
import { formatBytes, Loading, useLoad } from '../ui';
import type { PullZone } from './pull-zones';

type Points = Record<string, number> | null;

interface CdnStatistics {
  TotalBandwidthUsed: number;
  TotalRequestsServed: number;
  CacheHitRate: number;
  BandwidthUsedChart: Points;
  BandwidthCachedChart: Points;
  RequestsServedChart: Points;
  PullRequestsPulledChart: Points;
  CacheHitRateChart: Points;
  Error3xxChart: Points;
  Error4xxChart: Points;
  Error5xxChart: Points;
}

const PERIODS = { day: { label: 'Last 24 hours, per hour', days: 1, hourly: true }, month: { label: 'Last 30 days, per day', days: 30, hourly: false } };

export function PullZoneStatistics({ zone }: { zone: PullZone }) {
  const [period, setPeriod] = useState<keyof typeof PERIODS>('day');
  const stats = useLoad(() => {
    const { days, hourly } = PERIODS[period];
    const to = new Date();
    const from = new Date(to.getTime() - days * 86_400_000);
    const query = new URLSearchParams({ pullZone: String(zone.Id), hourly: String(hourly), dateFrom: from.toISOString(), dateTo: to.toISOString() });
    if (hourly) query.set('exactRange', 'true');
    return api.get<CdnStatistics>(`/statistics?${query}`);
  }, [zone.Id, period]);
  return (
    <>
      <div class="field">
        <label for="statistics-period">Period</label>
        <select id="statistics-period" value={period} onChange={(e) => setPeriod(e.currentTarget.value as keyof typeof PERIODS)}>
          {Object.entries(PERIODS).map(([key, p]) => (
            <option key={key} value={key}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <Loading loaded={stats}>
        {(s) => (
          <>
            <dl class="totals">
              <dt>Requests served</dt>
              <dd data-testid="total-requests">{s.TotalRequestsServed}</dd>
              <dt>Bandwidth used</dt>
              <dd>{formatBytes(s.TotalBandwidthUsed)}</dd>
              <dt>Cache hit rate</dt>
              <dd>{s.CacheHitRate.toFixed(1)} %</dd>
            </dl>
            <div class="charts">
              <Chart
                title="Requests"
                series={[
                  { label: 'Served', points: s.RequestsServedChart, color: colorAt(0) },
                  { label: 'Pulled from the origin', points: s.PullRequestsPulledChart, color: colorAt(1) },
                ]}
              />
              <Chart
                title="Bandwidth"
                unit="bytes"
                series={[
                  { label: 'Used', points: s.BandwidthUsedChart, color: colorAt(0) },
                  { label: 'From cache', points: s.BandwidthCachedChart, color: colorAt(2) },
                ]}
              />
              <Chart title="Cache hit rate" unit="%" total={false} series={[{ label: 'Hit rate', points: s.CacheHitRateChart, color: colorAt(2) }]} />
              <Chart
                title="Status codes"
                series={[
                  { label: '3xx', points: s.Error3xxChart, color: colorAt(0) },
                  { label: '4xx', points: s.Error4xxChart, color: colorAt(1) },
                  { label: '5xx', points: s.Error5xxChart, color: colorAt(4) },
                ]}
              />
            </div>
          </>
        )}
      </Loading>
    </>
  );
}
