/**
 * One place turns every failure into the part 7 error body: domain errors, validation failures,
 * Fastify's own errors (bad JSON, wrong content type, body too large), and unexpected crashes,
 * which are logged with their cause and answered with a generic 500 that leaks nothing.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appErrorOf, type ErrorCode, type FieldProblem } from '../../domain/errors.js';
import type { ErrorBodyT } from '../../schemas/error.js';
import { fieldProblems } from '../../schemas/field-problems.js';

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'validation':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'unprocessable':
      return 422;
    case 'rate_limited':
      return 429;
    case 'unavailable':
      return 503;
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The part 7 body's `title` for a status. */
export const titleOf = (status: number): string => TITLES[status] ?? 'Error';

/** Container-platform routes (all under /mc once routed, see app.ts) speak plain problem details; the core API adds its three fields. */
const isContainerPath = (url: string) => url.startsWith('/mc/');

export function errorBody(request: FastifyRequest, status: number, detail: string, key: string, problems: FieldProblem[]): ErrorBodyT {
  // The address as the client wrote it (a container call made at the root is routed under /mc).
  const asked = request.originalUrl ?? request.url;
  const instance = asked.split('?')[0] ?? asked;
  const body: ErrorBodyT = {
    title: titleOf(status),
    status,
    detail,
    instance,
    errors: problems,
    id: String(request.id),
  };
  if (!isContainerPath(request.url)) {
    body.ErrorKey = key;
    body.Field = problems[0]?.field ?? '';
    body.Message = detail;
  }
  return body;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, detail: string, key: string, problems: FieldProblem[] = []) {
  return reply
    .code(status)
    .type('application/json')
    .send(errorBody(request, status, detail, key, problems));
}

/** An operation that needs a body got none (an empty body counts as none; see body-parsers.ts). */
const ABSENT_BODY = 'A non-empty request body is required.';

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = appErrorOf(error);
    if (appError) {
      const status = statusOf(appError.code);
      return sendError(request, reply, status, appError.message, appError.key, appError.fields);
    }
    if (error.validation && error.validationContext === 'body' && request.body === undefined) {
      return sendError(request, reply, 400, ABSENT_BODY, 'validation_error', [{ field: 'body', message: ABSENT_BODY }]);
    }
    if (error.validation) {
      const problems = fieldProblems(error.validation as never, error.validationContext ?? 'body');
      const detail = problems.length === 1 ? problems[0]!.message : 'One or more validation errors occurred.';
      return sendError(request, reply, 400, detail, 'validation_error', problems);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const [detail, key] = clientMessage(error);
      return sendError(request, reply, status, detail, key);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 500, 'An unexpected error occurred.', 'internal_error');
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, `No operation at ${request.method} ${request.url.split('?')[0]}.`, 'route.not_found'),
  );
}

/**
 * Fastify answers a few malformed requests before routing, where `setErrorHandler` never runs:
 * a URL with broken percent-encoding, a path segment over the router's length limit. Passed as
 * the `frameworkErrors` option so those get the part 7 body too.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return sendError(request, reply, 400, 'The request URL is malformed (invalid percent-encoding).', 'bad_url');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendError(request, reply, 414, 'A path segment of the request URL is too long.', 'url_too_long');
    default:
      request.log.error({ err: error }, 'framework error');
      return sendError(request, reply, 500, 'An unexpected error occurred.', 'internal_error');
  }
}

/** Fastify's messages name internals (FST_ codes); say the same in the user's terms. */
function clientMessage(error: FastifyError): [detail: string, key: string] {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ['Unsupported content type: send the body as application/json.', 'unsupported_media_type'];
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ['The request body is too large.', 'payload_too_large'];
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case undefined:
      return error.statusCode === 400 ? ['The request body is not valid JSON.', 'invalid_json'] : [error.message, 'bad_request'];
    default:
      return [error.message.replace(/^FST_\w+:\s*/, ''), 'bad_request'];
  }
}
