/**
 * The edge's HTTP layer: receives a node:http or node:http2 request (receive.ts), lets the
 * pipeline's steps decide (pipeline.ts), and writes the answer (paced by the zone's throttle when it
 * has one; without the headers HTTP/2 forbids: http2-messages.ts). Counts the body bytes that
 * reached the socket, for usage and statistics.
 *
 * Nothing a request causes escapes this layer: an error thrown while deciding or writing (in the
 * pipeline, or by node:http refusing a header) is logged and answered 500, or ends the connection
 * when the answer's head was already sent.
 */
import type { RequestListener } from 'node:http';
import { pipeline } from 'node:stream';
import { guardedListener } from '../common/last-resort.js';
import type { Delivery } from './delivery.js';
import { answerHeaders, clientGone, type EdgeServerRequest, type EdgeServerResponse } from './http2-messages.js';
import type { EdgePipeline } from './pipeline.js';
import { receive } from './receive.js';

/** The listener of both edge servers: typed as node:http's, it is handed node:http2's request and response too (http2-messages.ts). */
export function edgeHandler(edge: Pick<EdgePipeline, 'serve'>, scheme: 'http' | 'https', logError: (error: unknown) => void): RequestListener {
  return guardedListener((req: EdgeServerRequest, res: EdgeServerResponse) => {
    let delivery: Delivery | Promise<Delivery>;
    try {
      const request = receive(req, scheme);
      if (typeof request === 'string') return plainAnswer(res, 400, request);
      // An upgrade answered as a plain request (websockets.ts) has no body: the socket's bytes are the upgrade's.
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && (req as { upgrade?: boolean }).upgrade !== true;
      delivery = edge.serve(request, hasBody ? req : undefined);
    } catch (error) {
      return failed(res, error, logError);
    }
    if (!(delivery instanceof Promise)) return write(res, delivery, logError);
    return delivery.then(
      (d) => write(res, d, logError),
      (error: unknown) => failed(res, error, logError),
    );
  }, logError);
}

/** Writes the answer; should node:http refuse it (a header value it will not send), the request ends in a 500. */
export function write(res: EdgeServerResponse, delivery: Delivery, logError: (error: unknown) => void): void {
  try {
    send(res, delivery, logError);
  } catch (error) {
    const { body } = delivery;
    if (body && !Buffer.isBuffer(body)) body.destroy();
    delivery.throttle?.destroy();
    delivery.done(0);
    failed(res, error, logError);
  }
}

function send(res: EdgeServerResponse, delivery: Delivery, logError: (error: unknown) => void): void {
  const { body, throttle } = delivery;
  if (clientGone(res)) {
    if (body && !Buffer.isBuffer(body)) body.destroy();
    delivery.done(0);
    return;
  }
  res.writeHead(delivery.status, answerHeaders(res, delivery.headers));
  if (body === undefined) {
    res.end();
    res.once('close', () => delivery.done(0));
    return;
  }
  if (Buffer.isBuffer(body)) {
    res.once('close', () => delivery.done(res.writableFinished ? body.length : 0));
    if (!throttle) {
      res.end(body);
      return;
    }
    pipeline(throttle, res, ignoreClosed(logError));
    throttle.end(body);
    return;
  }
  let sent = 0;
  body.on('data', (chunk: Buffer) => {
    sent += chunk.length;
  });
  res.once('close', () => delivery.done(sent));
  if (throttle) pipeline(body, throttle, res, ignoreClosed(logError));
  else pipeline(body, res, ignoreClosed(logError));
}

/** A client that leaves mid-answer is no error; an origin that breaks off mid-body is logged. */
const ignoreClosed = (logError: (error: unknown) => void) => (error: NodeJS.ErrnoException | null) => {
  if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') logError(error);
};

function failed(res: EdgeServerResponse, error: unknown, logError: (error: unknown) => void): void {
  logError(error);
  plainAnswer(res, 500, 'The edge failed to answer this request.');
}

/** A short text answer of the edge's own; the connection is ended instead when the head went already. */
function plainAnswer(res: EdgeServerResponse, status: number, text: string): void {
  if (res.headersSent || clientGone(res)) {
    res.destroy();
    return;
  }
  try {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), server: 'edgeplane' });
    res.end(text);
  } catch {
    res.destroy();
  }
}
