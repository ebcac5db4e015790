/**
 * The deliver step for a request another edge instance sent through the origin shield: the answer
 * goes back as the origin gave it (its status and headers, `Age` on a copy), for that edge to keep
 * and shape for its client. Nothing meant for clients is applied here — no browser cache time,
 * response-phase edge rules, CORS, diagnostic headers or throttle — since the edge applies them,
 * and a second time would change what it keeps (a `Cache-Control` replaced by the browser's).
 */
import type { Readable } from 'node:stream';
import type { EdgeAnswer, EdgeRequest } from '../../domain/edge/types.js';
import type { Delivery } from './delivery.js';

export function answerToEdge(
  request: EdgeRequest,
  status: number,
  headers: Record<string, string | string[]>,
  body: Buffer | Readable,
  cacheStatus: EdgeAnswer['cacheStatus'],
  done: (bytesSent: number) => void,
): Delivery {
  const bodyless = request.method === 'HEAD' || status === 304 || status === 204;
  if (bodyless && !Buffer.isBuffer(body)) body.resume();
  return { status, headers, body: bodyless ? undefined : body, cacheStatus, done };
}
