/** How the S3 plane answers: an XML document, an empty body, an error. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { S3Error } from './errors.js';
import { element, xmlDocument } from './xml.js';

export function sendXml(res: ServerResponse, status: number, root: string, headers: Record<string, string> = {}): void {
  const body = xmlDocument(root);
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-length': 0, ...headers });
  res.end();
}

/** The resource an error names: `/bucket/key`. */
export function sendError(req: IncomingMessage, res: ServerResponse, error: S3Error, requestId: string, resource: string): void {
  const body =
    req.method === 'HEAD'
      ? ''
      : xmlDocument(
          element('Error', [
            element('Code', error.code),
            element('Message', error.message),
            ...Object.entries(error.details).map(([name, value]) => element(name, value)),
            element('Resource', resource),
            element('RequestId', requestId),
          ]),
        );
  res.writeHead(error.status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    ...(error.status === 503 ? { 'retry-after': '1' } : {}),
    ...error.headers,
  });
  res.end(body);
}
