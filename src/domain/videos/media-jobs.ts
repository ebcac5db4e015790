/** The jobs that take minutes (encoding, fetching a source): they run on the media runner (src/runtime.ts). */
import { FETCH_JOB } from './encoding-requests.js';
import { ENCODE_JOB } from './media.js';

export const MEDIA_JOBS: readonly string[] = [ENCODE_JOB, FETCH_JOB];
