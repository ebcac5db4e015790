/**
 * Checks one answer of the management or video API against the platform's reference response schema for its
 * operation and status (spec: "responses carry every property of the reference's response model";
 * clients written for the platform parse them). test/setup/reference-responses.ts runs it on every
 * answer the test suite produces.
 */
import type { ErrorObject } from 'ajv';
import { ALLOWED } from './reference-exceptions.js';
import { type DocumentName, referenceLocation, referenceOperation, responseValidator } from './reference-schemas.js';

export interface Answer {
  method: string;
  /** The route's path template as Fastify has it (`/pullzone/:id`); undefined when no route matched. */
  route: string | undefined;
  status: number;
  contentType: string | undefined;
  payload: unknown;
}

export type SkipReason = 'no body' | 'not JSON' | 'no route' | 'not in the reference' | 'no reference schema for the status';

export type Outcome = { checked: true; problems: string[] } | { checked: false; reason: SkipReason };

/** The container API's paths, as its reference has them. */
const CONTAINER_PATHS = /^\/(apps|registries|limits|nodes|regions|log)(\/|$)/;
/** The video plane's paths: none of them is a management API path. */
const VIDEO_PATHS = /^\/(library|oembed)(\/|$)/i;

/** The container API is served at /mc and, for the platform's command-line client, at the root; its reference has neither prefix. */
function locate(route: string): { document: DocumentName; path: string } {
  if (route === '/mc' || route.startsWith('/mc/')) return { document: 'containers', path: route.slice(3) || '/' };
  if (CONTAINER_PATHS.test(route)) return { document: 'containers', path: route };
  if (VIDEO_PATHS.test(route)) return { document: 'video', path: route };
  return { document: 'core', path: route };
}

function text(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

export function checkAnswer(answer: Answer): Outcome {
  const body = text(answer.payload);
  if (answer.method === 'HEAD' || body === undefined || body.length === 0) return { checked: false, reason: 'no body' };
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(answer.contentType ?? '')) return { checked: false, reason: 'not JSON' };
  if (answer.route === undefined) return { checked: false, reason: 'no route' };
  const { document, path } = locate(answer.route);
  const operation = referenceOperation(document, answer.method, path);
  if (!operation) return { checked: false, reason: 'not in the reference' };
  const validate = responseValidator(operation, answer.status);
  if (!validate) return { checked: false, reason: 'no reference schema for the status' };
  if (validate(JSON.parse(body))) return { checked: true, problems: [] };

  const at = `${answer.method} ${answer.route} ${answer.status} (reference: ${operation.name})`;
  const errors = (validate.errors ?? []).filter((e) => !allowed(e));
  return { checked: true, problems: errors.map((e) => `${at}: ${describe(e)}`) };
}

const allowed = (error: ErrorObject) => {
  const at = referenceLocation(error.parentSchema);
  return ALLOWED.some((a) => a.at === at && a.accept(error.data));
};

/** `/endpoints/0/stickySessions/cookieName: must NOT have fewer than 1 characters; reference: minLength 1 at containers#/…/cookieName; got ""` */
function describe(error: ErrorObject): string {
  const where = referenceLocation(error.parentSchema) ?? error.schemaPath;
  const got = JSON.stringify(error.data)?.slice(0, 80) ?? 'undefined';
  return `${error.instancePath || '/'}: ${error.message ?? 'fails'}; reference: ${error.keyword} ${JSON.stringify(error.schema)} at ${where}; got ${got}`;
}
