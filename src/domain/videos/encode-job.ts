/**
 * The encoding of an uploaded video, a stored job on the media runner (`video.encode`): the source
 * (`{guid}/original` in the library's storage zone) is copied to a working directory, probed,
 * encoded with ffmpeg into the platform's layout (src/media/), and the outputs are copied into the
 * video's folder — each rendition as soon as it is playable, so `availableResolutions` grows as
 * renditions finish. The video moves Uploaded → Processing → Transcoding → Finished, or Error with
 * the reason in `transcodingMessages` when ffmpeg cannot read or encode the source.
 *
 * A job interrupted (the process killed) is taken up again when its lease runs out and starts
 * over: the outputs are written again under the same names, the working directory of the dead run
 * is removed at the next start (`sweepWorkDirs`). The lease is renewed while the job runs (the
 * runner), so no other instance takes it meanwhile.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { JobRunner } from '../../jobs/runner.js';
import { MediaProcessError, UnreadableMediaError } from '../../media/errors.js';
import { buildEncodePlan } from '../../media/plan.js';
import { probe } from '../../media/probe.js';
import { runEncodePlan } from '../../media/run.js';
import type { EncodePlan, FinishedRendition, MediaTools } from '../../media/types.js';
import { ISSUE_CODES, MESSAGE_LEVELS, VideoStatus } from '../../schemas/video.js';
import { mimeTypes } from '../../files/media-types.js';
import type { FileService } from '../files/service.js';
import type { VideoLibraryImages } from '../video-libraries/images.js';
import type { EncodeJob } from './encoding-requests.js';
import { ENCODE_JOB } from './media.js';
import type { VideoService } from './service.js';
import type { LibraryAccess } from './types.js';
import { WEBHOOK_STATUS } from './webhooks.js';
import type { WebhookDeliveries } from './webhook-deliveries.js';
import type { MasterPlaylists } from './master-playlists.js';

/** How often the encoding's progress is written, at most. */
const PROGRESS_EVERY_MS = 1000;
const WORK_DIR_PREFIX = 'encode-';
/** A process's working root under the system's temporary directory, named by its pid. */
const ROOT_PREFIX = 'edgeplane-encode-';
const ROOT_NAME = /^edgeplane-encode-\d+$/;

/** This process's working root (below `tmp`). */
export const workRootOf = (tmp: string) => join(tmp, `${ROOT_PREFIX}${process.pid}`);

export interface EncodeJobDeps {
  mediaJobs: JobRunner;
  videos: VideoService;
  files: FileService;
  images: VideoLibraryImages;
  webhooks: WebhookDeliveries;
  /** Writes the master playlist again with the video's captions (master-playlists.ts). */
  playlists: MasterPlaylists;
  /** The ffmpeg and ffprobe to use, found once (src/media/binaries.ts). */
  tools: () => Promise<MediaTools>;
  /** Where working directories are made (one per job run). */
  workRoot: string;
}

type Library = Omit<LibraryAccess, 'canWrite'>;

export function registerEncodeJob(deps: EncodeJobDeps): void {
  deps.mediaJobs.register(ENCODE_JOB, (payload, { signal }) => encode(deps, payload as EncodeJob, signal));
}

/** Removes the working roots that processes no longer running left behind below `tmp` (a killed process leaves its own). */
export async function sweepWorkDirs(tmp: string): Promise<void> {
  const names = await readdir(tmp).catch(() => [] as string[]);
  // Exactly `edgeplane-encode-<pid>`: nothing else of the temporary directory is touched.
  const dead = names.filter((name) => ROOT_NAME.test(name) && !isRunning(Number(name.slice(ROOT_PREFIX.length))));
  await Promise.all(dead.map((name) => rm(join(tmp, name), { recursive: true, force: true })));
}

function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function encode(deps: EncodeJobDeps, job: EncodeJob, signal: AbortSignal): Promise<void> {
  const library = await deps.videos.keys.find(job.libraryId);
  // The library or the video went away meanwhile: nothing left to encode.
  if (!library) return;
  const video = await deps.videos.find(library, job.guid).catch(() => undefined);
  if (!video) return;
  // A resolutions cleanup removed renditions: the master playlist lists what is left.
  if (job.mode === 'playlist') return rewritePlaylist(deps, library, job.guid, video.doc.availableResolutions ?? '');
  // Packaging for DRM: edgeplane applies none, the renditions stay as they are.
  if (job.mode === 'repackage') return note(deps, library, job.guid, 'Information', 'Repackaged: this server applies no DRM, so the renditions are unchanged.');
  const source = await deps.files.find(library.zone, `${job.guid}/original`);
  if (!source) return fail(deps, library, job.guid, 'The source file is gone: upload the video again.');

  await mkdir(deps.workRoot, { recursive: true });
  const work = await mkdtemp(join(deps.workRoot, WORK_DIR_PREFIX));
  try {
    await deps.videos.recordProgress(library.libraryId, job.guid, { status: VideoStatus.Processing, encodeProgress: 0, availableResolutions: [] });
    const sourceFile = join(work, 'source');
    await pipeline(await deps.files.read(source), createWriteStream(sourceFile), { signal });
    const tools = await deps.tools();
    const info = await probe(tools, sourceFile, signal);
    await deps.videos.recordProgress(library.libraryId, job.guid, {
      status: VideoStatus.Transcoding,
      probe: { length: Math.round(info.durationSeconds), width: info.width, height: info.height, framerate: info.framerate, rotation: info.rotation },
    });
    const outputDir = join(work, 'out');
    await mkdir(outputDir);
    const plan = buildEncodePlan({
      source: sourceFile,
      outputDir,
      info,
      // Adding a codec encodes again with it among the library's (x264 is made again too).
      settings:
        job.mode === 'add-codec' && job.codec ? { ...library.library, OutputCodecs: withCodec(library.library.OutputCodecs, job.codec) } : library.library,
      capabilities: tools.capabilities,
      watermarkFile: library.library.HasWatermark ? await watermarkOf(deps, library, work) : null,
      thumbnailTimeMs: video.doc.thumbnailTime ?? null,
    });
    for (const codec of plan.unavailableCodecs) {
      await note(deps, library, job.guid, 'Warning', `This server's ffmpeg cannot encode ${codec}: left out.`);
    }
    const copied = new Set<string>();
    let lastProgress = 0;
    const result = await runEncodePlan(tools, plan, {
      signal,
      framerate: info.framerate,
      onProgress: (fraction) => {
        const now = Date.now();
        if (now - lastProgress < PROGRESS_EVERY_MS) return;
        lastProgress = now;
        void deps.videos.recordProgress(library.libraryId, job.guid, { encodeProgress: Math.min(99, Math.floor(fraction * 100)) }).catch(() => undefined);
      },
      onRendition: async (rendition) => {
        await copyRendition(deps, library, job.guid, plan, rendition, copied);
        await deps.videos.recordProgress(library.libraryId, job.guid, { resolutionFinished: rendition.label });
        await deps.webhooks.notify({ libraryId: library.libraryId, videoGuid: job.guid, status: WEBHOOK_STATUS.ResolutionFinished });
      },
    });
    // What is left: the artwork, the final master playlist, and whatever a rendition did not carry.
    for (const file of result.files) if (!copied.has(file.path) || file.path === 'playlist.m3u8') await copyOut(deps, library, job.guid, outputDir, file.path);
    // Captions added before or during the encode are listed once the renditions are all there.
    await deps.playlists.write(library, job.guid);
    // What the edge kept of an earlier encode (same names, other bytes) must not be served with the new playlists.
    await deps.playlists.purgeVideo(library, job.guid);
    const keepOriginal = library.library.KeepOriginalFiles;
    if (!keepOriginal) await deps.files.remove(library.zone, { path: `${job.guid}/original`, isDirectory: false });
    await deps.videos.recordProgress(library.libraryId, job.guid, {
      status: VideoStatus.Finished,
      encodeProgress: 100,
      availableResolutions: result.renditions.filter((r) => r.codec === 'x264').map((r) => r.label),
      thumbnailCount: plan.thumbnailCount,
      hasMP4Fallback: result.renditions.some((r) => r.mp4 !== null),
      hasOriginal: keepOriginal,
      outputCodecs: [...new Set(result.renditions.map((r) => r.codec))].join(','),
      recountStorage: true,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof UnreadableMediaError || error instanceof MediaProcessError) return fail(deps, library, job.guid, error.message);
    // The store or the files were unreachable: the runner tries the job again later.
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const withCodec = (codecs: string | null | undefined, codec: string) => [...new Set([...(codecs ?? 'x264').split(','), codec])].join(',');

/** Writes the video's master playlist again with only the renditions still available. */
async function rewritePlaylist(deps: EncodeJobDeps, library: Library, guid: string, available: string): Promise<void> {
  await deps.playlists.write(library, guid, { keep: new Set(available.split(',').filter(Boolean)) });
  await deps.videos.recordProgress(library.libraryId, guid, { recountStorage: true });
}

/** Copies one rendition's files (its playlist, segments and MP4) and the master playlist as it now stands. */
async function copyRendition(deps: EncodeJobDeps, library: Library, guid: string, plan: EncodePlan, rendition: FinishedRendition, copied: Set<string>) {
  const folder = rendition.playlist.slice(0, rendition.playlist.lastIndexOf('/'));
  const files = plan.files.filter((f) => f.startsWith(`${folder}/`) || f === rendition.mp4);
  for (const path of await withSegments(plan.outputDir, folder, files)) {
    if (copied.has(path)) continue;
    await copyOut(deps, library, guid, plan.outputDir, path);
    copied.add(path);
  }
  await copyOut(deps, library, guid, plan.outputDir, 'playlist.m3u8');
}

/** The files of a rendition's folder as written (segments are not listed in the plan: their number depends on the length). */
async function withSegments(outputDir: string, folder: string, planned: string[]): Promise<string[]> {
  const found = await readdir(join(outputDir, folder), { recursive: true, withFileTypes: true }).catch(() => []);
  const written = found.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(outputDir.length + 1));
  return [...new Set([...written, ...planned.filter((p) => !p.startsWith(`${folder}/`))])];
}

async function copyOut(deps: EncodeJobDeps, library: Library, guid: string, outputDir: string, path: string): Promise<void> {
  await deps.files.upload(library.zone, { path: `${guid}/${path}`, isDirectory: false }, createReadStream(join(outputDir, path)), {
    contentType: contentTypeOf(path),
  });
}

/** The media type stored with an output file, by its name (`.m3u8`, `.ts`, `.mp4`, `.jpg`, `.webp`…). */
const contentTypeOf = (path: string): string => mimeTypes().lookup(path) || 'application/octet-stream';

/** The library's watermark image, written into the working directory; none when it has no image. */
async function watermarkOf(deps: EncodeJobDeps, library: Library, work: string): Promise<string | null> {
  const image = await deps.images
    .read({ accountId: library.accountId, keyId: 0, keyKind: 'account', roles: ['FullAccess'] }, library.libraryId, 'watermark')
    .catch(() => undefined);
  if (!image) return null;
  const file = join(work, 'watermark');
  await writeFile(file, image.bytes);
  return file;
}

async function note(deps: EncodeJobDeps, library: Library, guid: string, level: (typeof MESSAGE_LEVELS)[number], message: string) {
  await deps.videos.recordProgress(library.libraryId, guid, {
    message: { level: MESSAGE_LEVELS.indexOf(level), issueCode: ISSUE_CODES.indexOf('Undefined'), message },
  });
}

async function fail(deps: EncodeJobDeps, library: Library, guid: string, reason: string): Promise<void> {
  await deps.videos.recordProgress(library.libraryId, guid, {
    status: VideoStatus.Error,
    message: { level: MESSAGE_LEVELS.indexOf('Error'), issueCode: ISSUE_CODES.indexOf('Undefined'), message: reason },
  });
}
