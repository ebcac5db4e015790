/**
 * Runs an encode plan: its ffmpeg runs one after another in the output directory, the overall
 * fraction done reported as ffmpeg writes, each rendition reported once its files are complete
 * (the master playlist rewritten first, listing the renditions finished so far, so the directory
 * is consistent whenever the caller looks). An abort kills the running ffmpeg; a failed run is a
 * MediaProcessError carrying ffmpeg's last lines; a planned file that did not appear is an error too.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runTool } from './child.js';
import { MediaProcessError } from './errors.js';
import { MASTER_PLAYLIST } from './plan.js';
import { bandwidthOf, type CaptionsTrack, codecsOf, masterPlaylist, readMediaPlaylist, type StreamFacts } from './playlists.js';
import { progressReader } from './progress.js';
import type { EncodePlan, EncodeResult, FinishedRendition, MediaTools, Rendition } from './types.js';

export interface RunOptions {
  /** The fraction of the whole plan done, rising from 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** A rendition whose files are all written (awaited before the next run starts). */
  onRendition?: (rendition: FinishedRendition) => void | Promise<void>;
  /** Aborting kills the running ffmpeg; the run rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Captions announced in the master playlist (the library's `EnableCaptionsInPlaylist`). */
  captions?: CaptionsTrack[];
  /** The source's frame rate, announced as FRAME-RATE. */
  framerate?: number;
}

/** What ffprobe says of the streams of a rendition's first segment (or of its initialization section). */
async function streamsOf(tools: MediaTools, file: string, signal?: AbortSignal): Promise<StreamFacts[]> {
  const json = await runTool({
    tool: tools.ffprobe.path,
    env: tools.ffprobe.env,
    args: [
      '-hide_banner',
      '-v',
      'error',
      '-protocol_whitelist',
      'file',
      '-print_format',
      'json',
      '-show_entries',
      'stream=codec_name,profile,level,width,height',
      `file:${file}`,
    ],
    step: 'rendition check',
    signal,
  });
  const streams = (JSON.parse(json) as { streams?: (StreamFacts & { codec_type?: string })[] }).streams ?? [];
  // Video first, as CODECS lists them.
  return [...streams].sort((a, b) => Number(b.width !== undefined) - Number(a.width !== undefined));
}

/** Measures a rendition written to disk: its announced bandwidth, and its CODECS unless the plan set them. */
async function finish(tools: MediaTools, outputDir: string, rendition: Rendition, signal?: AbortSignal): Promise<FinishedRendition> {
  const playlistPath = join(outputDir, rendition.playlist);
  const folder = join(playlistPath, '..');
  const { segments, map } = readMediaPlaylist(await readFile(playlistPath, 'utf8'));
  if (segments.length === 0) throw new MediaProcessError(`${rendition.label} ${rendition.codec}`, 0, null, ['the rendition has no segment']);
  const sizes = new Map<string, number>();
  for (const segment of segments) sizes.set(segment.uri, (await stat(join(folder, segment.uri))).size);
  const { peak, average } = bandwidthOf(segments, (uri) => sizes.get(uri) ?? 0);
  const codecs = rendition.codecs ?? codecsOf(await streamsOf(tools, join(folder, map ?? segments[0]!.uri), signal));
  return { ...rendition, bandwidth: peak, averageBandwidth: average, codecs };
}

async function filesUnder(root: string): Promise<{ path: string; bytes: number }[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const sized = await Promise.all(files.map(async (file) => ({ path: relative(root, file), bytes: (await stat(file)).size })));
  return sized.sort((a, b) => a.path.localeCompare(b.path));
}

/** Runs every step of the plan with `tools`; resolves with what was written. */
export async function runEncodePlan(tools: MediaTools, plan: EncodePlan, options: RunOptions = {}): Promise<EncodeResult> {
  const { signal, onProgress } = options;
  const finished: FinishedRendition[] = [];
  let done = 0;
  let reported = 0;
  const report = (fraction: number) => {
    if (fraction <= reported) return;
    reported = fraction;
    onProgress?.(Math.min(1, fraction));
  };
  for (const step of plan.steps) {
    const cwd = join(plan.outputDir, step.cwd);
    await mkdir(cwd, { recursive: true });
    await runTool({
      tool: tools.ffmpeg.path,
      env: tools.ffmpeg.env,
      args: step.args,
      cwd,
      step: step.name,
      signal,
      onStdoutLine: progressReader(step.mediaSeconds, (fraction) => report(done + step.weight * fraction)),
    });
    done += step.weight;
    if (step.finishes) {
      const rendition = await finish(tools, plan.outputDir, step.finishes, signal);
      finished.push(rendition);
      await writeFile(join(plan.outputDir, MASTER_PLAYLIST), masterPlaylist(finished, options.captions, options.framerate));
      await options.onRendition?.(rendition);
    }
    report(done);
  }
  const files = await filesUnder(plan.outputDir);
  const written = new Set(files.map((f) => f.path));
  const missing = plan.files.filter((file) => !written.has(file));
  if (missing.length > 0) throw new MediaProcessError('outputs', 0, null, [`ffmpeg did not write ${missing.join(', ')}`]);
  report(1);
  return { renditions: finished, files };
}
