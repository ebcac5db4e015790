/**
 * Cross-origin calls to a data plane, so that a page served elsewhere (the web console, on the
 * API's port) can call it with a resource's own key. Any origin may call: the key travels in the
 * `AccessKey` header, which a page must know to send, never in a cookie a browser would add on
 * its own, so allowing every origin grants nothing the caller lacks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a page may send to a plane, and which answer headers it may read. */
export interface CrossOriginRules {
  methods: string;
  headers: string;
  exposed: string;
}

/** Adds the cross-origin headers to a browser's request; answers its preflight (true: answered). */
export function answerCrossOrigin(req: IncomingMessage, res: ServerResponse, rules: CrossOriginRules): boolean {
  if (req.headers.origin === undefined) return false;
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-expose-headers', rules.exposed);
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
  res.writeHead(204, {
    'access-control-allow-methods': rules.methods,
    'access-control-allow-headers': rules.headers,
    'access-control-max-age': '600',
    'content-length': '0',
  });
  res.end();
  return true;
}
