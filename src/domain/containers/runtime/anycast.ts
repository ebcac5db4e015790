/**
 * Anycast endpoints on this host: each port mapping of an anycast endpoint is a TCP listener on
 * the configured address (`EDGEPLANE_CONTAINER_ANYCAST_ADDRESS`, loopback by default) at its
 * exposed port; each connection goes to one of the endpoint's ready replicas in turn, on the
 * loopback port its container port is published on, bytes passed both ways as they are. One
 * listener serves every replica, so scaling and rolling never move the address or the port.
 * Only TCP is forwarded (a mapping's UDP is not).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Replicas } from './replicas.js';

export interface AnycastPort {
  appId: string;
  endpointId: string;
  templateId: string;
  containerPort: number;
  exposedPort: number;
}

interface Listening {
  port: AnycastPort;
  server: Server;
}

export class AnycastListeners {
  private readonly listening = new Map<string, Listening>();
  private turn = 0;
  /** Closed for good: a pass still under way when edgeplane stopped opens nothing again. */
  private closed = false;

  constructor(
    private readonly address: string,
    private readonly replicas: Replicas,
  ) {}

  /** Where each wanted port listens: opened when new, closed when no longer wanted. Resolves with the ports that could not be opened, and why. */
  async sync(wanted: readonly AnycastPort[]): Promise<{ port: AnycastPort; reason: string }[]> {
    const keys = new Set(wanted.map(keyOf));
    for (const [key, l] of this.listening) {
      if (!keys.has(key)) {
        this.listening.delete(key);
        l.server.close();
      }
    }
    const failed: { port: AnycastPort; reason: string }[] = [];
    for (const port of wanted) {
      if (this.closed) break;
      const key = keyOf(port);
      const known = this.listening.get(key);
      if (known) {
        known.port = port;
        continue;
      }
      const entry: Listening = { port, server: createServer((socket) => this.forward(entry.port, socket)) };
      const opened = await new Promise<string | undefined>((resolve) => {
        entry.server.once('error', (error) => resolve(error.message));
        entry.server.listen(port.exposedPort, this.address, () => resolve(undefined));
      });
      if (opened === undefined && this.closed) entry.server.close();
      else if (opened === undefined) this.listening.set(key, entry);
      else failed.push({ port, reason: `${this.address}:${port.exposedPort} could not be listened on: ${opened}` });
    }
    return failed;
  }

  /** The address and port an endpoint's exposed port listens on (undefined while it does not). */
  addressOf(endpointId: string, exposedPort: number): { address: string; port: number } | undefined {
    for (const l of this.listening.values()) {
      if (l.port.endpointId === endpointId && l.port.exposedPort === exposedPort) {
        const bound = l.server.address();
        return bound && typeof bound === 'object' ? { address: bound.address, port: bound.port } : undefined;
      }
    }
    return undefined;
  }

  close(): void {
    this.closed = true;
    for (const l of this.listening.values()) l.server.close();
    this.listening.clear();
  }

  private forward(port: AnycastPort, client: Socket): void {
    const backends = this.replicas.readyPorts(port.appId, port.templateId, port.containerPort);
    if (backends.length === 0) {
      client.destroy();
      return;
    }
    this.turn = (this.turn + 1) % 1_000_000_007;
    const upstream = connect(backends[this.turn % backends.length]!, '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', close).once('close', close);
    upstream.once('error', close).once('close', close);
  }
}

const keyOf = (p: AnycastPort) => `${p.endpointId}:${p.exposedPort}`;
