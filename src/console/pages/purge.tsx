/** Purging a pull zone's cache: all of it (optionally one cache tag), one URL, or a pattern of URLs (`*`). */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { SchemaForm } from '../form';
import { OperationForm } from '../operation-form';
import { parameterField } from '../schema';
import { Loading, useLoad } from '../ui';
import type { PullZone } from './pull-zones';

export function Purge({ zone }: { zone: PullZone }) {
  // POST /purge takes its URL in the query string: that parameter's own schema makes the field.
  const urlField = useLoad(() => parameterField('post', '/purge', 'url'), []);
  const [purged, setPurged] = useState<string[]>([]);
  const host = zone.Hostnames?.[0]?.Value ?? '';
  return (
    <>
      <OperationForm
        heading="Purge the whole zone"
        operation="post /pullzone/{id}/purgeCache"
        id="purge-zone"
        submitLabel="Purge the zone's cache"
        done="The zone's cache is purged."
        onSubmit={(body) => api.post(`/pullzone/${zone.Id}/purgeCache`, body)}
      />
      <h2>Purge a URL or a pattern</h2>
      <p class="help">
        For example <code>https://{host}/images/logo.png</code>, or <code>https://{host}/images/*</code> for every URL under a folder.
      </p>
      <Loading loaded={urlField}>
        {(field) => (
          <SchemaForm
            id="purge-url"
            fields={[field]}
            submitLabel="Purge URL"
            done="Purged."
            onSubmit={async (body) => {
              const url = String(body['url']);
              await api.post(`/purge?url=${encodeURIComponent(url)}`);
              setPurged((list) => [url, ...list]);
            }}
          />
        )}
      </Loading>
      {purged.length > 0 ? (
        <>
          <h3>Purged in this session</h3>
          <ul>
            {purged.map((url) => (
              <li key={url}>{url}</li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
