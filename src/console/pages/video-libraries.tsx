/**
 * Video libraries: the list, a new library, and one library's settings from the update body's
 * schema. Its videos are served by the video plane with the library's own key (not yet here).
 */
import { api, itemsOf } from '../api';
import { SchemaForm } from '../form';
import { go } from '../router';
import { bodyFields } from '../schema';
import { formatBytes, Loading, PageTitle, useLoad } from '../ui';

interface VideoLibrary {
  Id: number;
  Name: string;
  VideoCount: number;
  StorageUsage: number;
  TrafficUsage: number;
  [setting: string]: unknown;
}

function Library({ id }: { id: number }) {
  const library = useLoad(() => api.get<VideoLibrary>(`/videolibrary/${id}`), [id]);
  const fields = useLoad(() => bodyFields('post', '/videolibrary/{id}'), []);
  return (
    <Loading loaded={library}>
      {(l) => (
        <>
          <p class="crumbs">
            <a href="#/video">Video libraries</a> /
          </p>
          <PageTitle>Video library {l.Name}</PageTitle>
          <dl class="totals">
            <dt>Videos</dt>
            <dd>{l.VideoCount}</dd>
            <dt>Stored</dt>
            <dd>{formatBytes(l.StorageUsage)}</dd>
            <dt>Delivered</dt>
            <dd>{formatBytes(l.TrafficUsage)}</dd>
          </dl>
          <h2>Settings</h2>
          <Loading loaded={fields}>
            {(list) => (
              <SchemaForm
                id="video-settings"
                fields={list}
                initial={l}
                submitLabel="Save settings"
                onSubmit={async (body) => {
                  await api.post(`/videolibrary/${l.Id}`, body);
                  library.reload();
                }}
              />
            )}
          </Loading>
        </>
      )}
    </Loading>
  );
}

export function VideoLibraries({ id }: { id: number | undefined }) {
  const libraries = useLoad(
    () => (id === undefined ? api.get<VideoLibrary[] | { Items: VideoLibrary[] }>('/videolibrary?perPage=1000').then(itemsOf) : Promise.resolve([])),
    [id],
  );
  const fields = useLoad(() => bodyFields('post', '/videolibrary', ['Name', 'ReplicationRegions']), []);
  if (id !== undefined) return <Library id={id} />;
  return (
    <>
      <PageTitle>Video libraries</PageTitle>
      <Loading loaded={libraries}>
        {(list) => (
          <ul>
            {list.length === 0 ? <li>No video library yet.</li> : null}
            {list.map((l) => (
              <li key={l.Id}>
                <a href={`#/video/${l.Id}`}>{l.Name}</a> — {l.VideoCount} videos, {formatBytes(l.StorageUsage)}
              </li>
            ))}
          </ul>
        )}
      </Loading>
      <h2>Add a video library</h2>
      <Loading loaded={fields}>
        {(list) => (
          <SchemaForm
            id="new-video-library"
            fields={list}
            submitLabel="Add video library"
            onSubmit={async (body) => {
              const library = await api.post<VideoLibrary>('/videolibrary', body);
              go(`/video/${library.Id}`);
            }}
          />
        )}
      </Loading>
    </>
  );
}
