/** One storage zone: its files, settings, passwords and usage. */
import { api } from '../api';
import { Chart, colorAt } from '../chart';
import { SchemaForm } from '../form';
import { bodyFields } from '../schema';
import { ActionButton, formatBytes, Loading, PageTitle, Tabs, useLoad } from '../ui';
import { FileBrowser } from './file-browser';
import type { StorageZone } from './storage-zones';

const TABS = [
  { id: 'files', label: 'Files' },
  { id: 'settings', label: 'Settings' },
  { id: 'passwords', label: 'Passwords' },
  { id: 'usage', label: 'Usage' },
];

function Usage({ zone }: { zone: StorageZone }) {
  const stats = useLoad(
    () => api.get<{ StorageUsedChart: Record<string, number> | null; FileCountChart: Record<string, number> | null }>(`/storagezone/${zone.Id}/statistics`),
    [zone.Id],
  );
  return (
    <>
      <dl class="totals">
        <dt>Stored</dt>
        <dd>{formatBytes(zone.StorageUsed)}</dd>
        <dt>Files</dt>
        <dd>{zone.FilesStored}</dd>
      </dl>
      <Loading loaded={stats}>
        {(s) => (
          <div class="charts">
            <Chart title="Bytes stored" unit="bytes" series={[{ label: 'Stored', points: s.StorageUsedChart, color: colorAt(0) }]} />
            <Chart title="Files" series={[{ label: 'Files', points: s.FileCountChart, color: colorAt(2) }]} />
          </div>
        )}
      </Loading>
    </>
  );
}

function Passwords({ zone, reload }: { zone: StorageZone; reload: () => void }) {
  return (
    <>
      <p>The file API (and FTP) take a password as their key: the first may write, the read-only one may only read.</p>
      <dl class="secrets">
        <dt>Password</dt>
        <dd>
          <code>{zone.Password}</code>{' '}
          <ActionButton
            label="Reset the password"
            confirmText="Clients using the current password stop working. Go on?"
            run={async () => {
              await api.post(`/storagezone/${zone.Id}/resetPassword`);
              reload();
            }}
          />
        </dd>
        <dt>Read-only password</dt>
        <dd>
          <code>{zone.ReadOnlyPassword}</code>{' '}
          <ActionButton
            label="Reset the read-only password"
            confirmText="Clients using the current read-only password stop working. Go on?"
            run={async () => {
              await api.post(`/storagezone/resetReadOnlyPassword?id=${zone.Id}`);
              reload();
            }}
          />
        </dd>
        <dt>File API host</dt>
        <dd>{zone.StorageHostname}</dd>
      </dl>
    </>
  );
}

export function StorageZonePage({ id, tab, path }: { id: number; tab: string; path: string[] }) {
  const zone = useLoad(() => api.get<StorageZone>(`/storagezone/${id}`), [id]);
  const settings = useLoad(() => bodyFields('post', '/storagezone/{id}'), []);
  return (
    <Loading loaded={zone}>
      {(z) => (
        <>
          <p class="crumbs">
            <a href="#/storage">Storage zones</a> /
          </p>
          <PageTitle>Storage zone {z.Name}</PageTitle>
          <Tabs base={`/storage/${id}`} tabs={TABS} current={tab} />
          {tab === 'files' ? <FileBrowser zone={z} path={path} changed={zone.reload} /> : null}
          {tab === 'settings' ? (
            <Loading loaded={settings}>
              {(fields) => (
                <SchemaForm
                  id="storage-settings"
                  fields={fields}
                  initial={z}
                  submitLabel="Save settings"
                  onSubmit={async (body) => {
                    await api.post(`/storagezone/${z.Id}`, body);
                    zone.reload();
                  }}
                />
              )}
            </Loading>
          ) : null}
          {tab === 'passwords' ? <Passwords zone={z} reload={zone.reload} /> : null}
          {tab === 'usage' ? <Usage zone={z} /> : null}
        </>
      )}
    </Loading>
  );
}
