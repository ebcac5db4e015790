/**
 * probe() with real ffprobe (the npm static build, as run.test.ts): a clip with audio, a rotated
 * one, an MPEG-TS file (which that build reads only with its workaround), and files that are no
 * video, each a clear UnreadableMediaError that does not name the server's paths.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnreadableMediaError } from '../../src/media/errors.js';
import { parseProbe, probe } from '../../src/media/probe.js';
import { bundledToolsFor, makeClip } from './clips.js';

const media = bundledToolsFor('probe');

async function unreadable(file: string): Promise<UnreadableMediaError> {
  const error = await probe(media.tools, file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnreadableMediaError);
  expect((error as Error).message).not.toContain(media.dir);
  return error as UnreadableMediaError;
}

describe('probe', () => {
  it('reads length, size, frame rate, audio and codec of a 3 s 640x360 clip', async () => {
    const info = await probe(media.tools, makeClip(media.tools, join(media.dir, 'clip.mp4')));
    expect(info).toEqual({ durationSeconds: expect.closeTo(3, 1), width: 640, height: 360, framerate: 30, rotation: 0, hasAudio: true, videoCodec: 'h264' });
  });

  it('gives the displayed size of a rotated clip, and its rotation', async () => {
    const info = await probe(media.tools, makeClip(media.tools, join(media.dir, 'rotated.mp4'), { rotate: 90, seconds: 1, audio: false }));
    expect([info.width, info.height, info.hasAudio]).toEqual([360, 640, false]);
    expect([90, 270]).toContain(info.rotation);
  });

  it('reads MPEG-TS, which the static ffprobe reads only without iconv modules', async () => {
    const info = await probe(media.tools, makeClip(media.tools, join(media.dir, 'clip.ts'), { seconds: 1, output: ['-f', 'mpegts'] }));
    expect([info.width, info.height, info.videoCodec, info.hasAudio]).toEqual([640, 360, 'h264', true]);
  });

  it('refuses garbage, an empty file, a missing file, sound alone and a playlist, each with a clear message', async () => {
    // The same bytes every run: some random 64 KB look enough like a sound format to ffprobe.
    writeFileSync(join(media.dir, 'garbage.mp4'), garbage(64 * 1024));
    expect((await unreadable(join(media.dir, 'garbage.mp4'))).message).toMatch(/^The file is not a video ffmpeg can read: .+\.$/);
    writeFileSync(join(media.dir, 'empty.mp4'), '');
    await unreadable(join(media.dir, 'empty.mp4'));
    await unreadable(join(media.dir, 'missing.mp4'));
    const sound = join(media.dir, 'sound.m4a');
    makeClip(media.tools, sound, { seconds: 1, output: ['-vn'] });
    expect((await unreadable(sound)).message).toBe('The file has no video stream.');
    // A playlist names other files (or addresses): ffmpeg would read them into the output.
    writeFileSync(join(media.dir, 'list.m3u8'), '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:/etc/passwd\n#EXT-X-ENDLIST\n');
    await unreadable(join(media.dir, 'list.m3u8'));
  });

  it('refuses ffprobe answers without a video to encode (parsed alone)', () => {
    const stream = { codec_type: 'video', codec_name: 'png', width: 10, height: 10, avg_frame_rate: '25/1' };
    expect(() => parseProbe('{"streams": [], "format": {}}')).toThrow('The file holds no media stream.');
    expect(() => parseProbe(JSON.stringify({ streams: [stream], format: { format_name: 'png_pipe' } }))).toThrow(/no duration/);
    expect(() => parseProbe(JSON.stringify({ streams: [{ ...stream, avg_frame_rate: '0/0', r_frame_rate: '0/0' }], format: { duration: '2' } }))).toThrow(
      /frame rate/,
    );
    expect(() => parseProbe(JSON.stringify({ streams: [stream], format: { format_name: 'hls', duration: '2' } }))).toThrow(/playlist/);
    expect(
      parseProbe(
        JSON.stringify({ streams: [{ ...stream, side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] }], format: { duration: '2' } }),
      ),
    ).toMatchObject({ rotation: 90 });
    expect(parseProbe(JSON.stringify({ streams: [{ ...stream, tags: { rotate: '180' } }], format: { duration: '2' } }))).toMatchObject({
      rotation: 180,
      width: 10,
    });
  });
});

/** `size` bytes that look random and are the same every run (a SHA-256 chain from a fixed seed). */
function garbage(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let block = createHash('sha256').update('garbage').digest();
  for (let at = 0; at < size; at += block.length) {
    block.copy(bytes, at);
    block = createHash('sha256').update(block).digest();
  }
  return bytes;
}
