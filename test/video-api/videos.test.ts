/** Videos and collections over the video plane: create, read, list (paging, search, order), update, delete; the library's figures. */
import { describe, expect, it } from 'vitest';
import { Collection, StatusAnswer, Video, VideoPage } from '../../src/schemas/video.js';
import { expectErrorBody } from '../helpers/app.js';
import { schemaAjv } from '../helpers/schema-ajv.js';
import { createVideo, useVideoEnv } from './helpers.js';

const ajv = schemaAjv();
const isVideo = ajv.compile(Video);
const isPage = ajv.compile(VideoPage);
const isCollection = ajv.compile(Collection);
const isStatus = ajv.compile(StatusAnswer);

describe('videos', () => {
  const env = useVideoEnv();
  const base = () => `/library/${env.library.Id}`;

  it('creates a video in status Created, reads it back with every property of the model', async () => {
    const created = await createVideo(env, 'First');
    expect(isVideo(created), JSON.stringify(isVideo.errors)).toBe(true);
    expect(created).toMatchObject({ videoLibraryId: env.library.Id, title: 'First', status: 0, encodeProgress: 0, storageSize: 0, outputCodecs: 'x264' });
    expect(Object.keys(created).sort()).toEqual(Object.keys(Video.properties).sort());
    expect(created['thumbnailUrl']).toMatch(new RegExp(`^https://vz-${env.library.Id}-[a-z0-9]{6}\\.[^/]+/${created.guid}/thumbnail\\.jpg$`));
    const read = await env.call('GET', `${base()}/videos/${created.guid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  it('updates the title, chapters, moments and meta tags, and moves the video into a collection', async () => {
    const video = await createVideo(env, 'Before');
    const collection = (await env.call('POST', `${base()}/collections`, { name: 'Talks' })).body;
    const chapters = [{ title: 'Intro', start: 0, end: 5 }];
    const res = await env.call('POST', `${base()}/videos/${video.guid}`, {
      title: 'After',
      collectionId: collection.guid,
      chapters,
      moments: [{ label: 'Here', timestamp: 3 }],
      metaTags: [{ property: 'description', value: 'A talk' }],
    });
    expect(res.status).toBe(200);
    expect(isStatus(res.body)).toBe(true);
    expect(res.body).toEqual({ success: true, message: 'The video was updated.', statusCode: 200 });
    const read = (await env.call('GET', `${base()}/videos/${video.guid}`)).body;
    expect(read).toMatchObject({ title: 'After', collectionId: collection.guid, chapters, moments: [{ label: 'Here', timestamp: 3 }] });
    expect(read.metaTags).toEqual([{ property: 'description', value: 'A talk' }]);
  });

  it('refuses invalid bodies with the error body naming the field', async () => {
    expectErrorBody(await env.call('POST', `${base()}/videos`, {}), 400);
    const empty = await env.call('POST', `${base()}/videos`, { title: '' });
    expectErrorBody(empty, 400);
    expect(empty.body.errors[0].field).toBe('title');
    const unknownCollection = await env.call('POST', `${base()}/videos`, { title: 'x', collectionId: crypto.randomUUID() });
    expectErrorBody(unknownCollection, 400);
    expect(unknownCollection.body.errors[0].field).toBe('collectionId');
    const badChapter = await env.call('POST', `${base()}/videos/${crypto.randomUUID()}`, { chapters: [{ start: 1 }] });
    expectErrorBody(badChapter, 400);
    expectErrorBody(await env.call('GET', `${base()}/videos?orderBy=views`), 400);
    expectErrorBody(await env.call('GET', `${base()}/videos?page=0`), 400);
  });

  it('answers 404 for an unknown video, a non-GUID id and a video of another library of the account', async () => {
    expectErrorBody(await env.call('GET', `${base()}/videos/${crypto.randomUUID()}`), 404);
    expectErrorBody(await env.call('GET', `${base()}/videos/not-a-guid`), 404);
    const other = await env.createLibrary('Other');
    const theirs = (await env.call('POST', `/library/${other.Id}/videos`, { title: 'Theirs' }, other.ApiKey)).body;
    expectErrorBody(await env.call('GET', `${base()}/videos/${theirs.guid}`), 404);
    expectErrorBody(await env.call('DELETE', `${base()}/videos/${theirs.guid}`), 404);
    expect((await env.call('GET', `/library/${other.Id}/videos/${theirs.guid}`, undefined, other.ApiKey)).status).toBe(200);
  });

  it('lists newest first, pages, searches titles, filters by collection and orders by title', async () => {
    const titles = ['Charlie', 'alpha', 'Bravo', 'Delta', 'alphabet'];
    for (const title of titles) {
      await createVideo(env, title);
      env.t.clock.advance(1000);
    }
    const first = await env.call('GET', `${base()}/videos?page=1&itemsPerPage=2`);
    expect(isPage(first.body), JSON.stringify(isPage.errors)).toBe(true);
    expect(first.body).toMatchObject({ totalItems: 5, currentPage: 1, itemsPerPage: 2 });
    expect(first.body.items.map((v: { title: string }) => v.title)).toEqual(['alphabet', 'Delta']);
    const last = (await env.call('GET', `${base()}/videos?page=3&itemsPerPage=2`)).body;
    expect(last.items.map((v: { title: string }) => v.title)).toEqual(['Charlie']);
    expect((await env.call('GET', `${base()}/videos?page=4&itemsPerPage=2`)).body.items).toEqual([]);
    const search = (await env.call('GET', `${base()}/videos?search=ALPHA`)).body;
    expect(search.totalItems).toBe(2);
    expect(search.items.map((v: { title: string }) => v.title)).toEqual(['alphabet', 'alpha']);
    const byTitle = (await env.call('GET', `${base()}/videos?orderBy=title&itemsPerPage=3`)).body;
    expect(byTitle.items.map((v: { title: string }) => v.title)).toEqual(['alpha', 'alphabet', 'Bravo']);
    const collection = (await env.call('POST', `${base()}/collections`, { name: 'Picked' })).body;
    const bravo = search.items[0];
    await env.call('POST', `${base()}/videos/${bravo.guid}`, { collectionId: collection.guid });
    const inCollection = (await env.call('GET', `${base()}/videos?collection=${collection.guid}`)).body;
    expect(inCollection.items.map((v: { guid: string }) => v.guid)).toEqual([bravo.guid]);
  });

  it('deletes a video and its files; the library figures follow on the management API', async () => {
    const video = await createVideo(env, 'Doomed');
    await createVideo(env, 'Kept');
    const upload = await env.call('PUT', `${base()}/videos/${video.guid}`, Buffer.alloc(50_000, 7));
    expect(upload.status).toBe(200);
    let library = (await env.t.get(`/videolibrary/${env.library.Id}`)).body;
    expect(library).toMatchObject({ VideoCount: 2, StorageUsage: 50_000 });
    const listed = (await env.t.get('/videolibrary?page=1&perPage=5')).body.Items.find((l: { Id: number }) => l.Id === env.library.Id);
    expect(listed).toMatchObject({ VideoCount: 2, StorageUsage: 50_000 });
    const res = await env.call('DELETE', `${base()}/videos/${video.guid}`);
    expect(res.body).toEqual({ success: true, message: 'The video was deleted.', statusCode: 200 });
    expectErrorBody(await env.call('GET', `${base()}/videos/${video.guid}`), 404);
    const zone = { zoneId: String(env.library.StorageZoneId) };
    expect(await env.t.app.services.files.find(zone, `${video.guid}/original`)).toBeUndefined();
    library = (await env.t.get(`/videolibrary/${env.library.Id}`)).body;
    expect(library).toMatchObject({ VideoCount: 1, StorageUsage: 0 });
  });

  it('recordProgress: concurrent reports all land, each status change is announced once stored', async () => {
    const video = await createVideo(env, 'Progress');
    const videos = env.t.app.services.videos;
    const events: { status: number; previous: number }[] = [];
    const stop = videos.onStatus((e) => events.push({ status: e.status, previous: e.previous }));
    await videos.recordProgress(env.library.Id, video.guid, { status: 2, probe: { length: 10.6, width: 640, height: 360, framerate: 25, rotation: null } });
    await videos.recordProgress(env.library.Id, video.guid, { status: 3, encodeProgress: 10 });
    const resolutions = ['240p', '360p', '480p', '720p', '1080p'];
    await Promise.all(resolutions.map((r, i) => videos.recordProgress(env.library.Id, video.guid, { resolutionFinished: r, encodeProgress: 20 + i * 10 })));
    await videos.recordProgress(env.library.Id, video.guid, { encodeProgress: 5 });
    const read = (await env.call('GET', `${base()}/videos/${video.guid}`)).body;
    expect(read).toMatchObject({ status: 3, encodeProgress: 60, length: 10, width: 640, height: 360, framerate: 25 });
    expect(read.availableResolutions.split(',').sort()).toEqual([...resolutions].sort());
    await videos.recordProgress(env.library.Id, video.guid, { status: 4 });
    stop();
    await videos.recordProgress(env.library.Id, video.guid, { status: 5, message: { level: 3, issueCode: 7, message: 'unreadable' } });
    expect(events).toEqual([
      { status: 2, previous: 0 },
      { status: 3, previous: 2 },
      { status: 4, previous: 3 },
    ]);
    expect((await env.call('GET', `${base()}/videos/${video.guid}`)).body.transcodingMessages).toEqual([
      { timeStamp: '2026-01-01T00:00:00.000Z', level: 3, issueCode: 7, message: 'unreadable', value: null },
    ]);
  });

  it('deleting the library deletes its videos and collections', async () => {
    const video = await createVideo(env, 'Gone with it');
    await env.call('POST', `/library/${env.library.Id}/collections`, { name: 'C' });
    expect((await env.t.del(`/videolibrary/${env.library.Id}`)).status).toBe(204);
    const docs = env.t.store.docs;
    expect(await docs.get('video', env.t.accountId, video.guid)).toBeUndefined();
    expect((await docs.list('videoCollection', env.t.accountId, { parentId: String(env.library.Id), offset: 0, limit: 10 })).total).toBe(0);
  });
});

describe('collections', () => {
  const env = useVideoEnv();
  const base = () => `/library/${env.library.Id}/collections`;

  it('creates, reads with its figures, lists, renames and deletes a collection (its videos stay)', async () => {
    const created = await env.call('POST', base(), { name: 'Series' });
    expect(created.status).toBe(200);
    expect(isCollection(created.body), JSON.stringify(isCollection.errors)).toBe(true);
    expect(created.body).toMatchObject({ videoLibraryId: env.library.Id, name: 'Series', videoCount: 0, totalSize: 0, previewVideoIds: null });
    const id = created.body.guid;
    const a = await createVideo(env, 'A', { collectionId: id });
    env.t.clock.advance(1000);
    const b = await createVideo(env, 'B', { collectionId: id });
    await env.call('PUT', `/library/${env.library.Id}/videos/${a.guid}`, Buffer.alloc(1234, 1));
    const read = (await env.call('GET', `${base()}/${id}?includeThumbnails=true`)).body;
    expect(read).toMatchObject({ videoCount: 2, totalSize: 1234, previewVideoIds: `${b.guid},${a.guid}` });
    expect(read.previewImageUrls).toHaveLength(2);
    await env.call('POST', base(), { name: 'Other' });
    const page = (await env.call('GET', `${base()}?page=1&itemsPerPage=1`)).body;
    expect(page).toMatchObject({ totalItems: 2, currentPage: 1, itemsPerPage: 1 });
    expect(page.items[0].name).toBe('Other');
    expect((await env.call('GET', `${base()}?search=ser`)).body.items.map((c: { name: string }) => c.name)).toEqual(['Series']);
    expect((await env.call('POST', `${base()}/${id}`, { name: 'Renamed' })).body).toEqual({
      success: true,
      message: 'The collection was updated.',
      statusCode: 200,
    });
    expect((await env.call('GET', `${base()}/${id}`)).body.name).toBe('Renamed');
    expect((await env.call('DELETE', `${base()}/${id}`)).status).toBe(200);
    expectErrorBody(await env.call('GET', `${base()}/${id}`), 404);
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${a.guid}`)).body.collectionId).toBe('');
  });

  it('answers 404 for an unknown collection', async () => {
    expectErrorBody(await env.call('GET', `${base()}/${crypto.randomUUID()}`), 404);
    expectErrorBody(await env.call('POST', `${base()}/${crypto.randomUUID()}`, { name: 'x' }), 404);
    expectErrorBody(await env.call('DELETE', `${base()}/${crypto.randomUUID()}`), 404);
  });
});
