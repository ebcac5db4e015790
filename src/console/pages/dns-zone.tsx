/** One DNS zone: its records, settings, DNSSEC with the DS record to copy, zone file import and export, query statistics. */
import { useState } from 'preact/hooks';
import { api, errorText } from '../api';
import { Chart } from '../chart';
import { Status } from '../form';
import { SettingsForm } from '../operation-form';
import { Table } from '../table';
import { ActionButton, Loading, ResourceHead, tabsOf, Totals, useLoad } from '../ui';
import { type DnsRecord, DnsRecords } from './dns-records';
import type { DnsZone } from './dns-zones';

const TABS = tabsOf({ records: 'Records', settings: 'Settings', dnssec: 'DNSSEC', zonefile: 'Import and export', statistics: 'Statistics' });

interface DsRecord {
  Enabled: boolean;
  DsRecord: string | null;
  Digest: string | null;
  DigestType: string | null;
  Algorithm: number;
  KeyTag: number;
  PublicKey: string | null;
}

function Dnssec({ zone, reload }: { zone: DnsZone; reload: () => void }) {
  // The DS record is what enabling answers (and enabling again, which changes nothing).
  const ds = useLoad(() => (zone.DnsSecEnabled ? api.post<DsRecord>(`/dnszone/${zone.Id}/dnssec`) : Promise.resolve(null)), [zone.Id, zone.DnsSecEnabled]);
  return (
    <>
      <p>DNSSEC is {zone.DnsSecEnabled ? 'on: the zone is signed' : 'off'}.</p>
      <ActionButton
        label={zone.DnsSecEnabled ? 'Turn DNSSEC off' : 'Turn DNSSEC on'}
        confirmText={zone.DnsSecEnabled ? 'Remove the DS record at the parent first, or resolvers will fail the zone. Go on?' : undefined}
        run={async () => {
          if (zone.DnsSecEnabled) await api.del(`/dnszone/${zone.Id}/dnssec`);
          else await api.post(`/dnszone/${zone.Id}/dnssec`);
          reload();
        }}
      />
      <Loading loaded={ds}>
        {(record) =>
          record?.DsRecord ? (
            <div class="field">
              <label for="ds-record">DS record for the parent zone</label>
              <textarea id="ds-record" readOnly rows={3} value={record.DsRecord} />
              <ActionButton label="Copy the DS record" run={() => navigator.clipboard.writeText(record.DsRecord ?? '')} />
              <Totals
                figures={[
                  ['Key tag', record.KeyTag],
                  ['Algorithm', record.Algorithm],
                  ['Digest type', record.DigestType],
                ]}
              />
            </div>
          ) : null
        }
      </Loading>
    </>
  );
}

function ZoneFile({ zone, reload }: { zone: DnsZone; reload: () => void }) {
  const [text, setText] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  return (
    <>
      <h2>Export</h2>
      <ActionButton
        label="Download the zone file"
        run={async () => {
          const file = await api.get<string>(`/dnszone/${zone.Id}/export`, { text: true });
          const a = document.createElement('a');
          a.href = URL.createObjectURL(new Blob([file], { type: 'text/plain' }));
          a.download = `${zone.Domain}.zone`;
          a.click();
        }}
      />
      <h2>Import</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            const done = await api.post<{ RecordsSuccessful: number; RecordsFailed: number; RecordsSkipped: number }>(`/dnszone/${zone.Id}/import`, text);
            setMessage({ text: `Added ${done.RecordsSuccessful}, failed ${done.RecordsFailed}, skipped ${done.RecordsSkipped}.`, error: false });
            reload();
          } catch (error) {
            setMessage({ text: errorText(error), error: true });
          }
        }}
      >
        <div class="field">
          <label for="zone-file">Zone file</label>
          <textarea id="zone-file" rows={8} value={text} onInput={(e) => setText(e.currentTarget.value)} aria-describedby="zone-file-help" />
          <p class="help" id="zone-file-help">
            Records in the zone file format (RFC 1035), added to those the zone has.
          </p>
        </div>
        <div class="field">
          <label for="zone-file-pick">Or read a file</label>
          <input id="zone-file-pick" type="file" onChange={async (e) => setText((await e.currentTarget.files?.[0]?.text()) ?? '')} />
        </div>
        <div class="actions">
          <button type="submit">Import records</button>
          <Status message={message} />
        </div>
      </form>
    </>
  );
}

function Statistics({ zone }: { zone: DnsZone }) {
  const stats = useLoad(
    () =>
      api.get<{
        TotalQueriesServed: number;
        QueriesServedChart: Record<string, number> | null;
        NormalQueriesServedChart: Record<string, number> | null;
        SmartQueriesServedChart: Record<string, number> | null;
        QueriesByTypeChart: Record<string, number> | null;
      }>(`/dnszone/${zone.Id}/statistics`),
    [zone.Id],
  );
  return (
    <Loading loaded={stats}>
      {(s) => (
        <>
          <Totals figures={[['Queries answered', s.TotalQueriesServed]]} />
          <Chart
            title="Queries"
            series={[
              ['All', s.QueriesServedChart],
              ['Normal', s.NormalQueriesServedChart],
              ['Smart', s.SmartQueriesServedChart],
            ]}
          />
          <Table
            caption="Queries by type"
            headers={['Type', 'Queries']}
            items={Object.entries(s.QueriesByTypeChart ?? {})}
            keyOf={([type]) => type}
            cells={([type, n]) => [type, n]}
          />
        </>
      )}
    </Loading>
  );
}

export function DnsZonePage({ id, tab }: { id: number; tab: string }) {
  const zone = useLoad(() => api.get<DnsZone & { Records: DnsRecord[] }>(`/dnszone/${id}`), [id]);
  return (
    <Loading loaded={zone}>
      {(z) => (
        <>
          <ResourceHead list="/dns" listLabel="DNS zones" title={`DNS zone ${z.Domain}`} tabs={{ base: `/dns/${id}`, all: TABS, current: tab }} />
          {tab === 'records' ? <DnsRecords zoneId={z.Id} records={z.Records} reload={zone.reload} /> : null}
          {tab === 'settings' ? <SettingsForm operation="post /dnszone/{id}" path={`/dnszone/${z.Id}`} initial={z} saved={zone.reload} /> : null}
          {tab === 'dnssec' ? <Dnssec zone={z} reload={zone.reload} /> : null}
          {tab === 'zonefile' ? <ZoneFile zone={z} reload={zone.reload} /> : null}
          {tab === 'statistics' ? <Statistics zone={z} /> : null}
        </>
      )}
    </Loading>
  );
}
