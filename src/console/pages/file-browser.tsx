/** A storage zone's files: folders to walk, several uploads at once with their progress, downloads, deletes, new folders. */
import { useState } from 'preact/hooks';
import { errorText } from '../api';
import { FileApi, planeAddress } from '../files';
import { PlaneAddress } from '../plane-address';
import { Table } from '../table';
import { ActionButton, formatBytes, Loading, useLoad } from '../ui';
import type { StorageZone } from './storage-zones';

interface Upload {
  id: number;
  name: string;
  sent: number;
  total: number;
  state: 'sending' | 'done' | 'failed';
  message: string;
  abort: () => void;
}

/** Uploads running at once; the rest wait their turn. */
const PARALLEL_UPLOADS = 3;
let nextUpload = 1;

export function FileBrowser({ zone, path, changed }: { zone: StorageZone; path: string[]; changed: () => void }) {
  const folder = path.length > 0 ? `${path.join('/')}/` : '';
  const [turn, setTurn] = useState(0);
  const [address, setAddress] = useState<string | undefined>(undefined);
  const files = useLoad(async () => {
    const base = address ?? (await planeAddress('storage'));
    if (address === undefined) setAddress(base);
    const client = new FileApi(base, zone.Name, zone.Password);
    return { client, entries: await client.list(folder) };
  }, [zone.Id, folder, address, turn]);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [folderName, setFolderName] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const refresh = () => {
    setTurn((n) => n + 1);
    changed();
  };
  const update = (id: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...change } : u)));

  const uploadAll = async (client: FileApi, chosen: File[]) => {
    const queue = chosen.map((file) => ({ file, id: nextUpload++ }));
    setUploads((list) => [
      ...queue.map(({ file, id }) => ({ id, name: file.name, sent: 0, total: file.size, state: 'sending' as const, message: 'Waiting', abort: () => {} })),
      ...list.filter((u) => u.state === 'sending'),
    ]);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { file, id } = next;
        const running = client.upload(`${folder}${file.name}`, file, (sent, total) => update(id, { sent, total, message: '' }));
        update(id, { abort: running.abort, message: '' });
        try {
          await running.done;
          update(id, { state: 'done', sent: file.size, message: 'Uploaded' });
        } catch (error) {
          update(id, { state: 'failed', message: errorText(error) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, queue.length) }, worker));
    refresh();
  };

  const crumbs = [{ name: zone.Name, to: [] as string[] }, ...path.map((name, at) => ({ name, to: path.slice(0, at + 1) }))];
  const link = (to: string[]) => `#/storage/${zone.Id}/files${to.map((s) => `/${encodeURIComponent(s)}`).join('')}`;

  return (
    <>
      {address !== undefined ? <PlaneAddress plane="storage" address={address} chosen={setAddress} /> : null}
      <nav aria-label="Folder" class="crumbs">
        {crumbs.map((c, at) => (
          <span key={c.to.join('/')}>
            {at > 0 ? ' / ' : ''}
            {at === crumbs.length - 1 ? <span aria-current="location">{c.name}</span> : <a href={link(c.to)}>{c.name}</a>}
          </span>
        ))}
      </nav>
      <Loading loaded={files}>
        {({ client, entries }) => (
          <>
            <div class="toolbar">
              <div class="field">
                <label for="upload-files">Upload files</label>
                <input
                  id="upload-files"
                  type="file"
                  multiple
                  onChange={(e) => {
                    const chosen = [...(e.currentTarget.files ?? [])];
                    e.currentTarget.value = '';
                    if (chosen.length > 0) void uploadAll(client, chosen);
                  }}
                />
              </div>
              <form
                class="inline"
                onSubmit={async (e) => {
                  e.preventDefault();
                  if (!folderName.trim()) return setProblem('Enter a folder name.');
                  try {
                    await client.createFolder(`${folder}${folderName.trim()}`);
                    setFolderName('');
                    setProblem(undefined);
                    refresh();
                  } catch (error) {
                    setProblem(errorText(error));
                  }
                }}
              >
                <div class="field">
                  <label for="folder-name">New folder name</label>
                  <input id="folder-name" value={folderName} onInput={(e) => setFolderName(e.currentTarget.value)} />
                </div>
                <button type="submit">Create folder</button>
                {problem ? (
                  <p class="status error" role="alert">
                    {problem}
                  </p>
                ) : null}
              </form>
            </div>
            {uploads.length > 0 ? (
              <ul class="uploads" aria-label="Uploads">
                {uploads.map((u) => (
                  <li key={u.id}>
                    <label for={`upload-${u.id}`}>Uploading {u.name}</label>
                    <progress id={`upload-${u.id}`} max={u.total || 1} value={u.sent} />
                    <span class={u.state === 'failed' ? 'status error' : 'status'} role={u.state === 'failed' ? 'alert' : undefined}>
                      {formatBytes(u.sent)} of {formatBytes(u.total)} {u.message}
                    </span>
                    {u.state === 'sending' ? (
                      <button type="button" onClick={u.abort}>
                        Stop uploading {u.name}
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <Table
              caption={`Files in /${folder}`}
              headers={['Name', 'Size', 'Changed', 'Actions']}
              items={entries}
              keyOf={(entry) => entry.ObjectName}
              empty="This folder is empty."
              cells={(entry) => [
                entry.IsDirectory ? <a href={link([...path, entry.ObjectName])}>{entry.ObjectName}/</a> : entry.ObjectName,
                entry.IsDirectory ? '' : formatBytes(entry.Length),
                entry.LastChanged,
                <>
                  {entry.IsDirectory ? null : (
                    <ActionButton label={`Download ${entry.ObjectName}`} run={() => client.save(`${folder}${entry.ObjectName}`, entry.ObjectName)} />
                  )}{' '}
                  <ActionButton
                    label={`Delete ${entry.ObjectName}`}
                    confirmText={entry.IsDirectory ? `Delete the folder ${entry.ObjectName} and everything in it?` : `Delete ${entry.ObjectName}?`}
                    run={async () => {
                      await client.remove(`${folder}${entry.ObjectName}${entry.IsDirectory ? '/' : ''}`);
                      refresh();
                    }}
                  />
                </>,
              ]}
            />
          </>
        )}
      </Loading>
    </>
  );
}
