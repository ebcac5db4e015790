/**
 * Video libraries: the list, a new library, and one library's videos (pages/videos.tsx) and
 * settings (the update body's schema).
 */
import { api } from '../api';
import { OperationForm, SettingsForm } from '../operation-form';
import { go } from '../router';
import { LoadedTable } from '../table';
import { Videos } from './videos';
import { formatBytes, Loading, PageTitle, ResourceHead, Totals, useLoad } from '../ui';

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
  return (
    <Loading loaded={library}>
      {(l) => (
        <>
          <ResourceHead list="/video" listLabel="Video libraries" title={`Video library ${l.Name}`} />
          <Totals
            figures={[
              ['Videos', l.VideoCount],
              ['Stored', formatBytes(l.StorageUsage)],
              ['Delivered', formatBytes(l.TrafficUsage)],
            ]}
          />
          <h2>Videos</h2>
          <Videos libraryId={l.Id} apiKey={String(l['ApiKey'])} />
          <h2>Settings</h2>
          <SettingsForm operation="post /videolibrary/{id}" path={`/videolibrary/${l.Id}`} initial={l} saved={library.reload} />
        </>
      )}
    </Loading>
  );
}

export function VideoLibraries({ id }: { id: number | undefined }) {
  if (id !== undefined) return <Library id={id} />;
  return (
    <>
      <PageTitle>Video libraries</PageTitle>
      <LoadedTable
        load={() => api.get<VideoLibrary[]>('/videolibrary?perPage=1000')}
        caption="Video libraries of the account"
        headers={['Name', 'Videos', 'Stored']}
        keyOf={(l) => l.Id}
        empty="No video library yet."
        cells={(l) => [<a href={`#/video/${l.Id}`}>{l.Name}</a>, l.VideoCount, formatBytes(l.StorageUsage)]}
      />
      <OperationForm
        heading="Add a video library"
        operation="post /videolibrary"
        pick={['Name', 'ReplicationRegions']}
        id="new-video-library"
        submitLabel="Add video library"
        onSubmit={async (body) => go(`/video/${(await api.post<VideoLibrary>('/videolibrary', body)).Id}`)}
      />
    </>
  );
}
