/** Billing: the balance, this month's charges by kind, the charges per day, the usage per pull zone. */
import { api } from '../api';
import { Chart } from '../chart';
import { Table } from '../table';
import { formatBytes, Loading, PageTitle, Totals, useLoad } from '../ui';

interface Billing {
  Balance: number;
  ThisMonthCharges: number;
  MonthlyBandwidthUsed: number;
  BillingHistoryChart: Record<string, number> | null;
  [charge: string]: unknown;
}

interface ZoneUsage {
  PullZoneId: number;
  MonthlyUsage: number;
  MonthlyBandwidthUsed: number;
}

export function Billing() {
  const billing = useLoad(() => api.get<Billing>('/billing'), []);
  const summary = useLoad(() => api.get<ZoneUsage[]>('/billing/summary'), []);
  return (
    <>
      <PageTitle>Billing</PageTitle>
      <Loading loaded={billing}>
        {(b) => (
          <>
            <Totals
              figures={[
                ['Balance', b.Balance.toFixed(2)],
                ["This month's charges", b.ThisMonthCharges.toFixed(2)],
                ['Bandwidth this month', formatBytes(b.MonthlyBandwidthUsed)],
              ]}
            />
            <Table
              caption="This month's charges by kind"
              headers={['Kind', 'Charge']}
              items={Object.entries(b).filter(
                (entry): entry is [string, number] => entry[0].startsWith('MonthlyCharges') && typeof entry[1] === 'number' && entry[1] !== 0,
              )}
              keyOf={([name]) => name}
              empty="No charge yet this month."
              cells={([name, value]) => [name.replace('MonthlyCharges', ''), value.toFixed(4)]}
            />
            <Chart title="Charges per day" series={[['Charges', b.BillingHistoryChart]]} />
          </>
        )}
      </Loading>
      <Loading loaded={summary}>
        {(rows) => (
          <Table
            caption="Usage by pull zone this month"
            headers={['Pull zone', 'Charges', 'Bandwidth']}
            items={rows}
            keyOf={(r) => r.PullZoneId}
            empty="No pull zone has usage this month."
            cells={(r) => [<a href={`#/pullzones/${r.PullZoneId}`}>{r.PullZoneId}</a>, r.MonthlyUsage.toFixed(4), formatBytes(r.MonthlyBandwidthUsed)]}
          />
        )}
      </Loading>
    </>
  );
}
