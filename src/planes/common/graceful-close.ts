/**
 * The graceful close of a plane's HTTP listener: stop accepting, let the requests in flight finish,
 * end keep-alive connections as they become idle, and resolve once every connection is gone.
 */
import type http from 'node:http';
import type net from 'node:net';
import type { TurnWrites } from './turn-writes.js';

/**
 * `listener` accepts the connections; `connections` is the http server that serves them (the
 * listener itself, unless a front hands it framed connections, as the storage plane's does).
 * Idle connections are swept every 50 ms: one whose request just finished would otherwise hold the
 * close until its keep-alive timeout. What `turnWrites` holds is written first, so the sweep never
 * ends a connection whose answer is still waiting for the turn's end.
 */
export function closeGracefully(listener: net.Server, turnWrites: TurnWrites | undefined, connections = listener as http.Server): Promise<void> {
  turnWrites?.release();
  return new Promise((resolve) => {
    const reaper = setInterval(() => connections.closeIdleConnections(), 50);
    listener.close(() => {
      clearInterval(reaper);
      // Stops a separate http server's timeout checker; its connections are all gone by now.
      if (connections !== listener) connections.close();
      resolve();
    });
    connections.closeIdleConnections();
  });
}
