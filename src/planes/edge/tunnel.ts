/**
 * The bytes of a WebSocket once its origin switched protocols: the client's socket and the
 * origin's, each one's bytes written to the other as they come, with back-pressure, never looked
 * into. One side ending ends the other's writing (a close handshake finishes as the two sides make
 * it); either side closing or failing closes both, and `closed` is told, once, the bytes each way.
 */
import type { Duplex } from 'node:stream';

export interface TunnelBytes {
  /** From the origin to the client. */
  toClient: number;
  /** From the client to the origin. */
  fromClient: number;
}

export interface Tunnel {
  /** Ends both sides' writing (a server closing gracefully): the peers close in turn. */
  end(): void;
  /** Closes both at once. */
  destroy(): void;
}

/** `heads` are the bytes each side sent past the handshake's head, which its socket will not give again. */
export function tunnel(client: Duplex, origin: Duplex, heads: { fromClient: Buffer; fromOrigin: Buffer }, closed: (bytes: TunnelBytes) => void): Tunnel {
  const bytes: TunnelBytes = { toClient: heads.fromOrigin.length, fromClient: heads.fromClient.length };
  let over = false;
  const close = () => {
    if (over) return;
    over = true;
    client.destroy();
    origin.destroy();
    closed(bytes);
  };
  if (heads.fromOrigin.length > 0) client.write(heads.fromOrigin);
  if (heads.fromClient.length > 0) origin.write(heads.fromClient);
  origin.on('data', (chunk: Buffer) => {
    bytes.toClient += chunk.length;
  });
  client.on('data', (chunk: Buffer) => {
    bytes.fromClient += chunk.length;
  });
  for (const side of [client, origin]) {
    side.once('close', close);
    // A reset or a broken pipe: that side is closed, and with it the other.
    side.on('error', () => side.destroy());
  }
  origin.pipe(client);
  client.pipe(origin);
  if (client.destroyed || origin.destroyed) close();
  return {
    end: () => {
      client.end();
      origin.end();
    },
    destroy: close,
  };
}
