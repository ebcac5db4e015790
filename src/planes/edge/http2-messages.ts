/**
 * What differs between an HTTP/1.1 exchange and an HTTP/2 stream at the edge (its TLS listener
 * speaks both, chosen by ALPN: listen.ts). HTTP/2 streams are answered on node:http2's stream API,
 * not its compatibility layer (whose request and response objects and header checks cost about 13
 * of a hit's 103 µs; BENCHMARKS.md), so the few differences are met here:
 * - the request's host is its `:authority` (a Host header is optional), and its headers hold the
 *   pseudo-headers (`:method`, `:path`, …), which are no headers to judge or to send an origin;
 * - the answer's head is the stream's `respond`, its status the `:status` pseudo-header, and it may
 *   not carry connection-specific headers (RFC 9113 §8.2.2), which node:http2 refuses.
 * The rest of the edge sees one request and writes one answer, whichever protocol carried them.
 */
import { type IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Http2Session, ServerHttp2Stream } from 'node:http2';

/** What the receive step reads of a request: node:http's IncomingMessage, or an HTTP/2 stream's head (arrivedOn). */
export interface ArrivedRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: IncomingHttpHeaders;
  httpVersionMajor: number;
  socket: { remoteAddress?: string | undefined };
}

/** Where an answer is written: a node:http response, or an HTTP/2 stream. */
export type AnswerTarget = ServerResponse | ServerHttp2Stream;

const COLON = 58;
/** Hop-by-hop headers HTTP/2 has no place for (RFC 9113 §8.2.2). */
const CONNECTION_SPECIFIC = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings'];

/** The client's address per session, read once (a session's socket is a proxy object). */
const addresses = new WeakMap<Http2Session, { remoteAddress?: string | undefined }>();

/** An HTTP/2 stream's head as the receive step reads a request. */
export function arrivedOn(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): ArrivedRequest {
  const session = stream.session;
  let socket = session ? addresses.get(session) : undefined;
  if (socket === undefined) {
    socket = { remoteAddress: session?.socket.remoteAddress };
    if (session) addresses.set(session, socket);
  }
  return { method: headers[':method'] as string | undefined, url: headers[':path'] as string | undefined, headers, httpVersionMajor: 2, socket };
}

/** An HTTP/2 request's headers as an HTTP/1.1 request carries them: no pseudo-headers, `host` from `:authority` (which wins, RFC 9113 §8.3.1). */
export function http1Headers(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const name in headers) if (name.charCodeAt(0) !== COLON) out[name] = headers[name];
  const authority = headers[':authority'];
  if (typeof authority === 'string' && authority !== '') out.host = authority;
  return out;
}

/** Sends the answer's head; over HTTP/2 without the headers it forbids (`headers` are the answer's own: changed in place). */
export function writeHead(res: AnswerTarget, status: number, headers: Record<string, string | string[]>, endsHere = false): void {
  if (res instanceof ServerResponse) {
    res.writeHead(status, headers);
    return;
  }
  for (const name of CONNECTION_SPECIFIC) if (headers[name] !== undefined) delete headers[name];
  // node:http2 copies the headers it is given: the answer's own object carries the status.
  const head = headers as Record<string, string | string[] | number>;
  head[':status'] = status;
  res.respond(head, endsHere ? ENDS_HERE : BODY_FOLLOWS);
}

const ENDS_HERE = Object.freeze({ endStream: true });
const BODY_FOLLOWS = Object.freeze({ endStream: false });
