/**
 * Cross-origin calls to the file API, so that a page served elsewhere (the web console, on the
 * API's port) can list, upload and download with a zone's password. Any origin may call: the
 * password travels in the `AccessKey` header, which a page must know to send, never in a cookie a
 * browser would add on its own, so allowing every origin grants nothing the caller lacks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_METHODS = 'GET, HEAD, PUT, DELETE';
const ALLOWED_HEADERS = 'AccessKey, Content-Type, Checksum, Override-Content-Type, AllowRootDelete';
const EXPOSED_HEADERS = 'Content-Length, Content-Type, Content-Disposition, ETag, Last-Modified';

/** Adds the cross-origin headers to a browser's request; answers its preflight (true: answered). */
export function answerCrossOrigin(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.origin === undefined) return false;
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
  res.writeHead(204, {
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
    'content-length': '0',
  });
  res.end();
  return true;
}
