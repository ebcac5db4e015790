/**
 * Fetching a video from an address (`POST /library/{id}/videos/fetch`), a stored job on the media
 * runner (`video.fetch`): the file is streamed from the address, with the headers the client gave,
 * into the video's folder as its source, exactly as an upload by PUT is (VideoMedia.upload), which
 * then queues its encoding. The address is judged as an origin's is, and so is every address a
 * redirect leads to (at most 5). A fetch that fails marks the video UploadFailed with the reason.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { JobRunner } from '../../jobs/runner.js';
import { ISSUE_CODES, MESSAGE_LEVELS, VideoStatus } from '../../schemas/video.js';
import type { Secrets } from '../../security/secrets.js';
import type { OriginAddresses } from '../edge/origin/addresses.js';
import { FETCH_JOB, type FetchJob } from './encoding-requests.js';
import type { VideoMedia } from './media.js';
import type { VideoService } from './service.js';

const MAX_REDIRECTS = 5;
/** No byte for this long ends the fetch. */
const IDLE_MS = 30_000;

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
    response = await get(new URL(job.url), headers, deps.addresses, signal);
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

/** The answer to a GET of `url` (redirects followed, each address judged), or why there is none. */
async function get(url: URL, headers: Record<string, string>, addresses: OriginAddresses, signal: AbortSignal): Promise<IncomingMessage> {
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} addresses are not fetched`);
    const refusal = addresses.urlRefusal(url);
    if (refusal !== undefined) throw new Error(`${url.host} is ${refusal}`);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const client = url.protocol === 'https:' ? https : http;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.get(url, { headers, lookup: addresses.lookupFor(port), timeout: IDLE_MS, signal }, resolve);
      request.on('timeout', () => request.destroy(new Error(`no answer from ${url.host} within ${IDLE_MS / 1000} s`)));
      request.on('error', reject);
    });
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    response.resume();
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      const next = new URL(location, url);
      // The client's headers (credentials, often) go to the host it named, not to one a redirect names.
      if (next.host !== url.host) headers = {};
      url = next;
      continue;
    }
    throw new Error(`${url.host} answered ${status}`);
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}
