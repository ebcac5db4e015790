/**
 * The origin errors API on the logging plane: `GET /{pullZoneId}/{MM-dd-yyyy}`, as the platform
 * serves it on its cdn-origin-logging host. Authentication, account isolation and the rate are
 * the access log's (handler.ts): an account API key in `AccessKey`, 403 for a zone not the key's
 * account's whether or not it exists. It does not depend on `EnableLogging` (the platform records
 * origin errors for every zone). Refusals are the specification's part 7 body.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OriginErrorLog } from '../../domain/edge/origin/origin-errors.js';
import type { ErrorBodyT } from '../../schemas/error.js';
import type { OriginErrorLogEntryT, OriginErrorLogsT } from '../../schemas/origin-errors.js';
import type { OriginErrorEntry } from '../../store/types.js';
import { titleOf } from '../common/errors.js';
import { LoggingRefusal, utcDay } from './requests.js';

const PATH = /^\/(\d{1,18})\/([^/]*)$/;
const DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

export interface OriginErrorsQuery {
  pullZoneId: number;
  /** Epoch ms of the day's start (UTC). */
  from: number;
}

const pathOf = (url: string) => url.split('?', 1)[0]!;

/** Whether the path is the origin errors API's (`/{pullZoneId}/{date}`; the access log's paths start with a date or `/v2/`). */
export const isOriginErrorsPath = (url: string) => PATH.test(pathOf(url));

/** The zone and day asked for (isOriginErrorsPath said the path is the API's). */
export function parseOriginErrorsPath(method: string, url: string): OriginErrorsQuery {
  const match = PATH.exec(pathOf(url));
  if (!match) throw new LoggingRefusal(404, 'not_found', 'Not found: origin errors are at /{pullZoneId}/{MM-dd-yyyy}.');
  if (method !== 'GET' && method !== 'HEAD') throw new LoggingRefusal(405, 'method_not_allowed', 'Only GET reads the origin errors.');
  const text = match[2]!;
  const date = DATE.exec(text);
  const invalid = new LoggingRefusal(400, 'invalid_request', `"${text}" is not a date as MM-dd-yyyy (e.g. 10-29-2025).`);
  if (!date) throw invalid;
  const from = utcDay(Number(date[3]), Number(date[1]), Number(date[2]));
  if (from === undefined) throw invalid;
  return { pullZoneId: Number(match[1]), from };
}

export async function answerOriginErrors(res: ServerResponse, method: string, log: OriginErrorLog, query: OriginErrorsQuery): Promise<void> {
  const entries = await log.day(query.pullZoneId, query.from);
  const body: OriginErrorLogsT = { logs: entries.map(entryOf) };
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length, 'cache-control': 'no-store' });
  res.end(method === 'HEAD' ? undefined : bytes);
}

function entryOf(e: OriginErrorEntry): OriginErrorLogEntryT {
  const log = JSON.stringify({ RequestUrl: e.url, PullZoneId: e.pullZoneId, Message: e.message, ErrorCode: e.code, StatusCode: e.status });
  return { logId: e.logId, timestamp: e.at, log, labels: JSON.parse(e.labels) as OriginErrorLogEntryT['labels'] };
}

/** A refusal as the specification's part 7 body. */
export function refuseOriginErrors(req: IncomingMessage, res: ServerResponse, refusal: LoggingRefusal): void {
  const id = randomUUID();
  const path = pathOf(req.url ?? '/');
  const problem: ErrorBodyT = { title: titleOf(refusal.status), status: refusal.status, detail: refusal.message, instance: path, errors: [], id };
  const body = JSON.stringify(problem);
  res.writeHead(refusal.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': id,
    ...(refusal.retryAfterSeconds !== undefined && { 'retry-after': String(refusal.retryAfterSeconds) }),
  });
  res.end(body);
}
