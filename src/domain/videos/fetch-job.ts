/**
 * Fetching a video from an address (`POST /library/{id}/videos/fetch`), a stored job on the media
 * runner (`video.fetch`): the file is streamed from the address, with the headers the client gave,
 * into the video's folder as its source, exactly as an upload by PUT is (VideoMedia.upload), which
 * then queues its encoding. The addresses are judged as an origin's are (remote-file.ts). A fetch
 * that fails marks the video UploadFailed with the reason.
 */
import type { IncomingMessage } from 'node:http';
import type { JobRunner } from '../../jobs/runner.js';
import { ISSUE_CODES, MESSAGE_LEVELS, VideoStatus } from '../../schemas/video.js';
import type { Secrets } from '../../security/secrets.js';
import type { OriginAddresses } from '../edge/origin/addresses.js';
import { FETCH_JOB, type FetchJob } from './encoding-requests.js';
import type { VideoMedia } from './media.js';
import { openRemote } from './remote-file.js';
import type { VideoService } from './service.js';

export interface FetchJobDeps {
  mediaJobs: JobRunner;
  videos: VideoService;
  media: VideoMedia;
  secrets: Secrets;
  addresses: OriginAddresses;
}

export function registerFetchJob(deps: FetchJobDeps): void {
  deps.mediaJobs.register(FETCH_JOB, (payload, { signal }) => fetchVideo(deps, payload as FetchJob, signal));
}

async function fetchVideo(deps: FetchJobDeps, job: FetchJob, signal: AbortSignal): Promise<void> {
  const library = await deps.videos.keys.find(job.libraryId);
  if (!library) return;
  const headers = job.sealedHeaders ? (JSON.parse(deps.secrets.open(job.sealedHeaders)) as Record<string, string>) : {};
  let response: IncomingMessage;
  try {
    response = await openRemote(new URL(job.url), headers, deps.addresses, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    await deps.videos.recordProgress(job.libraryId, job.guid, {
      status: VideoStatus.UploadFailed,
      message: { level: MESSAGE_LEVELS.indexOf('Error'), issueCode: ISSUE_CODES.indexOf('Undefined'), message: `The video could not be fetched: ${reason}` },
    });
    return;
  }
  // Stored as an upload is; a failure there marks the video UploadFailed with its reason.
  await deps.media.upload({ ...library, canWrite: true }, job.guid, response, signal).catch((error: unknown) => {
    if (signal.aborted) throw error;
  });
}
