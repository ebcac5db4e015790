/**
 * One request to an HTTP(S) origin, as the zone's origin settings say:
 * - `OriginConnectTimeout` bounds the TCP (and TLS) connection, `OriginResponseTimeout` the wait for
 *   the answer's head once the request is sent (seconds; 0 or less means the defaults, 10 and 60);
 * - `OriginRetries` more attempts after a failure the zone says to retry: a connection that failed
 *   or timed out (`OriginRetryConnectionTimeout`), a response that timed out
 *   (`OriginRetryResponseTimeout`), a 5xx answer (`OriginRetry5XXResponses`), each after
 *   `OriginRetryDelay` seconds. A request with a body is sent once: its body cannot be read twice.
 *   (`EnableSafeHop` is the platform's name for the same retries; edgeplane follows the retry
 *   settings whichever way it is set.)
 * - `FollowRedirects`: a 301/302/303/307/308 from the origin is followed (up to 5 hops, GET and
 *   HEAD only) instead of being passed to the client;
 * - `VerifyOriginSSL`: an HTTPS origin's certificate must be valid for the name asked.
 * - Every connection (redirects included) goes only to an address the origin address policy allows
 *   (addresses.ts): an address in the URL is judged before connecting, every address a name
 *   resolves to in the connection's `lookup`; a refused one fails the request at once (502, no retry).
 * Connections are kept alive and reused, one pool per origin scheme and verification mode.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import type { EdgeZone, OriginReport } from '../types.js';
import { ORIGIN_REFUSED, OriginAddresses, refused } from './addresses.js';

export interface OriginCall {
  /** The origin: its scheme, host and port (its path is already in `target`). */
  url: URL;
  /**
   * The path and query sent, exactly as given (origin-form, starting with `/`). Never resolved
   * against `url`: a target like `//other-host/x` stays a path on this origin.
   */
  target: string;
  method: string;
  headers: Record<string, string>;
  /** The client's body, for methods that have one (sent once, never retried). */
  body?: Readable | undefined;
  /** Which addresses may be connected to (default: all but those refused whatever the settings). */
  addresses?: OriginAddresses | undefined;
}

export type OriginResult =
  | { ok: true; status: number; headers: IncomingHttpHeaders; body: IncomingMessage; report: OriginReport }
  | { ok: false; failure: 'timeout' | 'unreachable'; message: string; report: OriginReport; cause: OriginFailureCause };

/** What failed, for the zone's origin errors: the attempt's failure, and the socket or lookup error's code (`ENOTFOUND`...). */
export interface OriginFailureCause {
  failure: NonNullable<Attempt['failure']>;
  errno?: string | undefined;
}

interface Attempt {
  response?: IncomingMessage;
  failure?: 'connect-timeout' | 'response-timeout' | 'unreachable' | 'refused';
  message?: string;
  errno?: string | undefined;
}

/** Link-local, metadata and unspecified addresses are refused even for a caller that names no policy. */
const BASELINE_ADDRESSES = new OriginAddresses({ privateAddresses: 'allow', listenHost: '', ownPorts: [] });

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 512 }),
  verified: new https.Agent({ keepAlive: true, maxSockets: 512, rejectUnauthorized: true }),
  unverified: new https.Agent({ keepAlive: true, maxSockets: 512, rejectUnauthorized: false }),
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export async function fetchOrigin(zone: EdgeZone, call: OriginCall): Promise<OriginResult> {
  const started = performance.now();
  const retries = call.body ? 0 : Math.max(0, Math.min(zone.OriginRetries, 10));
  let attempts = 0;
  let last: Attempt = {};
  for (;;) {
    attempts++;
    last = await followed(zone, call);
    const retry = attempts <= retries && shouldRetry(zone, last);
    if (!retry) break;
    // The 5xx answer being retried is not used: free its connection.
    last.response?.resume();
    if (zone.OriginRetryDelay > 0) await sleep(Math.min(zone.OriginRetryDelay, 30) * 1000);
  }
  const responseMs = performance.now() - started;
  const { response } = last;
  if (response) {
    const report: OriginReport = { bytes: 0, responseMs, attempts, answered: true };
    response.on('data', (chunk: Buffer) => {
      report.bytes += chunk.length;
    });
    return { ok: true, status: response.statusCode ?? 502, headers: response.headers, body: response, report };
  }
  const failure = last.failure === 'unreachable' || last.failure === 'refused' ? 'unreachable' : 'timeout';
  const cause = { failure: last.failure ?? 'unreachable', errno: last.errno };
  return { ok: false, failure, message: last.message ?? failure, report: { bytes: 0, responseMs, attempts, answered: false }, cause };
}

function shouldRetry(zone: EdgeZone, attempt: Attempt): boolean {
  if (attempt.response) return zone.OriginRetry5XXResponses && (attempt.response.statusCode ?? 0) >= 500;
  if (attempt.failure === 'refused') return false;
  if (attempt.failure === 'response-timeout') return zone.OriginRetryResponseTimeout;
  return zone.OriginRetryConnectionTimeout;
}

async function followed(zone: EdgeZone, call: OriginCall): Promise<Attempt> {
  let current = call;
  for (let hop = 0; ; hop++) {
    const attempt = await once(zone, current);
    const { response } = attempt;
    const location = response?.headers.location;
    const follow = response && zone.FollowRedirects && REDIRECTS.has(response.statusCode ?? 0) && location && hop < MAX_REDIRECTS && !current.body;
    if (!follow || !(current.method === 'GET' || current.method === 'HEAD')) return attempt;
    let next: URL;
    try {
      // Resolved as a browser would, against the URL that answered: the origin and the target as sent, joined as text.
      next = new URL(location, `${current.url.origin}${current.target}`);
    } catch {
      return attempt;
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return attempt;
    response.resume();
    current = { ...current, url: next, target: `${next.pathname}${next.search}`, headers: { ...current.headers, host: next.host } };
  }
}

function once(zone: EdgeZone, call: OriginCall): Promise<Attempt> {
  const connectMs = seconds(zone.OriginConnectTimeout, 10);
  const responseMs = seconds(zone.OriginResponseTimeout, 60);
  const secure = call.url.protocol === 'https:';
  const host = call.headers['host'] ?? call.url.host;
  const serverName = host.replace(/:\d+$/, '');
  const hostname = call.url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(call.url.port) || (secure ? 443 : 80);
  const addresses = call.addresses ?? BASELINE_ADDRESSES;
  // An address in the URL is connected to without a lookup: judged here; a name, in the lookup.
  const refusal = isIP(hostname) === 0 ? undefined : addresses.refusal(hostname, port);
  if (refusal !== undefined) return Promise.resolve({ failure: 'refused', message: refused(`${call.url.host} is ${refusal}`).message });
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const options: https.RequestOptions = {
      protocol: call.url.protocol,
      hostname,
      port,
      lookup: addresses.lookupFor(port),
      path: call.target,
      method: call.method,
      headers: call.headers,
      agent: secure ? (zone.VerifyOriginSSL ? agents.verified : agents.unverified) : agents.http,
      ...(secure && serverName !== '' && isIP(serverName) === 0 ? { servername: serverName } : {}),
    };
    let req: http.ClientRequest;
    try {
      req = (secure ? https : http).request(options);
    } catch (error) {
      // A target or header node:http will not send (a character it refuses): no request is made.
      resolve({ failure: 'unreachable', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    let timer = setTimeout(() => {
      finish({ failure: 'connect-timeout', message: `no connection to the origin within ${connectMs / 1000} s` });
      req.destroy();
    }, connectMs);
    const sent = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        finish({ failure: 'response-timeout', message: `the origin did not answer within ${responseMs / 1000} s` });
        req.destroy();
      }, responseMs);
    };
    req.on('socket', (socket) => {
      // A kept-alive socket is connected already: the response clock starts at once.
      if ((socket as { connecting?: boolean }).connecting) socket.once(secure ? 'secureConnect' : 'connect', sent);
      else sent();
    });
    req.on('response', (response) => {
      if (settled) {
        response.destroy();
        return;
      }
      finish({ response });
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ failure: error.code === ORIGIN_REFUSED ? 'refused' : 'unreachable', message: error.message, errno: error.code }),
    );
    if (call.body) call.body.pipe(req);
    else req.end();
  });
}

const seconds = (value: number, fallback: number) => (value > 0 ? Math.min(value, 600) : fallback) * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
