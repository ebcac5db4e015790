/** HLS text and ffmpeg's progress lines, read and written without ffmpeg. */
import { describe, expect, it } from 'vitest';
import { bandwidthOf, captionsPlaylist, codecsOf, masterPlaylist, readMasterPlaylist, readMediaPlaylist } from '../../src/media/playlists.js';
import { progressReader } from '../../src/media/progress.js';
import type { FinishedRendition } from '../../src/media/types.js';

describe('media playlists and bandwidth', () => {
  it('reads segments, durations and the initialization section', () => {
    const text = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4.000000,\nvideo0.m4s\n#EXTINF:1.5,\nvideo1.m4s\n#EXT-X-ENDLIST\n';
    expect(readMediaPlaylist(text)).toEqual({
      segments: [
        { uri: 'video0.m4s', seconds: 4 },
        { uri: 'video1.m4s', seconds: 1.5 },
      ],
      map: 'init.mp4',
    });
  });

  it('announces the peak and the average bit rate of the segments', () => {
    const sizes: Record<string, number> = { a: 400_000, b: 300_000 };
    expect(
      bandwidthOf(
        [
          { uri: 'a', seconds: 4 },
          { uri: 'b', seconds: 2 },
        ],
        (uri) => sizes[uri]!,
      ),
    ).toEqual({ peak: 1_200_000, average: 933_334 });
  });
});

describe('CODECS', () => {
  it("names each codec as players expect, from ffprobe's profile and level", () => {
    expect(codecsOf([{ codec_name: 'h264', profile: 'High', level: 30 }, { codec_name: 'aac' }])).toBe('avc1.64001e,mp4a.40.2');
    expect(codecsOf([{ codec_name: 'h264', profile: 'Constrained Baseline', level: 31 }])).toBe('avc1.42e01f');
    expect(codecsOf([{ codec_name: 'hevc', profile: 'Main', level: 93 }])).toBe('hvc1.1.6.L93.B0');
    expect(codecsOf([{ codec_name: 'vp9', width: 1280, height: 720 }])).toBe('vp09.00.31.08');
    expect(codecsOf([{ codec_name: 'av1', profile: 'Main', level: 8 }])).toBe('av01.0.08M.08');
    expect(codecsOf([{ codec_name: 'mjpeg' }])).toBe('');
  });
});

describe('master playlist', () => {
  const rendition = (label: '240p' | '360p', width: number, height: number): FinishedRendition => ({
    label,
    codec: 'x264',
    width,
    height,
    bitrateKbps: 600,
    playlist: `${label}/video.m3u8`,
    mp4: null,
    bandwidth: 700_000,
    averageBandwidth: 650_000,
    codecs: 'avc1.640015,mp4a.40.2',
  });

  it('lists each rendition with its bandwidth, resolution and codecs, in order', () => {
    expect(masterPlaylist([rendition('240p', 426, 240), rendition('360p', 640, 360)], [], 29.97)).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=700000,AVERAGE-BANDWIDTH=650000,RESOLUTION=426x240,CODECS="avc1.640015,mp4a.40.2",FRAME-RATE=29.970',
        '240p/video.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=700000,AVERAGE-BANDWIDTH=650000,RESOLUTION=640x360,CODECS="avc1.640015,mp4a.40.2",FRAME-RATE=29.970',
        '360p/video.m3u8',
        '',
      ].join('\n'),
    );
  });

  it('reads a stored master back, so that it can be written again with captions or without a resolution', () => {
    const first = masterPlaylist(
      [rendition('240p', 426, 240), rendition('360p', 640, 360)],
      [{ language: 'en', name: 'English', uri: 'captions/en.m3u8' }],
      25,
    );
    const { variants, framerate } = readMasterPlaylist(first);
    expect(framerate).toBe(25);
    expect(variants.map((v) => [v.playlist, v.width, v.height, v.bandwidth, v.averageBandwidth, v.codecs])).toEqual([
      ['240p/video.m3u8', 426, 240, 700_000, 650_000, 'avc1.640015,mp4a.40.2'],
      ['360p/video.m3u8', 640, 360, 700_000, 650_000, 'avc1.640015,mp4a.40.2'],
    ]);
    expect(masterPlaylist(variants, [{ language: 'en', name: 'English', uri: 'captions/en.m3u8' }], framerate)).toBe(first);
    expect(masterPlaylist(variants.slice(1), [], framerate)).not.toContain('240p');
  });

  it('announces captions as a subtitles group every variant refers to', () => {
    const text = masterPlaylist([rendition('240p', 426, 240)], [{ language: 'en', name: 'English "US"', uri: 'captions/en.m3u8' }]);
    expect(text).toContain('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English US",LANGUAGE="en",AUTOSELECT=YES,DEFAULT=NO,URI="captions/en.m3u8"');
    expect(text).toContain(',SUBTITLES="subs"\n240p/video.m3u8');
    expect(captionsPlaylist('en.vtt', 9.2)).toContain('#EXTINF:10.0,\nen.vtt\n#EXT-X-ENDLIST');
  });
});

describe('progress', () => {
  it('turns blocks of key=value lines into a rising fraction, 1 at the end', () => {
    const seen: number[] = [];
    const read = progressReader(4, (f) => seen.push(f));
    for (const line of [
      'frame=10',
      'out_time_us=N/A',
      'progress=continue',
      'out_time_ms=1000000',
      'progress=continue',
      'out_time_us=3000000',
      'progress=continue',
    ])
      read(line);
    // A block that goes back in time (another output of the same run) does not lower the fraction.
    for (const line of ['out_time_us=2000000', 'progress=continue', 'garbage', 'progress=end']) read(line);
    expect(seen).toEqual([0.25, 0.75, 1]);
  });
});
