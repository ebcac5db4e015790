/**
 * How long the file planes (storage, S3) wait on a client. Node's default deadline for a whole
 * request (`requestTimeout`, 300 s) cut any upload that took longer, however steadily its bytes
 * came: 400 MiB at 1 MiB/s got a 408 at 302 s. Here a request has no overall deadline; a
 * connection on which no byte moves for `idleMs` is cut instead, whatever it was doing:
 * - receiving a body (an upload stalled): `408 Request Timeout`, as Node answers its own request
 *   timeout, then closed; the half-written file is removed as for any upload cut short;
 * - sending an answer the client does not read (a download stalled): closed;
 * - waiting for a request (none yet, or between two): closed.
 * While the plane itself is behind, the connection stays: the client is not the one stalling. The
 * plane is behind when it works on an answer with the whole request in hand (completing a
 * multipart upload reads every part), or has body bytes in hand it has not read yet (a disk slower
 * than the client).
 * A request's head must still arrive whole within `headersMs` (Node's `headersTimeout`), so a
 * client trickling a head byte by byte (slowloris) holds nothing for long.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface TransferTimeouts {
  /** A connection on which no byte moves for this long is cut (see above). */
  idleMs: number;
  /** A request's head must arrive whole within this. */
  headersMs: number;
}

/** The idle time is EDGEPLANE_TRANSFER_IDLE_TIMEOUT_MS's default; the head's, Node's own. */
export const DEFAULT_TRANSFER_TIMEOUTS: TransferTimeouts = { idleMs: 60_000, headersMs: 60_000 };

/** The http server options that go with the timeouts: no whole-request deadline, the head's checked often enough. */
export function transferServerOptions(timeouts: TransferTimeouts): ServerOptions {
  return {
    requestTimeout: 0,
    headersTimeout: timeouts.headersMs,
    // Node checks headersTimeout on a timer (30 s by default): often enough here for the deadline to mean something.
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(timeouts.headersMs / 4))),
  };
}

const EXCHANGE = Symbol('the exchange in progress');
type Connection = Socket & { [EXCHANGE]?: ServerResponse };

const REQUEST_TIMEOUT = Buffer.from('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', 'latin1');

/** Tells the connection which exchange is in progress: every request of a server that cuts stalled transfers passes here first. */
export function trackExchange(req: IncomingMessage, res: ServerResponse): void {
  (req.socket as Connection)[EXCHANGE] = res;
}

/** Cuts the connections of `server` that stall (see above); its requests must pass through trackExchange. */
export function cutStalledTransfers(server: Server, timeouts: TransferTimeouts): void {
  server.timeout = timeouts.idleMs;
  // With a listener here, Node no longer destroys a connection whose timer fires: this decides.
  server.on('timeout', (socket: Connection) => {
    const res = socket[EXCHANGE];
    if (res && !res.writableFinished) {
      if (planeBehind(res, socket)) return;
      if (!res.req.complete && !res.headersSent) socket.write(REQUEST_TIMEOUT);
    }
    socket.destroy();
  });
}

/**
 * Whether the plane, not the client, is what holds the exchange up: bytes of the body came that
 * the plane has not read yet (its disk is slower than the client), or the whole request is in and
 * nothing waits to be sent (it is still working on the answer).
 */
function planeBehind(res: ServerResponse, socket: Socket): boolean {
  return res.req.complete ? socket.writableLength === 0 : res.req.readableLength > 0;
}
