/** Billing: the balance, this month's charges by kind, the usage per pull zone, monthly statements. */
import { api } from '../api';
import { Chart, colorAt } from '../chart';
import { formatBytes, Loading, PageTitle, useLoad } from '../ui';

interface Billing {
  Balance: number;
  ThisMonthCharges: number;
  MonthlyBandwidthUsed: number;
  BillingHistoryChart: Record<string, number> | null;
  BillingRecords: { Id: number; Amount: number; Timestamp: string; Type: number }[] | null;
  [charge: string]: unknown;
}

export function Billing() {
  const billing = useLoad(() => api.get<Billing>('/billing'), []);
  const summary = useLoad(() => api.get<{ PullZoneId: number; MonthlyUsage: number; MonthlyBandwidthUsed: number }[]>('/billing/summary'), []);
  return (
    <>
      <PageTitle>Billing</PageTitle>
      <Loading loaded={billing}>
        {(b) => {
          const charges = Object.entries(b).filter(([name, value]) => name.startsWith('MonthlyCharges') && typeof value === 'number' && value !== 0) as [
            string,
            number,
          ][];
          return (
            <>
              <dl class="totals">
                <dt>Balance</dt>
                <dd>{b.Balance.toFixed(2)}</dd>
                <dt>This month's charges</dt>
                <dd>{b.ThisMonthCharges.toFixed(2)}</dd>
                <dt>Bandwidth this month</dt>
                <dd>{formatBytes(b.MonthlyBandwidthUsed)}</dd>
              </dl>
              <table>
                <caption>This month's charges by kind</caption>
                <tbody>
                  {charges.length === 0 ? (
                    <tr>
                      <td>No charge yet this month.</td>
                    </tr>
                  ) : null}
                  {charges.map(([name, value]) => (
                    <tr key={name}>
                      <th scope="row">{name.replace('MonthlyCharges', '')}</th>
                      <td>{value.toFixed(4)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Chart title="Charges per day" series={[{ label: 'Charges', points: b.BillingHistoryChart, color: colorAt(0) }]} />
            </>
          );
        }}
      </Loading>
      <h2>Usage by pull zone this month</h2>
      <Loading loaded={summary}>
        {(rows) => (
          <table>
            <caption>Usage by pull zone</caption>
            <thead>
              <tr>
                <th scope="col">Pull zone</th>
                <th scope="col">Charges</th>
                <th scope="col">Bandwidth</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.PullZoneId}>
                  <td>
                    <a href={`#/pullzones/${r.PullZoneId}`}>{r.PullZoneId}</a>
                  </td>
                  <td>{r.MonthlyUsage.toFixed(4)}</td>
                  <td>{formatBytes(r.MonthlyBandwidthUsed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loading>
    </>
  );
}
