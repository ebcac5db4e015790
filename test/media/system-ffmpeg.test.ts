/**
 * The system's ffmpeg (Debian's 5.1; installed when missing only if asked, see test/setup/ffmpeg.ts): found
 * on PATH before the npm builds, and the same encode as run.test.ts checked with it, plus a VP9
 * rendition (fragmented MP4 segments).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMediaTools } from '../../src/media/binaries.js';
import { ensureSystemFfmpeg, SYSTEM_FFMPEG, SYSTEM_FFPROBE, type SystemFfmpeg } from '../setup/ffmpeg.js';
import { encodeClipAndCheck } from './encode-check.js';

let system: SystemFfmpeg;
let dir: string;

beforeAll(async () => {
  system = await ensureSystemFfmpeg();
  if (system.ready && system.installSeconds !== null) process.stderr.write(`system-ffmpeg: apt-get installed ffmpeg in ${system.installSeconds} s\n`);
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-media-system-'));
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the system's ffmpeg", () => {
  it('is found on PATH before the npm builds, with no workaround, and encodes 240p and 360p in x264 and VP9 with MP4 fallbacks and a watermark', {
    timeout: 90_000,
  }, async (ctx) => {
    if (!system.ready) ctx.skip(system.reason);
    const tools = await findMediaTools({}, { searchPath: '/usr/local/bin:/usr/bin:/bin' });
    expect(tools.ffmpeg).toEqual({ path: SYSTEM_FFMPEG, env: {}, origin: 'system' });
    expect(tools.ffprobe).toEqual({ path: SYSTEM_FFPROBE, env: {}, origin: 'system' });
    expect(tools.capabilities.video.x264).toBe('libx264');
    expect(tools.capabilities.video.vp9).toBe('libvpx-vp9');
    expect(tools.description).toMatch(/^ffmpeg \S+ \(system, \/usr\/bin\/ffmpeg; ffprobe \/usr\/bin\/ffprobe\): x264 libx264, vp9 libvpx-vp9, /);
    await encodeClipAndCheck(tools, dir, ['vp9']);
  });
});
