/**
 * The rest of the video API over HTTP: captions, thumbnails, encoding requests, reports, oEmbed,
 * the unavailable features; and the key matrix over every operation (the ApiKey, the read-only
 * key on reads and writes, another library's key, none).
 */
import { describe, expect, it } from 'vitest';
import { CaptionAnswer, Video } from '../../src/schemas/video.js';
import { Heatmap, OEmbed, PlayData, ResolutionsAnswer, StorageSizeAnswer, VideoStatistics } from '../../src/schemas/video-reports.js';
import { expectErrorBody } from '../helpers/app.js';
import { schemaAjv } from '../helpers/schema-ajv.js';
import { createVideo, useVideoEnv } from './helpers.js';

const ajv = schemaAjv();
const check = (schema: object, body: unknown) => {
  const validate = ajv.compile(schema);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
};
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const SRT = '1\n00:00:01,000 --> 00:00:02,500\nHello\n';

describe('video operations', () => {
  const env = useVideoEnv();
  const v = (guid: string, rest = '') => `/library/${env.library.Id}/videos/${guid}${rest}`;

  it('adds SubRip captions as WebVTT, lists them on the video, replaces and deletes them', async () => {
    const video = await createVideo(env, 'Captioned');
    const added = await env.call('POST', v(video.guid, '/captions/en'), { label: 'English', captionsFile: Buffer.from(SRT).toString('base64') });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    check(CaptionAnswer, added.body);
    expect(added.body.data.valid).toBe(true);
    const file = await env.t.app.services.files.find({ zoneId: String(env.library.StorageZoneId) }, `${video.guid}/captions/en.vtt`);
    expect((await env.t.app.services.files.readBytes(file!)).toString()).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello\n');
    await env.call('POST', v(video.guid, '/captions/en'), { captionsFile: Buffer.from('WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n').toString('base64') });
    expect((await env.call('GET', v(video.guid))).body.captions).toEqual([{ srclang: 'en', label: 'English', version: 2 }]);
    expectErrorBody(await env.call('POST', v(video.guid, '/captions/en'), { captionsFile: Buffer.from('just words').toString('base64') }), 400);
    expectErrorBody(await env.call('POST', v(video.guid, '/captions/e%20n'), { captionsFile: Buffer.from(SRT).toString('base64') }), 400);
    expect((await env.call('DELETE', v(video.guid, '/captions/en'))).status).toBe(200);
    expect((await env.call('GET', v(video.guid))).body).toMatchObject({ captions: [], storageSize: 0 });
    expectErrorBody(await env.call('DELETE', v(video.guid, '/captions/en')), 404);
  });

  it('sets a thumbnail from the body under a new name each time; refuses what is not an image', async () => {
    const video = await createVideo(env, 'Thumb');
    const res = await env.call('POST', v(video.guid, '/thumbnail'), PNG);
    expect(res.status).toBe(200);
    const name = (await env.call('GET', v(video.guid))).body.thumbnailFileName;
    expect(name).toMatch(/^thumbnail_[0-9a-f]{8}\.png$/);
    await env.call('POST', v(video.guid, '/thumbnail'), PNG);
    const after = (await env.call('GET', v(video.guid))).body;
    expect(after.thumbnailFileName).not.toBe(name);
    expect(after.storageSize).toBe(PNG.length);
    expectErrorBody(await env.call('POST', v(video.guid, '/thumbnail'), Buffer.from('not an image')), 400);
    expectErrorBody(await env.call('POST', v(video.guid, '/thumbnail?thumbnailUrl=ftp://example.com/a.png')), 400);
  });

  it('re-encodes and adds a codec only with the original, repackages only with enterprise DRM, cleans up renditions', async () => {
    const video = await createVideo(env, 'Encode');
    expectErrorBody(await env.call('POST', v(video.guid, '/reencode')), 400);
    await env.call('PUT', v(video.guid), Buffer.alloc(100, 1));
    await env.t.store.jobs.cancel('video.encode', () => true);
    const files = env.t.app.services.files;
    const zone = (await env.t.app.services.videos.keys.find(env.library.Id))!.zone;
    for (const name of ['240p/video.m3u8', '240p/video0.ts', '720p/video.m3u8', 'play_720p.mp4']) {
      await files.upload(zone, { path: `${video.guid}/${name}`, isDirectory: false }, (await import('node:stream')).Readable.from([Buffer.alloc(10)]));
    }
    await env.t.app.services.videos.recordProgress(env.library.Id, video.guid, {
      status: 4,
      availableResolutions: ['240p', '720p'],
      hasMP4Fallback: true,
      recountStorage: true,
    });
    const reencode = await env.call('POST', v(video.guid, '/reencode'));
    expect(reencode.status).toBe(200);
    check(Video, reencode.body);
    expect(reencode.body).toMatchObject({ status: 1, encodeProgress: 0 });
    const jobs: unknown[] = [];
    await env.t.store.jobs.cancel('video.encode', (p) => jobs.push(p) > 0);
    expect(jobs).toEqual([{ libraryId: env.library.Id, guid: video.guid, mode: 'reencode' }]);
    expectErrorBody(await env.call('PUT', v(video.guid, '/outputs/1')), 400);
    expectErrorBody(await env.call('PUT', v(video.guid, '/outputs/0')), 400);
    expectErrorBody(await env.call('PUT', v(video.guid, '/outputs/9')), 400);
    expectErrorBody(await env.call('POST', v(video.guid, '/repackage')), 400);
    const dry = await env.call('POST', v(video.guid, '/resolutions/cleanup?resolutionsToDelete=720p&deleteMp4Files=true&dryRun=true'));
    expect(dry.body.message).toBe('Would remove: 720p/, play_720p.mp4.');
    const storage = await env.call('GET', v(video.guid, '/storage'));
    check(StorageSizeAnswer, storage.body);
    expect(storage.body.data).toMatchObject({ encoded: { x264_240p: { size: 20 }, x264_720p: { size: 10 } }, mp4Fallback: 10, originals: 100 });
    const cleaned = await env.call('POST', v(video.guid, '/resolutions/cleanup?resolutionsToDelete=720p&deleteMp4Files=true'));
    expect(cleaned.body.message).toBe('Removed: 720p/, play_720p.mp4.');
    const resolutions = await env.call('GET', v(video.guid, '/resolutions'));
    check(ResolutionsAnswer, resolutions.body);
    expect(resolutions.body.data).toMatchObject({
      availableResolutions: ['240p'],
      storageResolutions: [{ resolution: '240p', path: '240p/' }],
      mp4Resolutions: [],
      hasOriginal: true,
    });
    expect((await env.call('GET', v(video.guid))).body).toMatchObject({ availableResolutions: '240p', hasMP4Fallback: false, storageSize: 120 });
    await env.t.store.jobs.cancel('video.encode', () => true);
  });

  it('fetch creates a video and queues the fetch with its headers sealed; refused addresses are 400', async () => {
    const res = await env.call('POST', `/library/${env.library.Id}/videos/fetch`, {
      url: 'https://example.com/media/clip.mp4',
      headers: { authorization: 'Bearer s3cret' },
    });
    expect(res.status).toBe(200);
    const payloads: { guid: string; url: string; sealedHeaders: string }[] = [];
    await env.t.store.jobs.cancel('video.fetch', (p) => payloads.push(p as never) > 0);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]!.url).toBe('https://example.com/media/clip.mp4');
    expect(payloads[0]!.sealedHeaders).not.toContain('s3cret');
    expect(JSON.parse(env.t.app.services.videoEncodingRequests['secrets'].open(payloads[0]!.sealedHeaders))).toEqual({ authorization: 'Bearer s3cret' });
    expect((await env.call('GET', v(payloads[0]!.guid))).body).toMatchObject({ title: 'clip.mp4', status: 0 });
    expectErrorBody(await env.call('POST', `/library/${env.library.Id}/videos/fetch`, { url: 'file:///etc/passwd' }), 400);
    expectErrorBody(await env.call('POST', `/library/${env.library.Id}/videos/fetch`, { url: 'http://169.254.169.254/latest' }), 400);
  });

  it('reports play data, heatmap, statistics and oEmbed in the reference shapes', async () => {
    const video = await createVideo(env, 'Report');
    const play = await env.call('GET', v(video.guid, '/play'));
    check(PlayData, play.body);
    expect(play.body.videoPlaylistUrl).toMatch(new RegExp(`^https://vz-${env.library.Id}-[a-z0-9]{6}\\.[^/]+/${video.guid}/playlist\\.m3u8$`));
    expect(play.body).toMatchObject({ pullZoneId: env.library.PullZoneId, isPlayable: false, preferredPlaybackSource: 'None' });
    check(PlayData, (await env.call('GET', v(video.guid, '/play/heatmap'))).body);
    const heatmap = await env.call('GET', v(video.guid, '/heatmap'));
    check(Heatmap, heatmap.body);
    const stats = await env.call('GET', `/library/${env.library.Id}/statistics?dateFrom=2025-12-25T00:00:00Z&dateTo=2026-01-01T00:00:00Z`);
    check(VideoStatistics, stats.body);
    expect(Object.keys(stats.body.viewsChart)).toHaveLength(8);
    expect((await env.call('GET', `/library/${env.library.Id}/statistics?hourly=true&videoGuid=${video.guid}`)).status).toBe(200);
    expectErrorBody(await env.call('GET', `/library/${env.library.Id}/statistics?videoGuid=${crypto.randomUUID()}`), 404);
    const embed = `http://video.localhost/embed/${env.library.Id}/${video.guid}`;
    const oembed = await env.call('GET', `/OEmbed?url=${encodeURIComponent(embed)}&maxWidth=640`, undefined, null);
    check(OEmbed, oembed.body);
    expect(oembed.body).toMatchObject({ type: 'video', title: 'Report', width: 640, height: 360 });
    expect(oembed.body.html).toContain(`src="${embed}"`);
    expectErrorBody(await env.call('GET', '/OEmbed?url=https://example.com/other', undefined, null), 400);
    expectErrorBody(await env.call('GET', `/OEmbed?url=${encodeURIComponent(`http://x/embed/999999/${video.guid}`)}`, undefined, null), 404);
  });

  it('transcription and generated metadata answer 400 as for a library without them', async () => {
    const video = await createVideo(env, 'Words');
    expectErrorBody(await env.call('POST', v(video.guid, '/transcribe'), { targetLanguages: ['en'] }), 400);
    expectErrorBody(await env.call('POST', v(video.guid, '/smart'), {}), 400);
    expectErrorBody(await env.call('POST', v(crypto.randomUUID(), '/smart'), {}), 404);
  });

  it('keys: the ApiKey does all, the read-only key reads only, another library key and no key nothing', async () => {
    const video = await createVideo(env, 'Keys');
    const other = await env.createLibrary('Other');
    const id = env.library.Id;
    const collection = (await env.call('POST', `/library/${id}/collections`, { name: 'K' })).body.guid;
    const reads = [
      `/library/${id}/videos/${video.guid}`,
      `/library/${id}/videos`,
      `/library/${id}/collections`,
      `/library/${id}/collections/${collection}`,
      `/library/${id}/videos/${video.guid}/play`,
      `/library/${id}/videos/${video.guid}/play/heatmap`,
      `/library/${id}/videos/${video.guid}/heatmap`,
      `/library/${id}/statistics`,
      `/library/${id}/videos/${video.guid}/resolutions`,
      `/library/${id}/videos/${video.guid}/storage`,
    ];
    const writes: [string, string, unknown?][] = [
      ['POST', `/library/${id}/videos`, { title: 'x' }],
      ['POST', `/library/${id}/videos/${video.guid}`, { title: 'y' }],
      ['DELETE', `/library/${id}/videos/${video.guid}`],
      ['PUT', `/library/${id}/videos/${video.guid}`, Buffer.alloc(10)],
      ['POST', `/library/${id}/collections`, { name: 'z' }],
      ['POST', `/library/${id}/collections/${collection}`, { name: 'z' }],
      ['DELETE', `/library/${id}/collections/${collection}`],
      ['POST', `/library/${id}/videos/${video.guid}/reencode`],
      ['PUT', `/library/${id}/videos/${video.guid}/outputs/0`],
      ['POST', `/library/${id}/videos/${video.guid}/repackage`],
      ['POST', `/library/${id}/videos/fetch`, { url: 'https://example.com/a.mp4' }],
      ['POST', `/library/${id}/videos/${video.guid}/thumbnail`, PNG],
      ['POST', `/library/${id}/videos/${video.guid}/captions/en`, { captionsFile: Buffer.from(SRT).toString('base64') }],
      ['DELETE', `/library/${id}/videos/${video.guid}/captions/en`],
      ['POST', `/library/${id}/videos/${video.guid}/transcribe`, {}],
      ['POST', `/library/${id}/videos/${video.guid}/smart`, {}],
      ['POST', `/library/${id}/videos/${video.guid}/resolutions/cleanup`],
    ];
    for (const url of reads) {
      expect((await env.call('GET', url, undefined, env.library.ReadOnlyApiKey)).status, url).toBe(200);
      expectErrorBody(await env.call('GET', url, undefined, null), 401);
      expectErrorBody(await env.call('GET', url, undefined, other.ApiKey), 401);
      expectErrorBody(await env.call('GET', url, undefined, 'x'.repeat(1000)), 401);
    }
    for (const [method, url, body] of writes) {
      expectErrorBody(await env.call(method as 'POST', url, body, env.library.ReadOnlyApiKey), 403);
      expectErrorBody(await env.call(method as 'POST', url, body, null), 401);
      expectErrorBody(await env.call(method as 'POST', url, body, other.ApiKey), 401);
    }
    // Nothing changed; an unknown library is the same 401 as a wrong key.
    expect((await env.call('GET', `/library/${id}/videos/${video.guid}`)).body.title).toBe('Keys');
    expectErrorBody(await env.call('GET', '/library/999999/videos'), 401);
    // A key reset on the management API takes effect at once.
    await env.t.post(`/videolibrary/${id}/resetApiKey`);
    expectErrorBody(await env.call('GET', `/library/${id}/videos`), 401);
    await env.t.store.jobs.cancel('video.fetch', () => true);
  });
});
