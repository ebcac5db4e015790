/** One storage zone: its files, settings, passwords and usage. */
import { api } from '../api';
import { Chart } from '../chart';
import { SettingsForm } from '../operation-form';
import { ActionButton, formatBytes, Loading, ResourceHead, tabsOf, Totals, useLoad } from '../ui';
import { FileBrowser } from './file-browser';
import type { StorageZone } from './storage-zones';

const TABS = tabsOf({ files: 'Files', settings: 'Settings', passwords: 'Passwords', usage: 'Usage' });

function Usage({ zone }: { zone: StorageZone }) {
  const stats = useLoad(
    () => api.get<{ StorageUsedChart: Record<string, number> | null; FileCountChart: Record<string, number> | null }>(`/storagezone/${zone.Id}/statistics`),
    [zone.Id],
  );
  return (
    <>
      <Totals
        figures={[
          ['Stored', formatBytes(zone.StorageUsed)],
          ['Files', zone.FilesStored],
        ]}
      />
      <Loading loaded={stats}>
        {(s) => (
          <div class="charts">
            <Chart title="Bytes stored" unit="bytes" series={[['Stored', s.StorageUsedChart]]} />
            <Chart title="Files" series={[['Files', s.FileCountChart]]} />
          </div>
        )}
      </Loading>
    </>
  );
}

/** A password with the button that replaces it. */
function Password({ name, value, reset }: { name: string; value: string; reset: () => Promise<unknown> }) {
  return [
    <dt key="name">{name}</dt>,
    <dd key="value">
      <code>{value}</code>{' '}
      <ActionButton
        label={`Reset the ${name.toLowerCase()}`}
        confirmText={`Clients using the current ${name.toLowerCase()} stop working. Go on?`}
        run={reset}
      />
    </dd>,
  ];
}

function Passwords({ zone, reload }: { zone: StorageZone; reload: () => void }) {
  const after = (reset: () => Promise<unknown>) => async () => {
    await reset();
    reload();
  };
  return (
    <>
      <p>The file API (and FTP) take a password as their key: the first may write, the read-only one may only read.</p>
      <dl class="secrets">
        <Password name="Password" value={zone.Password} reset={after(() => api.post(`/storagezone/${zone.Id}/resetPassword`))} />
        <Password name="Read-only password" value={zone.ReadOnlyPassword} reset={after(() => api.post(`/storagezone/resetReadOnlyPassword?id=${zone.Id}`))} />
        <dt>File API host</dt>
        <dd>{zone.StorageHostname}</dd>
      </dl>
    </>
  );
}

export function StorageZonePage({ id, tab, path }: { id: number; tab: string; path: string[] }) {
  const zone = useLoad(() => api.get<StorageZone>(`/storagezone/${id}`), [id]);
  return (
    <Loading loaded={zone}>
      {(z) => (
        <>
          <ResourceHead list="/storage" listLabel="Storage zones" title={`Storage zone ${z.Name}`} tabs={{ base: `/storage/${id}`, all: TABS, current: tab }} />
          {tab === 'files' ? <FileBrowser zone={z} path={path} changed={zone.reload} /> : null}
          {tab === 'settings' ? <SettingsForm operation="post /storagezone/{id}" path={`/storagezone/${z.Id}`} initial={z} saved={zone.reload} /> : null}
          {tab === 'passwords' ? <Passwords zone={z} reload={zone.reload} /> : null}
          {tab === 'usage' ? <Usage zone={z} /> : null}
        </>
      )}
    </Loading>
  );
}
