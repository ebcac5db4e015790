/**
 * A video library's webhook: every status change of one of its videos is POSTed to the library's
 * `WebhookUrl`, with the body and the signature the platform sends, so that receivers written for
 * the platform read and verify it unchanged.
 *
 * - Body: `{"VideoLibraryId":…,"VideoGuid":"…","Status":…}`, where `Status` is the webhook's own
 *   list (WEBHOOK_STATUS), not the video model's `status`.
 * - Signature: an HMAC-SHA256 of the raw body keyed with the library's `ReadOnlyApiKey`, in
 *   lowercase hex, with its version and algorithm, in three headers named as the platform names
 *   them (SIGNATURE_HEADERS: the one place those names are written).
 * - Delivery: a stored job per attempt, so a restart loses none and the encoding never waits for a
 *   receiver; a receiver that fails (no answer within 10 s, or a status other than 2xx) is tried
 *   again after 10 s, 1 min, 5 min, 30 min, 2 h, then given up. Every attempt is kept
 *   (`WebhookDeliveries`), for the operator to list.
 * - Where: any address the edge may fetch an origin from (src/domain/edge/origin/addresses.ts):
 *   loopback and private receivers are allowed, as local development needs, unless
 *   EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES=deny; link-local, metadata and edgeplane's own listeners never.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { OriginAddresses } from '../edge/origin/addresses.js';

/** The webhook's `Status` values (its own list, not the video model's). */
export const WEBHOOK_STATUS = {
  Queued: 0,
  Processing: 1,
  Encoding: 2,
  Finished: 3,
  ResolutionFinished: 4,
  Failed: 5,
  PresignedUploadStarted: 6,
  PresignedUploadFinished: 7,
  PresignedUploadFailed: 8,
} as const;
export type WebhookStatus = (typeof WEBHOOK_STATUS)[keyof typeof WEBHOOK_STATUS];

/**
 * The webhook status announcing a video's new model status (Uploaded 1 … UploadFailed 6), or none
 * for Created (0): a video is announced once there is something to encode. A rendition finishing
 * (ResolutionFinished) is announced by the encoding itself, not by a status change.
 */
export function webhookStatusOf(videoStatus: number): WebhookStatus | undefined {
  switch (videoStatus) {
    case 1:
      return WEBHOOK_STATUS.Queued;
    case 2:
      return WEBHOOK_STATUS.Processing;
    case 3:
      return WEBHOOK_STATUS.Encoding;
    case 4:
      return WEBHOOK_STATUS.Finished;
    case 5:
    case 6:
      return WEBHOOK_STATUS.Failed;
    default:
      return undefined;
  }
}

/**
 * The signature's headers, byte for byte as the platform's receivers look them up: the one place
 * where the platform's name is written, for compatibility (reference/README.md, point 5).
 */
export const SIGNATURE_HEADERS = {
  version: 'X-BunnyStream-Signature-Version',
  algorithm: 'X-BunnyStream-Signature-Algorithm',
  signature: 'X-BunnyStream-Signature',
} as const;

/** The delays before the second, third… attempt; after the last, the delivery is given up. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000] as const;
const TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is kept with the attempt. */
const KEPT_ANSWER_BYTES = 512;

export interface WebhookEvent {
  libraryId: number;
  videoGuid: string;
  status: WebhookStatus;
}

export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({ VideoLibraryId: event.libraryId, VideoGuid: event.videoGuid, Status: event.status });
}

/** The three signature headers for `body`, keyed with the library's read-only key. */
export function signatureHeaders(body: string, readOnlyApiKey: string): Record<string, string> {
  return {
    [SIGNATURE_HEADERS.version]: 'v1',
    [SIGNATURE_HEADERS.algorithm]: 'hmac-sha256',
    [SIGNATURE_HEADERS.signature]: createHmac('sha256', readOnlyApiKey).update(body, 'utf8').digest('hex'),
  };
}

/** What one attempt came to. */
export interface AttemptOutcome {
  /** The receiver's HTTP status; 0 when none came (refused address, connection failure, timeout). */
  status: number;
  ok: boolean;
  /** Why it failed, or the start of the receiver's answer. */
  detail: string;
  durationMs: number;
}

/** Where a webhook may go: judged as an origin is, by its URL and by every address its name resolves to. */
export type ReceiverAddresses = Pick<OriginAddresses, 'urlRefusal' | 'lookupFor'>;

/** Posts `body` to `url` once; never throws. */
export function postWebhook(url: string, body: string, headers: Record<string, string>, addresses: ReceiverAddresses): Promise<AttemptOutcome> {
  const started = performance.now();
  const outcome = (status: number, detail: string): AttemptOutcome => ({
    status,
    ok: status >= 200 && status < 300,
    detail,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(outcome(0, 'the WebhookUrl is not an absolute URL'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.resolve(outcome(0, 'the WebhookUrl is not http or https'));
  const refusal = addresses.urlRefusal(target);
  if (refusal !== undefined) return Promise.resolve(outcome(0, `the WebhookUrl is ${refusal}: edgeplane sends nothing there`));
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      target,
      {
        method: 'POST',
        lookup: addresses.lookupFor(port),
        timeout: TIMEOUT_MS,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'edgeplane-webhook', ...headers },
      },
      (res) => {
        const kept: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < KEPT_ANSWER_BYTES) kept.push(chunk.subarray(0, KEPT_ANSWER_BYTES - size));
          size += chunk.length;
        });
        res.on('end', () => resolve(outcome(res.statusCode ?? 0, Buffer.concat(kept).toString('utf8'))));
        res.on('error', (error) => resolve(outcome(res.statusCode ?? 0, error.message)));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => resolve(outcome(0, error.message)));
    req.end(body);
  });
}
