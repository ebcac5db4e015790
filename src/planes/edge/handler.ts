/**
 * The edge's HTTP layer: turns a node:http request into an EdgeRequest, lets the pipeline decide,
 * and writes the answer (paced by the zone's throttle when it has one). Counts the body bytes that
 * reached the socket, for usage and statistics.
 *
 * Nothing a request causes escapes this layer: an error thrown while deciding or writing (in the
 * pipeline, or by node:http refusing a header) is logged and answered 500, or ends the connection
 * when the answer's head was already sent.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { normalisedPath } from '../../domain/edge/request-path.js';
import type { EdgeRequest } from '../../domain/edge/types.js';
import { guardedListener } from '../common/last-resort.js';
import type { Delivery } from './delivery.js';
import type { EdgePipeline } from './pipeline.js';

const NO_REQUEST = 'A request to the edge needs a Host header and a path.';
const CLIMBING_PATH = 'The path holds an escaped "/" or "\\" next to a "." or ".." segment.';

export function edgeHandler(edge: Pick<EdgePipeline, 'serve'>, scheme: 'http' | 'https', logError: (error: unknown) => void): RequestListener {
  return guardedListener((req, res) => {
    let delivery: Delivery | Promise<Delivery>;
    try {
      const request = edgeRequestOf(req, scheme);
      if (typeof request === 'string') return plainAnswer(res, 400, request);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
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
function write(res: ServerResponse, delivery: Delivery, logError: (error: unknown) => void): void {
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

function send(res: ServerResponse, delivery: Delivery, logError: (error: unknown) => void): void {
  const { body, throttle } = delivery;
  if (res.destroyed) {
    if (body && !Buffer.isBuffer(body)) body.destroy();
    delivery.done(0);
    return;
  }
  res.writeHead(delivery.status, delivery.headers);
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

function failed(res: ServerResponse, error: unknown, logError: (error: unknown) => void): void {
  logError(error);
  plainAnswer(res, 500, 'The edge failed to answer this request.');
}

/** A short text answer of the edge's own; the connection is ended instead when the head went already. */
function plainAnswer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent || res.destroyed) {
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

/**
 * The request as the edge's phases see it, its path in the one spelling they all use
 * (request-path.ts); or why it is refused (400): no host (HTTP/1.0 without Host), no origin-form
 * path, or a path that climbs out through an escaped separator.
 */
export function edgeRequestOf(req: IncomingMessage, scheme: 'http' | 'https'): EdgeRequest | string {
  let target = req.url ?? '';
  let host = req.headers.host;
  if (!target.startsWith('/')) {
    // absolute-form (`GET http://host/path`): its authority wins over the Host header (RFC 9112 §3.2.2).
    try {
      const url = new URL(target);
      host = url.host;
      target = `${url.pathname}${url.search}`;
    } catch {
      return NO_REQUEST;
    }
  }
  if (!host) return NO_REQUEST;
  const mark = target.indexOf('?');
  const path = normalisedPath(mark < 0 ? target : target.slice(0, mark));
  if (path === undefined) return CLIMBING_PATH;
  // Node joins repeated request headers itself; only Set-Cookie stays a list, which no request should send.
  const raw = req.headers;
  const headers = (raw['set-cookie'] === undefined ? raw : { ...raw, 'set-cookie': raw['set-cookie'].join(', ') }) as Record<string, string>;
  return {
    method: req.method ?? 'GET',
    scheme,
    host: hostOnly(host),
    path,
    query: mark < 0 ? '' : target.slice(mark + 1),
    headers,
    clientIp: clientIpOf(req.socket.remoteAddress),
  };
}

/** `Example.com:8082` → `example.com`; `[::1]:8082` → `::1`. */
function hostOnly(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(1, lower.indexOf(']'));
  const colon = lower.indexOf(':');
  const name = colon < 0 ? lower : lower.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

const clientIpOf = (address: string | undefined) => (address === undefined ? '0.0.0.0' : address.startsWith('::ffff:') ? address.slice(7) : address);
