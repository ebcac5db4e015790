/**
 * A video's captions (upload a WebVTT or SubRip file, list, delete), chapters (edit) and
 * collection (move it), and the library's collections (list, create, delete): the video plane's
 * operations, their forms made from its own OpenAPI document.
 */
import { useState } from 'preact/hooks';
import { type Raw, RowsEditor, rowsOf, itemsOfRows, SchemaForm } from '../form';
import { bodySchema, type Field, fieldsOf, propertyOf } from '../schema';
import { Table } from '../table';
import { ActionButton, Loading, useLoad } from '../ui';
import type { Collection, VideoApi } from './video-api';

/** A file's bytes as base64, as the captions body carries them. */
const base64Of = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read.`));
    reader.readAsDataURL(file);
  });

async function videoForms(client: VideoApi) {
  const [caption, update] = await Promise.all([
    bodySchema('post', '/library/{libraryId}/videos/{videoId}/captions/{srclang}', client.document),
    bodySchema('post', '/library/{libraryId}/videos/{videoId}', client.document),
  ]);
  const captionFields = fieldsOf(caption).filter((f) => f.name !== 'captionsFile');
  return {
    // The language names the track (it is the operation's path): required here.
    caption: captionFields.map((f) => (f.name === 'srclang' ? { ...f, required: true, nullable: false } : f)),
    chapter: fieldsOf(await propertyOf(update, 'chapters', client.document)),
    collection: fieldsOf(update).find((f) => f.name === 'collectionId'),
  };
}

export function VideoDetails({ client, guid, collections, changed }: { client: VideoApi; guid: string; collections: Collection[]; changed: () => void }) {
  const loaded = useLoad(async () => ({ forms: await videoForms(client), video: await client.get(guid) }), [guid]);
  const [chapters, setChapters] = useState<Record<string, Raw>[] | undefined>(undefined);
  const id = `video-${guid}`;
  return (
    <Loading loaded={loaded}>
      {({ forms, video }) => {
        const collectionField: Field | undefined = forms.collection && {
          ...forms.collection,
          kind: 'choice',
          choices: collections.map((c) => ({ value: c.guid, label: c.name ?? c.guid })),
        };
        return (
          <section class="video-details" aria-label={`Captions, chapters and collection of ${video.title}`}>
            <Table
              caption={`Captions of ${video.title}`}
              headers={['Language', 'Label', 'Actions']}
              items={video.captions ?? []}
              keyOf={(c) => c.srclang}
              empty="No captions yet."
              cells={(c) => [
                c.srclang,
                c.label,
                <ActionButton
                  label={`Delete captions ${c.srclang}`}
                  run={async () => {
                    await client.removeCaption(guid, c.srclang);
                    loaded.reload();
                  }}
                />,
              ]}
            />
            <SchemaForm
              id={`${id}-caption`}
              legend="Add captions"
              fields={forms.caption}
              submitLabel="Upload captions"
              done="Captions uploaded."
              onSubmit={async (body) => {
                const input = document.getElementById(`${id}-captions-file`) as HTMLInputElement;
                const file = input.files?.[0];
                if (!file) throw new Error('Choose a captions file (WebVTT or SubRip).');
                await client.addCaption(guid, String(body['srclang']), { ...body, captionsFile: await base64Of(file) });
                loaded.reload();
              }}
            >
              <div class="field">
                <label for={`${id}-captions-file`}>Captions file</label>
                <input id={`${id}-captions-file`} type="file" accept=".vtt,.srt,text/vtt" />
              </div>
            </SchemaForm>
            <SchemaForm
              id={`${id}-chapters`}
              fields={[]}
              submitLabel="Save chapters"
              done="Chapters saved."
              onSubmit={async () => {
                await client.update(guid, { chapters: itemsOfRows(forms.chapter, chapters ?? rowsOf(forms.chapter, video.chapters)) });
                loaded.reload();
              }}
            >
              <RowsEditor
                id={id}
                legend="Chapters"
                noun="chapter"
                fields={forms.chapter}
                rows={chapters ?? rowsOf(forms.chapter, video.chapters)}
                setRows={setChapters}
              />
            </SchemaForm>
            {collectionField ? (
              <SchemaForm
                id={`${id}-move`}
                fields={[collectionField]}
                initial={{ collectionId: video.collectionId || null }}
                submitLabel="Move to the collection"
                done="Moved."
                onSubmit={async (body) => {
                  // None chosen: an empty string takes the video out of its collection.
                  await client.update(guid, { collectionId: body['collectionId'] ?? '' });
                  changed();
                }}
              />
            ) : null}
          </section>
        );
      }}
    </Loading>
  );
}

export function Collections({ client, collections, changed }: { client: VideoApi; collections: Collection[]; changed: () => void }) {
  const fields = useLoad(async () => fieldsOf(await bodySchema('post', '/library/{libraryId}/collections', client.document)), [client.address]);
  return (
    <>
      <h2>Collections</h2>
      <Table
        caption="Collections of the library"
        headers={['Name', 'Videos', 'Actions']}
        items={collections}
        keyOf={(c) => c.guid}
        empty="No collection yet."
        cells={(c) => [
          c.name,
          c.videoCount,
          <ActionButton
            label={`Delete collection ${c.name ?? c.guid}`}
            confirmText={`Delete the collection ${c.name ?? c.guid}? Its videos stay in the library.`}
            run={async () => {
              await client.removeCollection(c.guid);
              changed();
            }}
          />,
        ]}
      />
      <Loading loaded={fields}>
        {(list) => (
          <SchemaForm
            id="new-collection"
            legend="Add a collection"
            fields={list}
            submitLabel="Add collection"
            done="Collection added."
            onSubmit={async (body) => {
              await client.createCollection(body);
              changed();
            }}
          />
        )}
      </Loading>
    </>
  );
}
