/**
 * What differs between an HTTP/1.1 and an HTTP/2 exchange at the edge (its TLS listener speaks
 * both, chosen by ALPN: listen.ts). node:http2's compatibility API hands the handler a request and
 * a response much like node:http's, but:
 * - the request's host is its `:authority` (a Host header is optional), and its headers hold the
 *   pseudo-headers (`:method`, `:path`, …), which are no headers to judge or to send an origin;
 * - an answer may not carry connection-specific headers (RFC 9113 §8.2.2): node:http2 refuses
 *   Transfer-Encoding, Upgrade and Keep-Alive, and drops Connection with a process warning;
 * - the response has no `destroyed` of its own: its stream has.
 * The rest of the edge sees one request and writes one answer, whichever protocol carried them.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type EdgeServerRequest = IncomingMessage | Http2ServerRequest;
export type EdgeServerResponse = ServerResponse | Http2ServerResponse;

const COLON = 58;
/** Hop-by-hop headers HTTP/2 has no place for (RFC 9113 §8.2.2). */
const CONNECTION_SPECIFIC = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings'];

/** An HTTP/2 request's headers as an HTTP/1.1 request carries them: no pseudo-headers, `host` from `:authority` (which wins, RFC 9113 §8.3.1). */
export function http1Headers(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const name in headers) if (name.charCodeAt(0) !== COLON) out[name] = headers[name];
  const authority = headers[':authority'];
  if (typeof authority === 'string' && authority !== '') out.host = authority;
  return out;
}

/** The answer's headers, less those HTTP/2 forbids when `res` answers over it (the headers are the answer's own: changed in place). */
export function answerHeaders<T extends Record<string, unknown>>(res: EdgeServerResponse, headers: T): T {
  if (res instanceof Http2ServerResponse) for (const name of CONNECTION_SPECIFIC) delete headers[name];
  return headers;
}

/** Whether the client is gone (its connection, or its HTTP/2 stream). */
export const clientGone = (res: EdgeServerResponse): boolean => (res instanceof Http2ServerResponse ? res.stream.destroyed : res.destroyed);
