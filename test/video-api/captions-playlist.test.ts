/**
 * Captions in the master playlist, read through the library's pull zone: with
 * EnableCaptionsInPlaylist, the captions of a video (added before its encode or after it) are a
 * SUBTITLES group of the master playlist, each with its own media playlist over its WebVTT file;
 * adding and deleting captions, and turning the setting off and on, write the stored master
 * playlist again, and the edge serves the new one at once.
 */
import { describe, expect, it } from 'vitest';
import { readMasterPlaylist, readMediaPlaylist } from '../../src/media/playlists.js';
import { within } from '../helpers/within.js';
import { encodedVideo, playlistUris, usePlayback } from './encoded-video.js';
import { useVideoEnv } from './helpers.js';

const env = useVideoEnv();
const play = usePlayback(env);

const SRT = '1\n00:00:00,000 --> 00:00:01,500\nHello\n\n2\n00:00:01,500 --> 00:00:02,000\nWorld\n';
const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nBonjour\n';
const base64 = (text: string) => Buffer.from(text).toString('base64');

/** The SUBTITLES tracks a master playlist announces, as `language name uri`. */
const tracksOf = (master: string) =>
  [...master.matchAll(/^#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="([^"]*)",LANGUAGE="([^"]*)",.*URI="([^"]*)"$/gm)].map(
    (m) => `${m[2]} ${m[1]} ${m[3]}`,
  );

describe('captions in the master playlist', () => {
  it('lists the captions added before and after the encode, follows deletions and the library setting', async () => {
    const lib = `/library/${env.library.Id}`;
    const addCaption = (guid: string, srclang: string, label: string, file: string) =>
      env.call('POST', `${lib}/videos/${guid}/captions/${srclang}`, { srclang, label, captionsFile: base64(file) });
    const { guid, host } = await encodedVideo(env, play, {}, { EnabledResolutions: '240p', EnableCaptionsInPlaylist: true }, async (created) => {
      expect((await addCaption(created, 'en', 'English', SRT)).status).toBe(200);
    });
    const master = async () => (await play.edge.get(host, `/${guid}/playlist.m3u8`)).text;
    /** Waits until the edge serves a master playlist with these tracks (the purge reaches it through the change feed). */
    const expectTracks = async (tracks: string[]) => {
      await within(5000, async () => JSON.stringify(tracksOf(await master())) === JSON.stringify(tracks));
      return master();
    };

    // Added before the encode: listed, its playlist and its WebVTT (converted from SubRip) served.
    const first = await expectTracks(['en English captions/en.m3u8']);
    const [variant] = readMasterPlaylist(first).variants;
    expect(variant?.playlist).toBe('240p/video.m3u8');
    expect(first).toMatch(/^#EXT-X-STREAM-INF:.*,SUBTITLES="subs"\n240p\/video\.m3u8$/m);
    const captions = await play.edge.get(host, `/${guid}/captions/en.m3u8`);
    expect(captions.status).toBe(200);
    expect(readMediaPlaylist(captions.text).segments).toEqual([{ uri: 'en.vtt', seconds: 2 }]);
    const vtt = await play.edge.get(host, `/${guid}/captions/en.vtt`);
    expect([vtt.status, vtt.headers['content-type']]).toEqual([200, 'text/vtt']);
    expect(vtt.text).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:01\.500\nHello/);

    // Added after the encode, and one deleted.
    expect((await addCaption(guid, 'fr', 'Français', VTT)).status).toBe(200);
    await expectTracks(['en English captions/en.m3u8', 'fr Français captions/fr.m3u8']);
    expect((await env.call('DELETE', `${lib}/videos/${guid}/captions/en`)).status).toBe(200);
    const afterDelete = await expectTracks(['fr Français captions/fr.m3u8']);
    expect((await play.edge.get(host, `/${guid}/captions/en.vtt`)).status).toBe(404);
    expect((await play.edge.get(host, `/${guid}/captions/fr.vtt`)).text).toBe(VTT);

    // The library's setting off: a stored job writes the playlists without captions, the variants unchanged.
    expect((await env.t.post(`/videolibrary/${env.library.Id}`, { EnableCaptionsInPlaylist: false })).status).toBe(200);
    await env.t.runJobs();
    const plain = await expectTracks([]);
    expect(plain).not.toContain('SUBTITLES');
    expect(readMasterPlaylist(plain).variants).toEqual(readMasterPlaylist(afterDelete).variants);
    expect(playlistUris(plain)).toEqual(['240p/video.m3u8']);
    expect((await env.t.post(`/videolibrary/${env.library.Id}`, { EnableCaptionsInPlaylist: true })).status).toBe(200);
    await env.t.runJobs();
    await expectTracks(['fr Français captions/fr.m3u8']);
  }, 60_000);
});
