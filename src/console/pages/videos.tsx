/**
 * A video library's videos, through the video plane with the library's own key: their status and
 * encoding progress (looked at again while any is being encoded), uploads with their progress
 * (the video is created, then its file sent), the player (the plane's embed page), deletes.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorText, problemOf } from '../api';
import { planeAddress, sendWithProgress } from '../files';
import { PlaneAddress } from '../plane-address';
import { modelWith, valueNames } from '../schema';
import { Table } from '../table';
import { ActionButton, Loading, useLoad } from '../ui';

interface Video {
  guid: string;
  title: string;
  status: number;
  encodeProgress: number;
  length: number;
}

/** Statuses from which a video moves on by itself (uploaded, processing, transcoding). */
const WORKING = new Set([1, 2, 3]);

class VideoApi {
  constructor(
    readonly address: string,
    readonly libraryId: number,
    private readonly key: string,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { AccessKey: this.key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.address}/library/${this.libraryId}/videos${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!response.ok) throw await problemOf(response);
    return (await response.json()) as T;
  }

  list = () => this.call<{ items: Video[] | null }>('GET', '?page=1&itemsPerPage=100').then((page) => page.items ?? []);
  create = (title: string) => this.call<Video>('POST', '', { title });
  remove = (guid: string) => this.call('DELETE', `/${guid}`);
  upload = (guid: string, file: File, progress: (sent: number, total: number) => void) =>
    sendWithProgress(
      'PUT',
      `${this.address}/library/${this.libraryId}/videos/${guid}`,
      { AccessKey: this.key, 'Content-Type': 'application/octet-stream' },
      file,
      progress,
    );
  player = (guid: string) => `${this.address}/embed/${this.libraryId}/${guid}`;
}

export function Videos({ libraryId, apiKey }: { libraryId: number; apiKey: string }) {
  const [address, setAddress] = useState<string | undefined>(undefined);
  const [turn, setTurn] = useState(0);
  const videos = useLoad(async () => {
    const base = address ?? (await planeAddress('video'));
    if (address === undefined) setAddress(base);
    const client = new VideoApi(base, libraryId, apiKey);
    const statusField = (await modelWith(['guid', 'encodeProgress', 'status'], `${base}/openapi.json`))?.properties?.['status'];
    return { client, list: await client.list(), statuses: valueNames(statusField?.description) };
  }, [libraryId, address, turn]);
  const [playing, setPlaying] = useState<string | undefined>(undefined);
  const [upload, setUpload] = useState<{ name: string; sent: number; total: number; message: string; failed: boolean } | undefined>();

  // Look again while a video is being encoded.
  const working = videos.data?.list.some((v) => WORKING.has(v.status)) ?? false;
  useEffect(() => {
    if (!working) return;
    const timer = setTimeout(() => setTurn((n) => n + 1), 2000);
    return () => clearTimeout(timer);
  });

  const send = async (client: VideoApi, file: File, title: string) => {
    setUpload({ name: file.name, sent: 0, total: file.size, message: 'Creating the video', failed: false });
    try {
      const video = await client.create(title || file.name);
      await client.upload(video.guid, file, (sent, total) => setUpload({ name: file.name, sent, total, message: '', failed: false })).done;
      setUpload({ name: file.name, sent: file.size, total: file.size, message: 'Uploaded: encoding', failed: false });
    } catch (error) {
      setUpload((u) => ({ name: file.name, sent: u?.sent ?? 0, total: file.size, message: errorText(error), failed: true }));
    }
    setTurn((n) => n + 1);
  };

  return (
    <>
      {address !== undefined ? <PlaneAddress plane="video" address={address} chosen={setAddress} /> : null}
      <Loading loaded={videos}>
        {({ client, list, statuses }) => (
          <>
            <form
              class="inline"
              onSubmit={(e) => {
                e.preventDefault();
                const form = e.currentTarget;
                const file = (form.elements.namedItem('video-file') as HTMLInputElement).files?.[0];
                if (file) void send(client, file, (form.elements.namedItem('video-title') as HTMLInputElement).value.trim());
              }}
            >
              <div class="field">
                <label for="video-title">Title</label>
                <input id="video-title" name="video-title" />
              </div>
              <div class="field">
                <label for="video-file">Video file</label>
                <input id="video-file" name="video-file" type="file" accept="video/*" />
              </div>
              <button type="submit">Upload video</button>
            </form>
            {upload ? (
              <p class="uploads">
                <label for="video-upload">Uploading {upload.name}</label> <progress id="video-upload" max={upload.total || 1} value={upload.sent} />{' '}
                <span class={upload.failed ? 'status error' : 'status'} role={upload.failed ? 'alert' : 'status'}>
                  {upload.message}
                </span>
              </p>
            ) : null}
            <Table
              caption="Videos of the library"
              headers={['Title', 'Status', 'Encoding', 'Length', 'Actions']}
              items={list}
              keyOf={(v) => v.guid}
              empty="No video yet."
              cells={(v) => [
                v.title,
                statuses.get(String(v.status)) ?? String(v.status),
                <progress aria-label={`Encoding of ${v.title}`} max={100} value={v.encodeProgress} />,
                `${v.length} s`,
                <>
                  <button type="button" onClick={() => setPlaying(playing === v.guid ? undefined : v.guid)}>
                    Play {v.title}
                  </button>{' '}
                  <ActionButton
                    label={`Delete ${v.title}`}
                    confirmText={`Delete the video ${v.title}?`}
                    run={async () => {
                      await client.remove(v.guid);
                      setTurn((n) => n + 1);
                    }}
                  />
                </>,
              ]}
              below={(v) =>
                playing === v.guid ? (
                  <iframe class="player" title={`Player: ${v.title}`} src={client.player(v.guid)} allow="fullscreen; picture-in-picture" />
                ) : null
              }
            />
          </>
        )}
      </Loading>
    </>
  );
}
