/**
 * The logging plane's requests: the `AccessKey` header names an account API key (read-only keys
 * read too), the pull zone must be that account's (else 403, whether or not it exists: a key
 * learns nothing of other accounts' zones), and its logging on (else 404). The lines come from
 * the access log in the store, so every instance's are there. 30 requests per 10 s per zone, as
 * the platform allows; `Accept-Encoding` is honoured as at the edge (gzip or Brotli).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyService } from '../../domain/api-keys/service.js';
import type { DocumentRepo } from '../../domain/documents.js';
import { negotiateCoding } from '../../domain/edge/compression/accept-encoding.js';
import { compressBody } from '../../domain/edge/compression/compressors.js';
import { jsonLine, parseLine } from '../../domain/edge/logs/line.js';
import type { EdgeAccessLog } from '../../domain/edge/usage/access-log.js';
import type { Principal } from '../../domain/principal.js';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import { TokenBuckets } from '../../security/throttle.js';
import type { Store } from '../../store/types.js';
import type { OriginErrorLog } from '../../domain/edge/origin/origin-errors.js';
import { answerOriginErrors, isOriginErrorsPath, parseOriginErrorsPath, refuseOriginErrors } from './origin-errors.js';
import { type LogQuery, LoggingRefusal, parseLogQuery } from './requests.js';

/** No real key is this long: bounds the hashing a stranger can cause. */
const MAX_KEY_LENGTH = 256;
/** The platform's rate: 30 requests in 10 s per zone. */
const RATE = { perSecond: 3, burst: 30 };

export interface LoggingDeps {
  store: Store;
  apiKeys: ApiKeyService;
  pullZones: DocumentRepo<PullZoneT>;
  accessLog: EdgeAccessLog;
  /** The zones' origin errors (origin-errors.ts). */
  originErrors: OriginErrorLog;
}

export function loggingHandler(deps: LoggingDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const buckets = new TokenBuckets(RATE.perSecond, RATE.burst, Date.now);
  return async (req, res) => {
    const method = req.method ?? 'GET';
    let query: LogQuery | undefined;
    const originErrors = isOriginErrorsPath(req.url ?? '/');
    try {
      if (originErrors) {
        const errorsQuery = parseOriginErrorsPath(method, req.url ?? '/');
        await ownZone(deps, req, errorsQuery.pullZoneId);
        const allowed = buckets.take(String(errorsQuery.pullZoneId));
        if (!allowed.allowed)
          throw new LoggingRefusal(429, 'rate_limited', 'Too many requests for this pull zone: 30 per 10 seconds.', allowed.retryAfterSeconds);
        return await answerOriginErrors(res, method, deps.originErrors, errorsQuery);
      }
      query = parseLogQuery(method, req.url ?? '/', Date.now());
      const zone = await ownZone(deps, req, query.pullZoneId);
      if (!zone.doc.EnableLogging) throw new LoggingRefusal(404, 'logging_disabled', 'Logging is off for this pull zone (EnableLogging).');
      const allowed = buckets.take(String(query.pullZoneId));
      if (!allowed.allowed)
        throw new LoggingRefusal(429, 'rate_limited', 'Too many requests for this pull zone: 30 per 10 seconds.', allowed.retryAfterSeconds);
      const asked = query.version === 2 ? { ...query.read, limit: query.read.limit + 1 } : query.read;
      const lines = await deps.accessLog.readBetween(query.pullZoneId, query.from, query.to, asked);
      await answer(req, res, method, query.version === 1 ? plainBody(lines) : jsonBody(lines, query), query.version === 1 ? 'text/plain' : 'application/json');
    } catch (error) {
      if (!(error instanceof LoggingRefusal)) throw error;
      if (originErrors) return refuseOriginErrors(req, res, error);
      refuse(res, error, query?.version ?? (req.url?.startsWith('/v2/') ? 2 : 1));
    }
  };
}

/** The key's account's zone, else 401 (no key) or 403 (whether or not the zone exists). */
async function ownZone(deps: LoggingDeps, req: IncomingMessage, pullZoneId: number) {
  const principal = await authenticate(deps.apiKeys, req.headers['accesskey']);
  const zone = await deps.pullZones.find(deps.store, principal.accountId, pullZoneId);
  if (!zone) throw new LoggingRefusal(403, 'forbidden', 'This API key does not give access to that pull zone.');
  return zone;
}

async function authenticate(apiKeys: ApiKeyService, presented: string | string[] | undefined): Promise<Principal> {
  if (typeof presented !== 'string' || presented === '') throw new LoggingRefusal(401, 'unauthorized', 'The AccessKey header is required.');
  const principal = presented.length > MAX_KEY_LENGTH ? undefined : await apiKeys.authenticate(presented);
  if (!principal) throw new LoggingRefusal(401, 'unauthorized', 'The AccessKey header does not name a valid API key.');
  return principal;
}

const plainBody = (lines: string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);

/** The JSON version's page: the lines as objects, and whether more follow `start + limit`. */
function jsonBody(lines: string[], query: LogQuery): string {
  const more = lines.length > query.read.limit;
  const items = (more ? lines.slice(0, query.read.limit) : lines).map((line) => {
    const fields = parseLine(line);
    return fields === undefined ? `{"Line":${JSON.stringify(line)}}` : jsonLine(fields);
  });
  return `{"Items":[${items.join(',')}],"Start":${query.read.start},"Limit":${query.read.limit},"HasMoreItems":${more}}`;
}

async function answer(req: IncomingMessage, res: ServerResponse, method: string, body: string, type: string): Promise<void> {
  const coding = body.length > 0 ? negotiateCoding(req.headers['accept-encoding']) : undefined;
  const bytes = coding ? await compressBody(Buffer.from(body), coding) : Buffer.from(body);
  res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': bytes.length,
    vary: 'Accept-Encoding',
    'cache-control': 'no-store',
    ...(coding && { 'content-encoding': coding }),
  });
  res.end(method === 'HEAD' ? undefined : bytes);
}

function refuse(res: ServerResponse, refusal: LoggingRefusal, version: 1 | 2): void {
  const body = version === 2 ? JSON.stringify({ error: refusal.code, message: refusal.message }) : `${refusal.message}\n`;
  res.writeHead(refusal.status, {
    'content-type': version === 2 ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(refusal.retryAfterSeconds !== undefined && { 'retry-after': String(refusal.retryAfterSeconds) }),
  });
  res.end(body);
}
