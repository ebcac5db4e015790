/**
 * How request bodies are read. JSON comes as application/json, text/json or application/*+json,
 * with or without parameters (`; charset=utf-8`), and is parsed with prototype poisoning refused.
 *
 * An empty body is an absent body, whatever content type comes with it: many HTTP libraries set
 * one on every request (`Content-Type: application/json` on a bodiless DELETE; .NET's empty
 * StringContent says text/plain), and the platform looks at a body only when there is one. An
 * operation that needs a body then answers 400 naming it. A non-empty body of another type is 415.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';

type Done = (error: Error | null, body?: unknown) => void;

const unsupported = () => new AppError('unsupported_media_type', 'Unsupported content type: send the body as application/json.', 'unsupported_media_type');

/** Sent with no bytes at all (HTTP/1.1: no length and no chunked stream means none), judged as Fastify does. */
function isEmpty(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/**
 * The parser for content types a scope does not read: an empty body is let through as absent,
 * anything else is refused with `refuse()` without reading it. Unknown routes keep their 404.
 */
export function emptyBodyOr(refuse: () => Error) {
  return (request: FastifyRequest, _payload: unknown, done: Done) => {
    if (request.is404 || isEmpty(request)) done(null, undefined);
    else done(refuse());
  };
}

export function registerBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  const json = (request: FastifyRequest, body: string, done: Done) => (body.length === 0 ? done(null, undefined) : parseJson(request, body, done));
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, json);
  app.addContentTypeParser('text/json', { parseAs: 'string' }, json);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json(?:\s*;.*)?$/, { parseAs: 'string' }, json);
  app.addContentTypeParser('*', emptyBodyOr(unsupported));
}
