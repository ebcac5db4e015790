/** Which paths of a library's pull zone count as playback, and the seconds a segment covers. */
import { describe, expect, it } from 'vitest';
import { playedFile, segmentSeconds } from '../../src/domain/videos/played-files.js';

const GUID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('playedFile', () => {
  it('starts a view with the master playlist, and with an MP4 fallback read from its first byte', () => {
    expect(playedFile(`/${GUID}/playlist.m3u8`, undefined)).toEqual({ guid: GUID, kind: 'start' });
    expect(playedFile(`/${GUID}/play_720p.mp4`, undefined)).toEqual({ guid: GUID, kind: 'start' });
    expect(playedFile(`/${GUID}/play_720p.mp4`, 'bytes=0-')).toEqual({ guid: GUID, kind: 'start' });
    expect(playedFile(`/${GUID}/play_720p.mp4`, 'bytes=0-65535')).toEqual({ guid: GUID, kind: 'start' });
    expect(playedFile(`/${GUID}/play_720p.mp4`, 'bytes=65536-')).toBeUndefined();
    expect(playedFile(`/${GUID}/play_720p.mp4`, 'bytes=-500')).toBeUndefined();
  });

  it('reads the index of a segment of any rendition and codec', () => {
    expect(playedFile(`/${GUID}/240p/video0.ts`, undefined)).toEqual({ guid: GUID, kind: 'segment', index: 0 });
    expect(playedFile(`/${GUID}/1080p/video17.ts`, 'bytes=100-')).toEqual({ guid: GUID, kind: 'segment', index: 17 });
    expect(playedFile(`/${GUID}/720p/vp9/video3.m4s`, undefined)).toEqual({ guid: GUID, kind: 'segment', index: 3 });
  });

  it('ignores every other file: rendition playlists, init sections, thumbnails, captions, other folders', () => {
    for (const path of [
      `/${GUID}/240p/video.m3u8`,
      `/${GUID}/720p/vp9/init.mp4`,
      `/${GUID}/thumbnail.jpg`,
      `/${GUID}/captions/en.vtt`,
      `/${GUID}/original`,
      `/not-a-guid/playlist.m3u8`,
      `/${GUID.toUpperCase()}/playlist.m3u8`,
      `/x/${GUID}/playlist.m3u8`,
      `/${GUID}/240p/video1.ts/x`,
    ])
      expect(playedFile(path, undefined), path).toBeUndefined();
  });
});

describe('segmentSeconds', () => {
  it('gives each segment four seconds, the last cut at the length, none past the end', () => {
    expect(segmentSeconds(0, 10)).toEqual({ from: 0, to: 4 });
    expect(segmentSeconds(2, 10)).toEqual({ from: 8, to: 10 });
    expect(segmentSeconds(3, 10)).toEqual({ from: 12, to: 12 });
    // Length not known yet: a whole segment.
    expect(segmentSeconds(5, 0)).toEqual({ from: 20, to: 24 });
  });
});
