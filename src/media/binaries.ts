/**
 * Which ffmpeg and ffprobe encode, chosen once: the paths the configuration names
 * (`EDGEPLANE_FFMPEG`, `EDGEPLANE_FFPROBE`), else the ones on PATH (a distribution's, such as
 * Debian's ffmpeg 5.1), else the static builds the npm packages `@ffmpeg-installer/ffmpeg` and
 * `@ffprobe-installer/ffprobe` bring, so that `npm ci` alone is enough. What the chosen ffmpeg can
 * encode is learnt from `ffmpeg -encoders`, and the plan adapts to it.
 *
 * The static ffprobe of the npm package crashes (SIGSEGV) on any MPEG-TS file when it finds the
 * system's iconv modules (its static C library loads them for the stream's service names); pointed
 * at no modules (`GCONV_PATH`) it reads them. That is the one workaround, given to that build only.
 * (The static ffmpeg's known faults, with `-master_pl_name` and `name:` in `var_stream_map`, do not
 * concern the plans: they make one rendition per run and write the master playlist themselves.)
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { runTool } from './child.js';
import { MediaToolsMissingError } from './errors.js';
import type { EncoderCapabilities, MediaTools, OutputCodec, Tool, ToolsOrigin } from './types.js';

export interface ToolsChoice {
  /** `EDGEPLANE_FFMPEG`, when set. */
  ffmpegPath?: string | undefined;
  /** `EDGEPLANE_FFPROBE`, when set. */
  ffprobePath?: string | undefined;
}

export interface ToolsSearch {
  /** Directories searched for `ffmpeg` and `ffprobe` (default: the PATH variable); '' searches none. */
  searchPath?: string;
}

/** Encoders tried for each codec, the preferred first (SVT-AV1 is many times faster than libaom). */
const ENCODERS: Record<OutputCodec, string[]> = {
  x264: ['libx264'],
  vp9: ['libvpx-vp9'],
  hevc: ['libx265'],
  av1: ['libsvtav1', 'libaom-av1'],
};
const WEBP_ENCODERS = ['libwebp_anim', 'libwebp'];
/** Where the static ffprobe looks for iconv modules: nowhere (see above). */
const NO_ICONV_MODULES = { GCONV_PATH: '/nonexistent/edgeplane-no-gconv' };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return null;
}

/** The binary of an npm package of static builds (loaded from node_modules, in sources and bundle alike), or null. */
function bundled(pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): Tool | null {
  try {
    const { path } = createRequire(import.meta.url)(pkg) as { path: string };
    return executable(path) ? { path, env: NO_ICONV_MODULES, origin: 'bundled' } : null;
  } catch {
    return null; // the package throws when it has no build for this platform
  }
}

function located(path: string, origin: ToolsOrigin): Tool {
  return { path, env: {}, origin };
}

/** Chooses the binaries (see the file's comment); throws MediaToolsMissingError when there are none. */
export function chooseTools(choice: ToolsChoice, search: ToolsSearch = {}): { ffmpeg: Tool; ffprobe: Tool } {
  const searchPath = search.searchPath ?? process.env['PATH'] ?? '';
  const ffmpeg = choice.ffmpegPath
    ? located(choice.ffmpegPath, 'configured')
    : ((p) => (p ? located(p, 'system') : bundled('@ffmpeg-installer/ffmpeg')))(onPath('ffmpeg', searchPath));
  if (!ffmpeg) throw new MediaToolsMissingError('No ffmpeg: none on PATH and no build in @ffmpeg-installer/ffmpeg. Install ffmpeg or set EDGEPLANE_FFMPEG.');
  const beside = ffmpeg.origin === 'configured' ? join(dirname(ffmpeg.path), 'ffprobe') : null;
  const ffprobe = choice.ffprobePath
    ? located(choice.ffprobePath, 'configured')
    : beside && existsSync(beside) && executable(beside)
      ? located(beside, 'configured')
      : ((p) => (p ? located(p, 'system') : bundled('@ffprobe-installer/ffprobe')))(onPath('ffprobe', searchPath));
  if (!ffprobe)
    throw new MediaToolsMissingError('No ffprobe: none on PATH and no build in @ffprobe-installer/ffprobe. Install ffmpeg or set EDGEPLANE_FFPROBE.');
  return { ffmpeg, ffprobe };
}

/** `ffmpeg version 5.1.6-0+deb12u1 Copyright …` → `5.1.6-0+deb12u1`. */
function versionOf(output: string): string {
  return /version\s+(\S+)/.exec(output)?.[1] ?? 'unknown';
}

/** Reads `ffmpeg -encoders`: ` V..X.. libaom-av1   libaom AV1 (codec av1)` → name and whether it is experimental. */
export function parseEncoders(output: string): Map<string, { experimental: boolean }> {
  const encoders = new Map<string, { experimental: boolean }>();
  for (const match of output.matchAll(/^\s([VAS.][F.][S.][X.][B.][D.])\s+([A-Za-z0-9_-]+)\s/gm)) {
    encoders.set(match[2]!, { experimental: match[1]![3] === 'X' });
  }
  return encoders;
}

export function capabilitiesOf(version: string, encodersOutput: string): EncoderCapabilities {
  const encoders = parseEncoders(encodersOutput);
  const pick = (names: string[]) => names.find((name) => encoders.has(name)) ?? null;
  const video = {
    x264: pick(ENCODERS.x264),
    vp9: pick(ENCODERS.vp9),
    hevc: pick(ENCODERS.hevc),
    av1: pick(ENCODERS.av1),
  };
  const experimental = [...encoders].filter(([, e]) => e.experimental).map(([name]) => name);
  return { version, video, experimental, webp: pick(WEBP_ENCODERS) };
}

function describe(ffmpeg: Tool, ffprobe: Tool, capabilities: EncoderCapabilities): string {
  const codecs = (Object.entries(capabilities.video) as [OutputCodec, string | null][])
    .map(([codec, encoder]) => `${codec} ${encoder ?? 'unavailable'}`)
    .join(', ');
  return `ffmpeg ${capabilities.version} (${ffmpeg.origin}, ${ffmpeg.path}; ffprobe ${ffprobe.path}): ${codecs}`;
}

/** What each pair of binaries was found to do, learnt once per process (a run of each costs 0.3–1 s). */
const learnt = new Map<string, Promise<MediaTools>>();

/**
 * Chooses the binaries and learns what the ffmpeg encodes (three short runs, once per process for
 * the same binaries: a failure is not kept, so a later call tries again). Throws
 * MediaToolsMissingError when a binary does not run, or when the ffmpeg has no libx264 (every
 * library's output includes x264).
 */
export function findMediaTools(choice: ToolsChoice, search: ToolsSearch = {}): Promise<MediaTools> {
  let tools: ReturnType<typeof chooseTools>;
  try {
    tools = chooseTools(choice, search);
  } catch (error) {
    return Promise.reject(error);
  }
  const key = JSON.stringify(tools);
  let found = learnt.get(key);
  if (!found) {
    found = learn(tools.ffmpeg, tools.ffprobe);
    learnt.set(key, found);
    found.catch(() => learnt.delete(key));
  }
  return found;
}

async function learn(ffmpeg: Tool, ffprobe: Tool): Promise<MediaTools> {
  const run = (tool: Tool, args: string[]) => runTool({ tool: tool.path, args, env: tool.env, step: 'capabilities' });
  let versionOutput: string;
  let encodersOutput: string;
  try {
    [versionOutput, encodersOutput] = await Promise.all([
      run(ffmpeg, ['-hide_banner', '-version']),
      run(ffmpeg, ['-hide_banner', '-encoders']),
      run(ffprobe, ['-hide_banner', '-version']),
    ]);
  } catch (cause) {
    if (cause instanceof MediaToolsMissingError) throw cause;
    throw new MediaToolsMissingError(`ffmpeg or ffprobe does not run (${ffmpeg.path}, ${ffprobe.path}): ${(cause as Error).message}`, { cause });
  }
  const capabilities = capabilitiesOf(versionOf(versionOutput), encodersOutput);
  if (capabilities.video.x264 === null) throw new MediaToolsMissingError(`${ffmpeg.path} has no libx264 encoder, which every encoding uses.`);
  return { ffmpeg, ffprobe, capabilities, description: describe(ffmpeg, ffprobe, capabilities) };
}
