/**
 * WebSockets through the edge (EnableWebSockets, MaxWebSocketConnections), over HTTP/1.1 on both
 * listeners. An `Upgrade: websocket` request is routed and admitted as any request (route.ts,
 * admit.ts: the zone's state, ForceSSL, the per-client limits, access and edge rules, the URL
 * token); then, when the zone allows WebSockets, its handshake goes to the zone's HTTP origin
 * (origin-upgrade.ts), the origin's 101 back to the client, and from then on the bytes of both
 * sides as they are (tunnel.ts), until either side closes.
 *
 * Refused with the zone's error page: 403 when the zone does not allow WebSockets; 502 when its
 * origin is a storage zone (files: no WebSocket to open) or unavailable; 429 once the zone holds
 * its limit on this instance (domain/edge/websockets/limits.ts). An origin that answers the
 * handshake otherwise (401, 404…) has its answer passed on; one that cannot be reached, 502/504.
 * A connection is reported when it closes: one request (status 101) whose bandwidth is the bytes
 * it carried both ways, its origin traffic the origin's bytes, and a WebSocket connection counted.
 *
 * Other upgrades (`h2c`, which curl --http2 offers over plain HTTP) are answered as plain requests
 * over HTTP/1.1, their Upgrade header ignored, as RFC 9110 §7.8 lets a server.
 */
import { type IncomingMessage, type RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestIds } from '../../domain/edge/diagnostics.js';
import { originTarget } from '../../domain/edge/origin/choice.js';
import type { OriginAddresses } from '../../domain/edge/origin/addresses.js';
import { originRequestHeaders, passedAnswerHeaders } from '../../domain/edge/origin/headers.js';
import type { EdgeDirectory } from '../../domain/edge/routing/directory.js';
import type { HttpChallenges } from '../../domain/edge/types.js';
import { effectiveWebSocketLimit, WebSocketCounts } from '../../domain/edge/websockets/limits.js';
import { type OriginUpgrade, upgradeAtOrigin } from '../../domain/edge/websockets/origin-upgrade.js';
import { type AdmitDeps, admit } from './admit.js';
import { originFor } from './ask-origin.js';
import { type DeliverDeps, deliverFetched, deliverSynth } from './deliver.js';
import { type Delivery, plainDelivery } from './delivery.js';
import { write } from './handler.js';
import { receive } from './receive.js';
import { route } from './route.js';
import { type Tunnel, type TunnelBytes, tunnel } from './tunnel.js';
import type { Admitted } from './types.js';

export interface WebSocketDeps extends AdmitDeps, DeliverDeps {
  directory: EdgeDirectory;
  challenges?: HttpChallenges | undefined;
  originAddresses?: OriginAddresses | undefined;
}

/** One server's 'upgrade' listener, and its WebSockets. */
export interface UpgradeListener {
  readonly onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Ends the WebSockets the server carries (its graceful close). */
  end(): void;
  /** Closes them at once (a close that took too long). */
  destroy(): void;
}

const WEBSOCKET = /(?:^|,)\s*websocket\s*(?:,|$)/i;

export class EdgeWebSockets {
  /** The connections each zone holds open on this instance. */
  readonly counts = new WebSocketCounts();
  private readonly ids = new RequestIds();

  constructor(private readonly deps: WebSocketDeps) {}

  /** The 'upgrade' listener of the server whose requests `plain` answers (edgeHandler). */
  listener(scheme: 'http' | 'https', plain: RequestListener): UpgradeListener {
    const tunnels = new Set<Tunnel>();
    return {
      onUpgrade: (req, socket, head) => {
        // node:http left the socket to this listener, its error listener too: a client's reset must not reach the process.
        socket.on('error', () => socket.destroy());
        // A WebSocket's handshake is a GET (RFC 6455 §4.1); anything else is answered as a plain request.
        if (req.method !== 'GET' || !WEBSOCKET.test(req.headers.upgrade ?? '')) {
          plain(req, responseOn(req, socket));
          return;
        }
        this.open(req, socket, head, scheme, tunnels).catch((error: unknown) => {
          this.deps.logError(error);
          socket.destroy();
        });
      },
      end: () => {
        for (const open of tunnels) open.end();
      },
      destroy: () => {
        for (const open of tunnels) open.destroy();
      },
    };
  }

  private async open(req: IncomingMessage, socket: Duplex, head: Buffer, scheme: 'http' | 'https', tunnels: Set<Tunnel>): Promise<void> {
    const answer = (delivery: Delivery) => write(responseOn(req, socket), delivery, this.deps.logError);
    const request = receive(req, scheme);
    if (typeof request === 'string') return answer(plainDelivery(400, { 'content-type': 'text/plain; charset=utf-8', server: 'edgeplane' }, request));
    const arrived = performance.now();
    const routing = await route(this.deps.directory, this.deps.challenges, request);
    if (routing.kind === 'answered') return answer(routing.delivery);
    const routed = { request, clientBody: undefined, routed: routing.zone, forceSsl: routing.forceSsl, requestId: this.ids.next(), arrived, shielded: false };
    const admitting = admit(this.deps, routed);
    if (admitting.kind === 'synth') return answer(deliverSynth(this.deps, admitting.admitted, admitting.synth));
    const { admitted } = admitting;
    const zone = admitted.routed.zone;
    const refuse = (status: number, reason: string) => answer(deliverSynth(this.deps, admitted, { kind: 'page', status, reason }));
    if (!zone.EnableWebSockets) return refuse(403, 'the pull zone does not allow WebSocket connections');
    const origin = originFor(admitted.routed, admitted.effects);
    if (origin.kind === 'storage') return refuse(502, "The pull zone's origin is a storage zone, which takes no WebSocket connections.");
    if (origin.kind === 'script') return refuse(502, "The pull zone's origin is an edge script, which takes no WebSocket connections here.");
    if (origin.kind === 'unavailable') return refuse(502, origin.reason);
    if (origin.kind === 'containers') return refuse(502, 'WebSocket connections are not passed to container endpoints yet.');
    const release = this.counts.take(admitted.routed.id, zone.MaxWebSocketConnections);
    if (!release)
      return refuse(429, `The pull zone holds its ${effectiveWebSocketLimit(zone.MaxWebSocketConnections)} WebSocket connections; try again later.`);
    let upgraded: OriginUpgrade;
    try {
      const headers = originRequestHeaders(zone, request, admitted.effects, { originHost: origin.url.host, requestId: admitted.requestId, fillsCache: false });
      headers['connection'] = 'upgrade';
      headers['upgrade'] = 'websocket';
      const target = originTarget(origin.url, admitted.path, admitted.query);
      upgraded = await upgradeAtOrigin(zone, { url: origin.url, target, headers, addresses: this.deps.originAddresses });
    } catch (error) {
      release();
      throw error;
    }
    if (upgraded.kind !== 'switched') {
      release();
      return answer(await deliverFetched(this.deps, admitted, originAnswer(upgraded, zone.DisableCookies), undefined));
    }
    const { response, report } = upgraded;
    // The origin's 101 as it sent it, with the edge's ids: the client checks the handshake itself.
    let switching = `HTTP/1.1 101 ${response.statusMessage || 'Switching Protocols'}\r\n`;
    for (let i = 0; i < response.rawHeaders.length; i += 2) switching += `${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}\r\n`;
    socket.write(`${switching}cdn-pullzone: ${admitted.routed.id}\r\ncdn-requestid: ${admitted.requestId}\r\n\r\n`);
    upgraded.socket.setNoDelay(true);
    const open = tunnel(socket, upgraded.socket, { fromClient: head, fromOrigin: upgraded.head }, (bytes) => {
      tunnels.delete(open);
      release();
      this.report(admitted, { ...report, bytes: bytes.toClient }, bytes);
    });
    tunnels.add(open);
  }

  /** The connection's request, reported when it closed (usage, statistics, the access log); its admission goes back. */
  private report(admitted: Admitted, origin: OriginUpgrade['report'], bytes: TunnelBytes): void {
    admitted.admission.release();
    const { routed, request } = admitted;
    try {
      this.deps.onServed({
        zoneId: routed.id,
        accountId: routed.accountId,
        zone: routed.zone,
        request,
        status: 101,
        bytesSent: bytes.toClient,
        cacheStatus: 'BYPASS',
        requestId: admitted.requestId,
        durationMs: performance.now() - admitted.arrived,
        at: new Date(),
        origin,
        webSocket: { bytesFromClient: bytes.fromClient },
      });
    } catch (error) {
      this.deps.logError(error);
    }
  }
}

/** What an origin that did not switch protocols gave: its answer, to pass on at once (its bytes are counted as they flow), or its failure. */
function originAnswer(upgraded: Exclude<OriginUpgrade, { kind: 'switched' }>, disableCookies: boolean) {
  if (upgraded.kind === 'failed') return upgraded;
  const { response, report } = upgraded;
  response.on('data', (chunk: Buffer) => {
    report.bytes += chunk.length;
  });
  return {
    kind: 'stream' as const,
    status: response.statusCode ?? 502,
    headers: passedAnswerHeaders(response.headers, disableCookies),
    body: response,
    report,
  };
}

/** A node:http response written straight to an upgrade request's socket, which closes once it is sent (at once when the client left already). */
function responseOn(req: IncomingMessage, socket: Duplex): ServerResponse {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.once('finish', () => (socket as Socket).destroySoon());
  if (socket.destroyed) res.destroy();
  return res;
}
