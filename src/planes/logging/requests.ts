/**
 * The logging API's requests, parsed once into what to read: the first version's
 * `GET /{MM}-{DD}-{YY}/{pullZoneId}.log?start=&end=&order=` (pipe-separated lines of one UTC day)
 * and the JSON version's `GET /v2/pullzones/{pullZoneId}/logs?from=&to=&start=&limit=&order=`.
 * Anything else is a LoggingRefusal, answered with its status.
 */
import { ACCESS_LOG_SIZE, type AccessLogRead } from '../../domain/edge/usage/access-log.js';

const DAY_MS = 86_400_000;
const V1_PATH = /^\/(\d{2})-(\d{2})-(\d{2})\/(\d{1,18})\.log$/;
const V2_PATH = /^\/v2\/pullzones\/(\d{1,18})\/logs$/;
/** Lines one JSON answer holds at most (its `limit`), and by default. */
const V2_MAX_LIMIT = 1000;
const V2_DEFAULT_LIMIT = 100;

export interface LogQuery {
  version: 1 | 2;
  pullZoneId: number;
  /** Epoch ms: the lines timed in [from, to). */
  from: number;
  to: number;
  read: AccessLogRead;
}

/** A request the logging API refuses: its status, the JSON version's code, and what to say. */
export class LoggingRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 429,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new LoggingRefusal(400, 'invalid_request', message);

/** The start of a calendar day (UTC, epoch ms), or undefined when there is no such day (02-30, 13-01). */
export function utcDay(year: number, month: number, day: number): number | undefined {
  const from = Date.UTC(year, month - 1, day);
  const date = new Date(from);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? from : undefined;
}

export function parseLogQuery(method: string, url: string, now: number): LogQuery {
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  const params = new URLSearchParams(question < 0 ? '' : url.slice(question + 1));
  const v1 = V1_PATH.exec(path);
  const v2 = v1 ? null : V2_PATH.exec(path);
  if (!v1 && !v2)
    throw new LoggingRefusal(404, 'not_found', 'Not found: the logs are at /{MM}-{DD}-{YY}/{pullZoneId}.log and /v2/pullzones/{pullZoneId}/logs.');
  if (method !== 'GET' && method !== 'HEAD') throw new LoggingRefusal(405, 'method_not_allowed', 'Only GET reads the logs.');
  const order = params.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalid('order must be asc or desc.');
  const start = integer(params, 'start', 0);
  if (v1) {
    const [, month, day, year, id] = v1 as unknown as [string, string, string, string, string];
    const from = utcDay(2000 + Number(year), Number(month), Number(day));
    if (from === undefined) throw invalid(`${month}-${day}-${year} is not a date (MM-DD-YY).`);
    const end = integer(params, 'end', start + ACCESS_LOG_SIZE);
    if (end < start) throw invalid('end must not be below start.');
    return { version: 1, pullZoneId: Number(id), from, to: from + DAY_MS, read: { start, limit: end - start, order } };
  }
  const to = time(params, 'to', now + 1);
  const from = time(params, 'from', to - DAY_MS);
  if (from >= to) throw invalid('from must be before to.');
  const limit = integer(params, 'limit', V2_DEFAULT_LIMIT);
  if (limit < 1 || limit > V2_MAX_LIMIT) throw invalid(`limit must be from 1 to ${V2_MAX_LIMIT}.`);
  return { version: 2, pullZoneId: Number(v2![1]), from, to, read: { start, limit, order } };
}

function integer(params: URLSearchParams, name: string, fallback: number): number {
  const text = params.get(name);
  if (text === null || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text)) throw invalid(`${name} must be a whole number from 0.`);
  return Number(text);
}

/** An ISO 8601 time or epoch milliseconds. */
function time(params: URLSearchParams, name: string, fallback: number): number {
  const text = params.get(name);
  if (text === null || text === '') return fallback;
  const at = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(at)) throw invalid(`${name} must be an ISO 8601 time or epoch milliseconds.`);
  return at;
}
