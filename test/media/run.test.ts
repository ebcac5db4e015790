/**
 * Running encode plans with the npm packages' static ffmpeg (PATH searched nowhere, so the same
 * build whatever the machine has): the full encode, a rotated source, an abort (no ffmpeg left
 * running), a failure (ffmpeg's last words in the error).
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MediaProcessError } from '../../src/media/errors.js';
import { buildEncodePlan } from '../../src/media/plan.js';
import { probe } from '../../src/media/probe.js';
import { runEncodePlan } from '../../src/media/run.js';
import { bundledToolsFor, librarySettings, makeClip, probeFile } from './clips.js';
import { encodeClipAndCheck } from './encode-check.js';

const media = bundledToolsFor('run');

/** Processes whose working directory lies under `root` (every ffmpeg of a plan runs in its output directory). */
function processesUnder(root: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(root);
      } catch {
        return false; // gone meanwhile, or not ours to look at
      }
    })
    .map(Number);
}

describe('running a plan with the npm static build', () => {
  it('uses the bundled build', () => {
    expect(media.tools.ffmpeg.origin).toBe('bundled');
    expect(media.tools.description).toMatch(/^ffmpeg \S+ \(bundled, .*\): x264 libx264, /);
  });

  it('encodes 240p and 360p with MP4 fallbacks and a watermark: every file, size, playlist, thumbnail and progress', { timeout: 60_000 }, async () => {
    await encodeClipAndCheck(media.tools, mkdtempSync(join(media.dir, 'full-')));
  });

  it('turns a rotated source upright', { timeout: 30_000 }, async () => {
    const work = mkdtempSync(join(media.dir, 'rotated-'));
    const source = makeClip(media.tools, join(work, 'rotated.mp4'), { rotate: 90, seconds: 2 });
    const info = await probe(media.tools, source);
    const plan = buildEncodePlan({
      source,
      outputDir: join(work, 'out'),
      info,
      settings: librarySettings({ EnabledResolutions: '240p', EnableMP4Fallback: false }),
      capabilities: media.tools.capabilities,
      skipArtwork: true,
    });
    const result = await runEncodePlan(media.tools, plan);
    expect(result.renditions.map((r) => [r.width, r.height])).toEqual([[136, 240]]);
    const video = probeFile(media.tools, join(work, 'out', '240p/video.m3u8')).streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([136, 240]);
  });

  it('kills ffmpeg when aborted, and rejects with the reason once no ffmpeg is left', { timeout: 30_000 }, async () => {
    const work = mkdtempSync(join(media.dir, 'abort-'));
    const source = makeClip(media.tools, join(work, 'source.mp4'), { seconds: 4 });
    const info = await probe(media.tools, source);
    const outputDir = join(work, 'out');
    const plan = buildEncodePlan({
      source,
      outputDir,
      info,
      settings: librarySettings({ EnabledResolutions: '240p,360p' }),
      capabilities: media.tools.capabilities,
    });
    const controller = new AbortController();
    let runningWhenAborted: number[] = [];
    const started = performance.now();
    const run = runEncodePlan(media.tools, plan, {
      signal: controller.signal,
      // Aborted on a report while an ffmpeg runs: on a loaded machine a step's only report may be
      // its last line, read once that ffmpeg has already gone.
      onProgress: () => {
        if (controller.signal.aborted) return;
        const running = processesUnder(outputDir);
        if (running.length === 0) return;
        runningWhenAborted = running;
        controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(runningWhenAborted.length).toBe(1);
    expect(processesUnder(outputDir)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5000);
    // An already aborted signal starts nothing.
    await expect(runEncodePlan(media.tools, plan, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("fails with ffmpeg's last lines and the step when ffmpeg fails", { timeout: 30_000 }, async () => {
    const work = mkdtempSync(join(media.dir, 'fail-'));
    const source = makeClip(media.tools, join(work, 'source.mp4'), { seconds: 1 });
    const info = await probe(media.tools, source);
    const plan = buildEncodePlan({
      source,
      outputDir: join(work, 'out'),
      info,
      settings: librarySettings({ EnabledResolutions: '240p' }),
      capabilities: media.tools.capabilities,
      skipArtwork: true,
    });
    rmSync(source);
    const error = await runEncodePlan(media.tools, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaProcessError);
    const failure = error as MediaProcessError;
    expect(failure.step).toBe('240p x264');
    expect(failure.exitCode).not.toBe(0);
    expect(failure.stderr.join('\n')).toMatch(/No such file or directory/);
    expect(failure.message).toMatch(/^ffmpeg \(240p x264\) exited with code \d+: .*No such file or directory/);
  });
});
