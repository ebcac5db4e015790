/**
 * A WebSocket's opening handshake with an HTTP(S) origin: the client's upgrade request, sent on a
 * connection of its own (never a pooled one: it becomes the WebSocket's), to an address the origin
 * address policy allows (origin/addresses.ts), within the zone's OriginConnectTimeout and then its
 * OriginResponseTimeout for the answer's head (seconds; 0 or less: 10 and 60), with its TLS
 * certificate checked when VerifyOriginSSL says so. Not retried: the client retries a handshake.
 *
 * The origin either switches protocols (101: its socket, and whatever bytes came after the head,
 * are the WebSocket's), answers otherwise (the edge passes that answer on), or cannot be reached.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { ORIGIN_REFUSED, OriginAddresses, refused } from '../origin/addresses.js';
import type { EdgeZone, OriginReport } from '../types.js';

export interface UpgradeCall {
  /** The origin: its scheme, host and port. */
  url: URL;
  /** The path and query asked (origin-form, sent as given). */
  target: string;
  /** The request's headers for the origin, `connection` and `upgrade` included. */
  headers: Record<string, string>;
  addresses?: OriginAddresses | undefined;
}

export type OriginUpgrade =
  | { kind: 'switched'; response: IncomingMessage; socket: Socket; head: Buffer; report: OriginReport }
  | { kind: 'answered'; response: IncomingMessage; report: OriginReport }
  | { kind: 'failed'; status: 502 | 504; message: string; report: OriginReport };

const ANY_ADDRESS = new OriginAddresses({ privateAddresses: 'allow', listenHost: '', ownPorts: [] });

const limitMs = (value: number, fallback: number) => (value > 0 ? Math.min(value, 600) : fallback) * 1000;

export function upgradeAtOrigin(zone: EdgeZone, call: UpgradeCall): Promise<OriginUpgrade> {
  const started = performance.now();
  const report = (answered: boolean): OriginReport => ({ bytes: 0, responseMs: performance.now() - started, attempts: 1, answered });
  const failed = (status: 502 | 504, message: string): OriginUpgrade => ({ kind: 'failed', status, message, report: report(false) });
  const secure = call.url.protocol === 'https:';
  const address = call.url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(call.url.port) || (secure ? 443 : 80);
  const addresses = call.addresses ?? ANY_ADDRESS;
  const refusal = isIP(address) === 0 ? undefined : addresses.refusal(address, port);
  if (refusal !== undefined) return Promise.resolve(failed(502, refused(`${call.url.host} is ${refusal}`).message));
  // The TLS server name: the Host the origin is asked for, unless that is an address.
  const serverName = (call.headers['host'] ?? call.url.host).replace(/:\d+$/, '');
  const options: https.RequestOptions = {
    hostname: address,
    port,
    path: call.target,
    method: 'GET',
    headers: call.headers,
    agent: false,
    lookup: addresses.lookupFor(port),
    ...(secure ? { rejectUnauthorized: zone.VerifyOriginSSL, ...(isIP(serverName) === 0 && serverName !== '' ? { servername: serverName } : {}) } : {}),
  };
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let request: http.ClientRequest;
    const settle = (outcome: OriginUpgrade) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    const giveUp = (ms: number, what: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        request.destroy();
        settle(failed(504, `The origin could not be reached: ${what} within ${ms / 1000} s.`));
      }, ms);
    };
    try {
      request = (secure ? https : http).request(options);
    } catch (error) {
      // A target or header node:http will not send: no request is made.
      settle(failed(502, `The origin could not be asked: ${error instanceof Error ? error.message : String(error)}.`));
      return;
    }
    giveUp(limitMs(zone.OriginConnectTimeout, 10), 'no connection');
    request.once('socket', (socket: Socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => giveUp(limitMs(zone.OriginResponseTimeout, 60), 'no answer to the WebSocket handshake'));
    });
    request.once('upgrade', (response: IncomingMessage, socket: Socket, head: Buffer) =>
      settle({ kind: 'switched', response, socket, head, report: report(true) }),
    );
    request.once('response', (response: IncomingMessage) => settle({ kind: 'answered', response, report: report(true) }));
    request.once('error', (error: NodeJS.ErrnoException) => {
      settle(failed(502, error.code === ORIGIN_REFUSED ? error.message : `The origin could not be reached: ${error.message}.`));
    });
    request.end();
  });
}
