/**
 * The only way out of edge scripts whose processes have no network of their own
 * (`EDGEPLANE_EDGE_SCRIPT_NETWORK=namespace`: each Deno process in a network namespace holding
 * nothing but its own loopback). A proxy on a Unix socket the processes are given: the runner
 * sends its fetches here (Deno's HTTP client with a Unix-socket proxy sends `http://` and
 * `https://` URLs alike as absolute-form requests: this side makes the TLS connection) and opens
 * `Deno.connect` tunnels here (`CONNECT host:port`).
 *
 * Every destination is judged by the origin address policy (origin/addresses.ts), ranges of both
 * families included, on the address written or on each address the name resolves to, at the
 * moment of connecting: what Deno's deny list cannot express (IPv6 ranges) is caught here.
 * A refusal answers 403 with `x-edgeplane-refused` (the runner throws NotCapable with its reason);
 * a destination that cannot be reached answers 502 with `x-edgeplane-egress-error` (the runner
 * throws a TypeError, as a failed fetch does).
 */
import { rmSync } from 'node:fs';
import {
  Agent as HttpAgent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect, isIP, type Socket } from 'node:net';
import { pipeline } from 'node:stream';
import { ORIGIN_REFUSED, type OriginAddresses } from '../../origin/addresses.js';
import { CONNECTION_HEADERS, connectionTokens } from '../../origin/headers.js';

export const REFUSED_HEADER = 'x-edgeplane-refused';
export const EGRESS_ERROR_HEADER = 'x-edgeplane-egress-error';
/** What a script's request says to the proxy itself. */
const TO_THE_PROXY: ReadonlySet<string> = new Set(['proxy-authorization']);
/** The egress's own answer headers are its to set: an origin's are dropped, so a script can trust them. */
const EGRESS_HEADERS: ReadonlySet<string> = new Set([REFUSED_HEADER, EGRESS_ERROR_HEADER]);

/** Headers passed on through the egress: not the connection's own (origin/headers.ts), nor those in `dropped`. */
function endToEnd(headers: IncomingHttpHeaders, dropped: ReadonlySet<string>): OutgoingHttpHeaders {
  const listed = connectionTokens(headers['connection']);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !CONNECTION_HEADERS.has(name) && !listed.has(name) && !dropped.has(name)) out[name] = value;
  }
  return out;
}

/** Where a request may go: host (no brackets) and port, or why it may not. */
function destination(host: string, port: number, addresses: OriginAddresses): string | undefined {
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `port ${port} is not a port`;
  // A written address is judged here: Node does not look up an address, so `lookupFor` would not see it.
  return isIP(host) ? addresses.refusal(host, port) : undefined;
}

const refusedBy = (error: unknown) => (error as NodeJS.ErrnoException).code === ORIGIN_REFUSED;
/** A reason as a header value: one line of printable ASCII (Node refuses anything else in a head). */
const headerValue = (text: string) => text.replace(/[^\x20-\x7e]+/g, ' ').slice(0, 500);

export class ScriptEgress {
  private readonly server: Server;
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 256 });
  private readonly tunnels = new Set<Socket>();

  constructor(
    readonly path: string,
    private readonly addresses: OriginAddresses,
  ) {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => this.tunnel(req, socket, head));
  }

  listen(): Promise<void> {
    rmSync(this.path, { force: true });
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.path, () => resolve());
    });
  }

  async close(): Promise<void> {
    for (const t of this.tunnels) t.destroy();
    this.http.destroy();
    this.https.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.path, { force: true });
  }

  /** An absolute-form request (`GET https://host/path`): made to its destination, its answer passed back. */
  private forward(req: IncomingMessage, res: ServerResponse): void {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400, { [EGRESS_ERROR_HEADER]: 'not an absolute URL' }).end();
    }
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') return void res.writeHead(400, { [EGRESS_ERROR_HEADER]: `${url.protocol} is not fetched` }).end();
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (secure ? 443 : 80);
    const why = destination(host, port, this.addresses);
    if (why !== undefined) return void res.writeHead(403, { [REFUSED_HEADER]: headerValue(`${url.host}: ${why}`) }).end();
    const headers = endToEnd(req.headers, TO_THE_PROXY);
    const options = { host, port, path: `${url.pathname}${url.search}`, method: req.method, headers, lookup: this.addresses.lookupFor(port) };
    const upstream = secure
      ? httpsRequest({ ...options, servername: isIP(host) ? undefined : host, agent: this.https })
      : httpRequest({ ...options, agent: this.http });
    upstream.once('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers, EGRESS_HEADERS));
      // An answer cut short cuts the script's short too (its fetch's body errors), never leaves it waiting.
      pipeline(answer, res, () => undefined);
    });
    upstream.once('error', (error) => {
      if (res.headersSent) return void res.destroy();
      if (refusedBy(error)) res.writeHead(403, { [REFUSED_HEADER]: headerValue(error.message) });
      else res.writeHead(502, { [EGRESS_ERROR_HEADER]: headerValue(error.message) });
      res.end();
    });
    // The script gave up (an abort, its process stopped): so does the request it made.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /** `CONNECT host:port` (the runner's `Deno.connect`): a TCP tunnel once the destination is judged. */
  private tunnel(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const target = req.url ?? '';
    const colon = target.lastIndexOf(':');
    const host = target.slice(0, colon).replace(/^\[|\]$/g, '');
    const port = Number(target.slice(colon + 1));
    const answer = (status: string, header: string, message: string) =>
      socket.end(`HTTP/1.1 ${status}\r\n${header}: ${headerValue(message)}\r\nContent-Length: 0\r\n\r\n`);
    const why = colon <= 0 ? 'not host:port' : destination(host, port, this.addresses);
    if (why !== undefined) return void answer('403 Forbidden', REFUSED_HEADER, `${target}: ${why}`);
    const upstream = connect({ host, port, lookup: this.addresses.lookupFor(port) });
    this.tunnels.add(socket);
    socket.once('close', () => {
      this.tunnels.delete(socket);
      upstream.destroy();
    });
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.once('error', (error) => {
      if (connected) socket.destroy();
      else if (refusedBy(error)) answer('403 Forbidden', REFUSED_HEADER, error.message);
      else answer('502 Bad Gateway', EGRESS_ERROR_HEADER, error.message);
    });
    socket.once('error', () => upstream.destroy());
  }
}
