/** One pull zone: its settings by group, hostnames, edge rules, purge and statistics, one tab each. */
import { api } from '../api';
import { Loading, ResourceHead, tabsOf, useLoad } from '../ui';
import type { PullZone } from './pull-zones';
import { PullZoneSettings } from './pull-zone-settings';
import { PullZoneHostnames } from './pull-zone-hostnames';
import { EdgeRules } from './edge-rules';
import { Purge } from './purge';
import { PullZoneStatistics } from './pull-zone-statistics';

const TABS = tabsOf({ settings: 'Settings', hostnames: 'Hostnames', edgerules: 'Edge rules', purge: 'Purge', statistics: 'Statistics' });

export function PullZonePage({ id, tab }: { id: number; tab: string }) {
  const zone = useLoad(() => api.get<PullZone>(`/pullzone/${id}`), [id]);
  return (
    <Loading loaded={zone}>
      {(z) => (
        <>
          <ResourceHead list="/pullzones" listLabel="Pull zones" title={`Pull zone ${z.Name}`} tabs={{ base: `/pullzones/${id}`, all: TABS, current: tab }} />
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
