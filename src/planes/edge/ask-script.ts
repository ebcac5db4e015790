/**
 * Edge scripts at the fetch step (domain/edge/scripts/): a standalone script is the zone's origin,
 * answering the client's request; a middleware script (the zone's `MiddlewareScriptId`, or an edge
 * rule's RunEdgeScript) runs around the origin request: its `onOriginRequest` hooks may change the
 * request (headers, method, path) or answer instead of the origin, and its `onOriginResponse`
 * hooks may change the origin's answer. A script that fails (throws, loops past its CPU bound,
 * crashes) gives a failure the edge answers with its 5xx page; the edge itself goes on.
 */
import type { IncomingMessage } from 'node:http';
import type { ScriptRuntime } from '../../domain/edge/scripts/runtime/script-runtime.js';
import type { ScriptFailure } from '../../domain/edge/scripts/runtime/limits.js';
import { META_HEADER } from '../../domain/edge/scripts/runtime/script-process.js';
import type { Readable } from 'node:stream';
import type { RoutedZone } from '../../domain/edge/routing/routed-zone.js';
import type { EdgeRequest, OriginReport, RuleEffects } from '../../domain/edge/types.js';

/** What of an origin request the scripts read (ask-origin.ts's OriginAsk has it all). */
export interface ScriptAsk {
  routed: RoutedZone;
  request: EdgeRequest;
  effects: RuleEffects;
  path: string;
  query: string;
  fillsCache: boolean;
  clientBody?: Readable | undefined;
}

type Answered = { ok: true; status: number; headers: Record<string, string | string[] | undefined>; body: Readable; report: OriginReport };
type Failed = { ok: false; status: 502 | 503; message: string };
/** An origin's outcome, as ask-origin.ts has it. */
type Outcome = { ok: true; status: number; headers: Record<string, string | string[] | undefined>; body: Buffer | Readable } | { ok: false };

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', META_HEADER];
const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** The middleware script a request runs through, if any: an edge rule's, else the zone's. */
export function middlewareOf(ask: ScriptAsk): number | undefined {
  const id = ask.effects.edgeScriptId ?? ask.routed.zone.MiddlewareScriptId ?? 0;
  return id > 0 ? id : undefined;
}

const clientUrl = (request: EdgeRequest, path: string, query: string) => `${request.scheme}://${request.host}${path}${query === '' ? '' : `?${query}`}`;

function failed(failure: ScriptFailure): Failed {
  return { ok: false, status: failure.status === 500 ? 502 : failure.status, message: failure.message };
}

function answered(response: IncomingMessage, started: number): Answered {
  const headers: Record<string, string | string[] | undefined> = { ...response.headers };
  for (const name of HOP_BY_HOP) delete headers[name];
  const bytes = Number(headers['content-length'] ?? 0);
  return {
    ok: true,
    status: response.statusCode ?? 502,
    headers,
    body: response,
    report: { bytes, responseMs: performance.now() - started, attempts: 1, answered: true },
  };
}

/** A standalone script's answer to the request, as an origin's. */
export async function askStandaloneScript(scripts: ScriptRuntime, ask: ScriptAsk, scriptId: number): Promise<Answered | Failed> {
  const { request } = ask;
  const method = ask.fillsCache ? 'GET' : request.method;
  const started = performance.now();
  const body = !ask.fillsCache && !BODYLESS.has(method) ? ask.clientBody : undefined;
  const meta = { hook: 'standalone', url: clientUrl(request, ask.path, ask.query), method };
  const outcome = await scripts.run(ask.routed.accountId, scriptId, meta, request.headers, body);
  return outcome.ok ? answered(outcome.response, started) : failed(outcome.failure);
}

/** The origin's answer with the middleware script's hooks around it. */
export async function aroundOrigin<A extends ScriptAsk, O extends Outcome>(
  scripts: ScriptRuntime,
  ask: A,
  scriptId: number,
  origin: (ask: A) => Promise<O>,
): Promise<O | Answered | Failed> {
  const started = performance.now();
  const { request } = ask;
  const accountId = ask.routed.accountId;
  const method = ask.fillsCache ? 'GET' : request.method;
  const before = await scripts.run(
    accountId,
    scriptId,
    { hook: 'origin-request', url: clientUrl(request, ask.path, ask.query), method },
    request.headers,
    undefined,
  );
  if (!before.ok) return failed(before.failure);
  const verdict = JSON.parse(String(before.response.headers[META_HEADER] ?? '{}')) as {
    kind?: string;
    url?: string;
    method?: string;
    headers?: [string, string][];
  };
  if (verdict.kind === 'response') return answered(before.response, started);
  before.response.resume();
  const changed = changedAsk(ask, verdict);
  const outcome = await origin(changed);
  if (!outcome.ok) return outcome;
  const meta = {
    hook: 'origin-response',
    url: clientUrl(changed.request, changed.path, changed.query),
    method: changed.request.method,
    requestHeaders: Object.entries(changed.request.headers),
    status: outcome.status,
  };
  const responseHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(outcome.headers as Record<string, string | string[] | undefined>))
    if (value !== undefined) responseHeaders[name] = value;
  const after = await scripts.run(accountId, scriptId, meta, responseHeaders, outcome.body);
  return after.ok ? answered(after.response, started) : failed(after.failure);
}

/** The request as the `onOriginRequest` hooks left it: headers, method, and the path and query of its URL (same host: the zone's origin). */
function changedAsk<A extends ScriptAsk>(ask: A, verdict: { kind?: string; url?: string; method?: string; headers?: [string, string][] }): A {
  if (verdict.kind !== 'request') return ask;
  const headers: Record<string, string> = {};
  for (const [name, value] of verdict.headers ?? []) headers[name.toLowerCase()] = value;
  let { path, query } = ask;
  if (verdict.url) {
    const url = new URL(verdict.url);
    path = url.pathname;
    query = url.search.slice(1);
  }
  const method = verdict.method && ask.fillsCache === false ? verdict.method : ask.request.method;
  return { ...ask, path, query, request: { ...ask.request, method, headers } };
}
