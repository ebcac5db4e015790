/** What the edge served for a pull zone, per hour over the last day or per day over the last 30: bandwidth, requests, cache hit rate, answers by class. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Chart } from '../chart';
import { formatBytes, Loading, Totals, useLoad } from '../ui';
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
            <Totals
              figures={[
                ['Requests served', s.TotalRequestsServed, 'total-requests'],
                ['Bandwidth used', formatBytes(s.TotalBandwidthUsed)],
                ['Cache hit rate', `${s.CacheHitRate.toFixed(1)} %`],
              ]}
            />
            <div class="charts">
              <Chart
                title="Requests"
                series={[
                  ['Served', s.RequestsServedChart],
                  ['Pulled from the origin', s.PullRequestsPulledChart],
                ]}
              />
              <Chart
                title="Bandwidth"
                unit="bytes"
                series={[
                  ['Used', s.BandwidthUsedChart],
                  ['From cache', s.BandwidthCachedChart],
                ]}
              />
              <Chart title="Cache hit rate" unit="%" total={false} series={[['Hit rate', s.CacheHitRateChart]]} />
              <Chart
                title="Status codes"
                series={[
                  ['3xx', s.Error3xxChart],
                  ['4xx', s.Error4xxChart],
                  ['5xx', s.Error5xxChart],
                ]}
              />
            </div>
          </>
        )}
      </Loading>
    </>
  );
}
