/** One pull zone: its settings by group, hostnames, edge rules, purge and statistics, one tab each. */
import { api } from '../api';
import { Loading, PageTitle, Tabs, useLoad } from '../ui';
import type { PullZone } from './pull-zones';
import { PullZoneSettings } from './pull-zone-settings';
import { PullZoneHostnames } from './pull-zone-hostnames';
import { EdgeRules } from './edge-rules';
import { Purge } from './purge';
import { PullZoneStatistics } from './pull-zone-statistics';

const TABS = [
  { id: 'settings', label: 'Settings' },
  { id: 'hostnames', label: 'Hostnames' },
  { id: 'edgerules', label: 'Edge rules' },
  { id: 'purge', label: 'Purge' },
  { id: 'statistics', label: 'Statistics' },
];

export function PullZonePage({ id, tab }: { id: number; tab: string }) {
  const zone = useLoad(() => api.get<PullZone>(`/pullzone/${id}`), [id]);
  return (
    <Loading loaded={zone}>
      {(z) => (
        <>
          <p class="crumbs">
            <a href="#/pullzones">Pull zones</a> /
          </p>
          <PageTitle>Pull zone {z.Name}</PageTitle>
          <Tabs base={`/pullzones/${id}`} tabs={TABS} current={tab} />
          {tab === 'settings' ? <PullZoneSettings zone={z} reload={zone.reload} /> : null}
          {tab === 'hostnames' ? <PullZoneHostnames zone={z} reload={zone.reload} /> : null}
          {tab === 'edgerules' ? <EdgeRules zone={z} reload={zone.reload} /> : null}
          {tab === 'purge' ? <Purge zone={z} /> : null}
          {tab === 'statistics' ? <PullZoneStatistics zone={z} /> : null}
        </>
      )}
    </Loading>
  );
}
