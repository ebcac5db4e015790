/**
 * Asks a request's origin: the zone's (or an edge rule's) origin URL over HTTP(S), signed when the
 * zone signs its requests (origin/request-signing.ts), or a storage zone through the storage
 * domain. Either way the result has one shape: a head and a body, or a failure the edge turns
 * into a 502/504 page (or a stale copy).
 */
import type { Readable } from 'node:stream';
import type { FileService } from '../../domain/files/service.js';
import { type OriginChoice, httpUrl, originTarget } from '../../domain/edge/origin/choice.js';
import type { OriginAddresses } from '../../domain/edge/origin/addresses.js';
import { fetchOrigin } from '../../domain/edge/origin/fetch.js';
import { type ContainerOrigins, containerOrigin } from '../../domain/edge/containers/container-origin.js';
import { originRequestHeaders } from '../../domain/edge/origin/headers.js';
import type { OriginErrorLog } from '../../domain/edge/origin/origin-errors.js';
import { signOriginCall, signs } from '../../domain/edge/origin/request-signing.js';
import { readStorageOrigin } from '../../domain/edge/origin/storage-origin.js';
import type { RoutedZone } from '../../domain/edge/routing/routed-zone.js';
import type { EdgeRequest, OriginReport, RuleEffects } from '../../domain/edge/types.js';
import type { ScriptRuntime } from '../../domain/edge/scripts/runtime/script-runtime.js';
import { aroundOrigin, askStandaloneScript, middlewareOf } from './ask-script.js';

export type OriginOutcome =
  /** `report` undefined: no origin was asked (a perma-cache hit). */
  | { ok: true; status: number; headers: Record<string, string | string[] | undefined>; body: Buffer | Readable; report: OriginReport | undefined }
  /** 503: the origin shield's concurrency limit refused the request (`retryAfter` seconds). */
  | { ok: false; status: 502 | 503 | 504; message: string; report?: OriginReport; retryAfter?: number };

export interface OriginAsk {
  routed: RoutedZone;
  request: EdgeRequest;
  effects: RuleEffects;
  requestId: string;
  /** The file's path and query as the policy left them (a URL token taken out). */
  path: string;
  query: string;
  /** The answer will fill the cache: a whole GET, without the client's conditions and range. */
  fillsCache: boolean;
  clientBody?: Readable | undefined;
  /** Which addresses an HTTP origin may be at (origin/addresses.ts). */
  originAddresses?: OriginAddresses | undefined;
  /** The edge scripts' runtime: a standalone script answers as the origin, a middleware script runs around it (ask-script.ts). */
  scripts?: ScriptRuntime | undefined;
  /** The container endpoints' ready replicas, for zones in front of one. */
  containerOrigins?: ContainerOrigins | undefined;
  /** Where a failed request to an HTTP origin is recorded (the zone's origin errors). */
  originErrors?: Pick<OriginErrorLog, 'record'> | undefined;
}

const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

export async function askOrigin(files: FileService, ask: OriginAsk): Promise<OriginOutcome> {
  const middleware = ask.scripts && middlewareOf(ask);
  if (middleware === undefined || !ask.scripts) return askOriginItself(files, ask);
  return aroundOrigin(ask.scripts, ask, middleware, (changed) => askOriginItself(files, changed));
}

async function askOriginItself(files: FileService, ask: OriginAsk): Promise<OriginOutcome> {
  const { routed, effects, request } = ask;
  const chosen = originFor(routed, effects);
  // A container's replica is on an address edgeplane published itself: no origin address policy applies.
  const ownReplica = chosen.kind === 'containers';
  const choice = chosen.kind === 'containers' ? containerOrigin(ask.containerOrigins, chosen.endpointId, request.headers) : chosen;
  if (choice.kind === 'unavailable') return { ok: false, status: 502, message: choice.reason };
  if (choice.kind === 'script') {
    if (!ask.scripts) return { ok: false, status: 502, message: 'This edge runs no edge scripts.' };
    return askStandaloneScript(ask.scripts, ask, choice.scriptId);
  }
  if (choice.kind === 'storage') {
    if (!ask.fillsCache && request.method !== 'GET' && request.method !== 'HEAD') {
      return { ok: false, status: 502, message: `A storage zone origin answers GET and HEAD only, not ${request.method}.` };
    }
    const started = performance.now();
    const answer = await readStorageOrigin(files, choice.storageZoneId, ask.path);
    const bytes = Number(answer.headers['content-length'] ?? (Buffer.isBuffer(answer.body) ? answer.body.length : 0));
    return { ok: true, ...answer, report: { bytes, responseMs: performance.now() - started, attempts: 1, answered: true } };
  }
  const headers = originRequestHeaders(routed.zone, request, effects, { originHost: choice.url.host, requestId: ask.requestId, fillsCache: ask.fillsCache });
  const method = ask.fillsCache ? 'GET' : request.method;
  const withBody = !ask.fillsCache && !BODYLESS.has(method) && ask.clientBody !== undefined;
  if (!withBody) {
    delete headers['content-length'];
    delete headers['transfer-encoding'];
  }
  let target = originTarget(choice.url, ask.path, ask.query);
  if (signs(routed.zone, effects, method)) {
    const signed = await signOriginCall(routed.zone, { method, target, headers, ruleHeaders: effects.requestHeaders });
    if ('refusal' in signed) return { ok: false, status: 502, message: signed.refusal };
    target = signed.target;
  }
  const result = await fetchOrigin(routed.zone, {
    url: choice.url,
    target,
    method,
    headers,
    body: withBody ? ask.clientBody : undefined,
    addresses: ownReplica ? undefined : ask.originAddresses,
  });
  if (!result.ok) {
    const what = result.failure === 'timeout' ? 504 : 502;
    const requestUrl = `${ask.path}${ask.query === '' ? '' : `?${ask.query}`}`;
    ask.originErrors?.record({
      accountId: routed.accountId,
      pullZoneId: routed.id,
      origin: choice.url,
      requestUrl,
      status: what,
      message: result.message,
      cause: result.cause,
    });
    return { ok: false, status: what, message: `The origin could not be reached: ${result.message}.`, report: result.report };
  }
  return { ok: true, status: result.status, headers: result.headers, body: result.body, report: result.report };
}

/** The request's origin: an edge rule's, else the zone's. */
export function originFor(routed: RoutedZone, effects: RuleEffects): OriginChoice {
  if (effects.originUrl !== undefined) {
    const url = httpUrl(effects.originUrl);
    return url ? { kind: 'url', url } : { kind: 'unavailable', reason: `An edge rule sends the request to "${effects.originUrl}", which is no http(s) URL.` };
  }
  if (effects.originStorageZoneId !== undefined && effects.originStorageZoneId > 0) return { kind: 'storage', storageZoneId: effects.originStorageZoneId };
  return routed.origin;
}
