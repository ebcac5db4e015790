/**
 * The edge's HTTP layer: receives a node:http request or an HTTP/2 stream (receive.ts), lets the
 * pipeline's steps decide (pipeline.ts), and writes the answer (paced by the zone's throttle when it
 * has one; the differences of HTTP/2 in http2-messages.ts). Counts the body bytes that reached the
 * socket, for usage and statistics.
 *
 * Nothing a request causes escapes this layer: an error thrown while deciding or writing (in the
 * pipeline, or by node:http refusing a header) is logged and answered 500, or ends the connection
 * when the answer's head was already sent.
 */
import type { IncomingHttpHeaders, RequestListener } from 'node:http';
import type { ServerHttp2Stream } from 'node:http2';
import { pipeline, type Readable } from 'node:stream';
import { guardedListener } from '../common/last-resort.js';
import type { Delivery } from './delivery.js';
import { type AnswerTarget, type ArrivedRequest, arrivedOn, writeHead } from './http2-messages.js';
import type { EdgePipeline } from './pipeline.js';
import { receive } from './receive.js';

type Edge = Pick<EdgePipeline, 'serve'>;

export function edgeHandler(edge: Edge, scheme: 'http' | 'https', logError: (error: unknown) => void): RequestListener {
  return guardedListener((req, res) => {
    // An upgrade answered as a plain request (websockets.ts) has no body: the socket's bytes are the upgrade's.
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && (req as { upgrade?: boolean }).upgrade !== true;
    answer(edge, req, hasBody ? req : undefined, res, scheme, logError);
  }, logError);
}

/** The HTTP/2 streams of the TLS listener's sessions (its 'stream' listener). */
export function edgeStreamHandler(edge: Edge, logError: (error: unknown) => void): (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void {
  return (stream, headers) => {
    // A client's reset (RST_STREAM) is an error on the stream: it only ends this answer.
    stream.on('error', ignore);
    const method = headers[':method'];
    const hasBody = method !== 'GET' && method !== 'HEAD';
    if (hasBody && headers['expect'] === '100-continue') stream.additionalHeaders({ ':status': 100 });
    answer(edge, arrivedOn(stream, headers), hasBody ? stream : undefined, stream, 'https', logError);
  };
}

function answer(
  edge: Edge,
  req: ArrivedRequest,
  body: Readable | undefined,
  res: AnswerTarget,
  scheme: 'http' | 'https',
  logError: (error: unknown) => void,
): void {
  let delivery: Delivery | Promise<Delivery>;
  try {
    const request = receive(req, scheme);
    if (typeof request === 'string') {
      plainAnswer(res, 400, request);
      return;
    }
    delivery = edge.serve(request, body);
  } catch (error) {
    failed(res, error, logError);
    return;
  }
  if (!(delivery instanceof Promise)) {
    write(res, delivery, logError);
    return;
  }
  delivery.then(
    (d) => write(res, d, logError),
    (error: unknown) => failed(res, error, logError),
  );
}

const ignore = () => undefined;

/** Writes the answer; should node:http refuse it (a header value it will not send), the request ends in a 500. */
export function write(res: AnswerTarget, delivery: Delivery, logError: (error: unknown) => void): void {
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

function send(res: AnswerTarget, delivery: Delivery, logError: (error: unknown) => void): void {
  const { body, throttle } = delivery;
  if (res.destroyed) {
    if (body && !Buffer.isBuffer(body)) body.destroy();
    delivery.done(0);
    return;
  }
  writeHead(res, delivery.status, delivery.headers, body === undefined);
  if (body === undefined) {
    res.end();
    reportOnClose(res, delivery, reportNothing);
    return;
  }
  if (Buffer.isBuffer(body)) {
    reportOnClose(res, delivery, reportBuffer);
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
  else passOn(body, res, ignoreClosed(logError));
}

/**
 * `body` into `res`, as `pipeline(body, res, done)` but without its AbortController, whose abort at
 * every end builds a DOMException with a stack (some 20-30 µs of CPU per streamed answer, a pass
 * to an origin's every request): an error on either side destroys both and is told once, a client
 * that leaves first, or a body that closes before its end, is told as a premature close (and a
 * body's own error, when it broke off before it got here).
 */
function passOn(body: Readable, res: AnswerTarget, done: (error: NodeJS.ErrnoException | null) => void): void {
  let told = false;
  const tell = (error: NodeJS.ErrnoException | null) => {
    if (told) return;
    told = true;
    done(error);
  };
  const premature = () => Object.assign(new Error('the stream closed before its end'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  // A body that broke off before it got here (an answer held for a while) is told at once, with its error.
  if (body.destroyed || body.errored) {
    res.destroy();
    tell(body.errored ?? premature());
    return;
  }
  body.once('error', (error: Error) => {
    res.destroy();
    tell(error);
  });
  body.once('close', () => {
    if (body.readableEnded) return;
    res.destroy();
    tell(body.errored ?? premature());
  });
  res.once('error', (error: Error) => {
    body.destroy();
    tell(error);
  });
  res.once('close', () => {
    if (res.writableFinished) return tell(null);
    body.destroy();
    tell(premature());
  });
  body.pipe(res);
}

/**
 * The answer's report once it is closed: one listener function shared by every answer, the
 * delivery kept on the answer, instead of a closure and a `once` wrapper per answer (whose
 * removal at the close was a hit's largest cost in node:events; BENCHMARKS.md). An answer closes once.
 */
const DELIVERY = Symbol('edge delivery');
type Reported = AnswerTarget & { [DELIVERY]?: Delivery };

function reportOnClose(res: AnswerTarget, delivery: Delivery, report: (this: Reported) => void): void {
  (res as Reported)[DELIVERY] = delivery;
  res.on('close', report);
}

function reportNothing(this: Reported): void {
  this[DELIVERY]?.done(0);
}

/** A whole buffer's bytes count when the answer finished writing. */
function reportBuffer(this: Reported): void {
  const delivery = this[DELIVERY];
  if (delivery) delivery.done(this.writableFinished ? (delivery.body as Buffer).length : 0);
}

/** A client that leaves mid-answer is no error; an origin that breaks off mid-body is logged. */
const ignoreClosed = (logError: (error: unknown) => void) => (error: NodeJS.ErrnoException | null) => {
  if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') logError(error);
};

function failed(res: AnswerTarget, error: unknown, logError: (error: unknown) => void): void {
  logError(error);
  plainAnswer(res, 500, 'The edge failed to answer this request.');
}

/** A short text answer of the edge's own; the connection is ended instead when the head went already. */
function plainAnswer(res: AnswerTarget, status: number, text: string): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  try {
    writeHead(res, status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), server: 'edgeplane' });
    res.end(text);
  } catch {
    res.destroy();
  }
}
