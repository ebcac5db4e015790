/**
 * The receive step: a node:http request or an HTTP/2 stream's head as the edge's steps see it (an
 * EdgeRequest), its path in the one spelling they all use (request-path.ts), its host without port;
 * or why it is refused.
 */
import { normalisedPath } from '../../domain/edge/request-path.js';
import type { EdgeRequest } from '../../domain/edge/types.js';
import { type ArrivedRequest, http1Headers } from './http2-messages.js';

const NO_REQUEST = 'A request to the edge needs a Host header and a path.';
const CLIMBING_PATH = 'The path holds an escaped "/" or "\\" next to a "." or ".." segment.';

/**
 * The request, or why it is refused (400): no host (HTTP/1.0 without Host), no origin-form
 * path, or a path that climbs out through an escaped separator.
 */
export function receive(req: ArrivedRequest, scheme: 'http' | 'https'): EdgeRequest | string {
  let target = req.url ?? '';
  // HTTP/2 names the host in `:authority`; its pseudo-headers are no headers (http2-messages.ts).
  const raw = req.httpVersionMajor === 2 ? http1Headers(req.headers) : req.headers;
  let host = raw.host;
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
