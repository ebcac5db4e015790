/**
 * A video library's videos, through the video plane with the library's own key: their status and
 * encoding progress (looked at again while any is being encoded), uploads with their progress
 * (the video is created, then its file sent), the player (the plane's embed page), deletes.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../api';
import { planeAddress } from '../files';
import { PlaneAddress } from '../plane-address';
import { modelWith, valueNames } from '../schema';
import { Collections, VideoDetails } from './video-details';
import { VideoApi } from './video-api';
import { Table } from '../table';
import { ActionButton, Loading, useLoad } from '../ui';

/** Statuses from which a video moves on by itself (uploaded, processing, transcoding). */
const WORKING = new Set([1, 2, 3]);

export function Videos({ libraryId, apiKey }: { libraryId: number; apiKey: string }) {
  const [address, setAddress] = useState<string | undefined>(undefined);
  const [turn, setTurn] = useState(0);
  const videos = useLoad(async () => {
    const base = address ?? (await planeAddress('video'));
    if (address === undefined) setAddress(base);
    const client = new VideoApi(base, libraryId, apiKey);
    const statusField = (await modelWith(['guid', 'encodeProgress', 'status'], `${base}/openapi.json`))?.properties?.['status'];
    const [list, collections] = await Promise.all([client.list(), client.collections()]);
    return { client, list, collections, statuses: valueNames(statusField?.description) };
  }, [libraryId, address, turn]);
  const [playing, setPlaying] = useState<string | undefined>(undefined);
  const [managing, setManaging] = useState<string | undefined>(undefined);
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
        {({ client, list, collections, statuses }) => (
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
                  <button type="button" aria-expanded={managing === v.guid} onClick={() => setManaging(managing === v.guid ? undefined : v.guid)}>
                    Captions, chapters and collection of {v.title}
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
              below={(v) => (
                <>
                  {playing === v.guid ? (
                    <iframe class="player" title={`Player: ${v.title}`} src={client.player(v.guid)} allow="fullscreen; picture-in-picture" />
                  ) : null}
                  {managing === v.guid ? <VideoDetails client={client} guid={v.guid} collections={collections} changed={() => setTurn((n) => n + 1)} /> : null}
                </>
              )}
            />
            <Collections client={client} collections={collections} changed={() => setTurn((n) => n + 1)} />
          </>
        )}
      </Loading>
    </>
  );
}
