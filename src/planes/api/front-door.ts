/**
 * The front door: answers the API's cached reads (`GET /pullzone/{id}`, the answer cache's only
 * route) on the `node:http` request itself, before Fastify builds its request, reply and hook
 * chain. A cached read is the API's most frequent request and the cheapest one to answer, so
 * Fastify's lifecycle was most of its cost (profile: about half of the server's time per hit).
 *
 * It answers only when the slow path would answer the very same bytes, and hands the request to
 * Fastify untouched otherwise: a fault rule, the request journal, a reset or a shutdown in
 * progress, any other method, path or query, a body, a key not authenticated before, an answer not
 * cached, an address held back for failed credentials, a key over its rate. What the slow path
 * adds around an answer, the front door adds the same way: the key's rate-limit token, the
 * request id header, the request's metrics and its log line (same fields, same message).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../../domain/principal.js';
import type { AnswerCache } from './answer-cache.js';
import type { CompletedLine } from './request-log.js';

/** What the front door needs of the app: each part owned, and kept honest, by its plugin. */
export interface FrontDoorParts {
  answers: AnswerCache;
  /** A principal only for a key authenticated before and not revoked since (no I/O). */
  cachedPrincipal: (presented: string) => Principal | undefined;
  /** False while anything the front door does not do itself is switched on (faults, journal, reset, closing). */
  open: () => boolean;
  throttle: FrontThrottle;
  recordRequest: (method: string, route: string, status: number, seconds: number) => void;
  requestId: (request: IncomingMessage) => string;
  /** Writes the request's line, when the app logs requests. */
  logCompleted: CompletedLine | undefined;
}

/** The rate-limit plugin's two checks, as the front door applies them. */
export interface FrontThrottle {
  /** The address is refused for failed credentials (the slow path answers the 429). */
  addressRefused(ip: string): boolean;
  /**
   * Takes the key's token. False when it is refused: the verdict stays on the request, so the slow
   * path answers the 429 from it without taking a second token.
   */
  take(request: IncomingMessage, keyId: number): boolean;
}

const ROUTE = '/pullzone/:id';
/** Ids up to 15 digits are always safe integers; longer ones, and leading zeros, go the slow way. */
const PULL_ZONE = /^\/pullzone\/([1-9][0-9]{0,14})\/?(?:\?(|includeCertificate=(?:true|false)))?$/i;
const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_KEY_LENGTH = 256;

export class FrontDoor {
  constructor(private readonly parts: FrontDoorParts) {}

  /** True when the request was answered here; false hands it on (nothing of it was consumed). */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    if (request.method !== 'GET' || !this.parts.open()) return false;
    const url = request.url ?? '';
    const match = PULL_ZONE.exec(url);
    if (!match) return false;
    const headers = request.headers;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (headers['x-edgeplane-internal'] !== undefined) return false;
    const presented = headers['accesskey'];
    if (typeof presented !== 'string' || presented.length === 0 || presented.length > MAX_KEY_LENGTH) return false;
    const ip = request.socket.remoteAddress ?? '';
    if (this.parts.throttle.addressRefused(ip)) return false;
    const principal = this.parts.cachedPrincipal(presented);
    if (!principal) return false;
    // Only the exact spelling `includeCertificate=true` selects the variant; the pattern let nothing else through.
    const variant = match[2]?.endsWith('=true') ? 'certificates' : '';
    const body = this.parts.answers.peek({ kind: 'pullZone', accountId: principal.accountId, id: match[1]!, variant });
    if (body === undefined) return false;
    if (!this.parts.throttle.take(request, principal.keyId)) return false;

    const id = this.parts.requestId(request);
    response.writeHead(200, { 'content-type': JSON_TYPE, 'x-request-id': id, 'content-length': body.length });
    response.end(body);
    const elapsedMs = performance.now() - started;
    this.parts.recordRequest('GET', ROUTE, 200, elapsedMs / 1000);
    // The slow path's line: what Fastify's request serializer reads of a request.
    this.parts.logCompleted?.(id, { method: 'GET', url, headers, host: headers.host, ip, socket: request.socket }, 200, elapsedMs);
    return true;
  }
}
