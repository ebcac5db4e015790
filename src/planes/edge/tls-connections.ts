/**
 * The connections of the edge's TLS listener: HTTP/2 sessions, or, when ALPN chose http/1.1,
 * connections handed to a node:http server (listen.ts). node:http's graceful close reaches only the
 * latter (closeIdleConnections, common/graceful-close.ts); the sessions are looked after here:
 * - closing, each session is closed as HTTP/2 closes one (GOAWAY: its streams in flight finish,
 *   then its connection ends), instead of holding the listener open until the client leaves;
 * - a session with no stream open for `idleMs` is closed, as an idle keep-alive connection is;
 * - `destroyAll` ends every connection at once, HTTP/1.1 ones and upgraded ones (WebSockets) too,
 *   which a close that takes too long calls.
 */
import type { Http2SecureServer, ServerHttp2Session } from 'node:http2';
import type { TLSSocket } from 'node:tls';

export class TlsConnections {
  private readonly sockets = new Set<TLSSocket>();
  private readonly sessions = new Set<ServerHttp2Session>();
  private closing = false;

  constructor(server: Http2SecureServer, idleMs: number) {
    server.on('secureConnection', (socket: TLSSocket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('session', (session: ServerHttp2Session) => this.watch(session, idleMs));
  }

  /** Closes every session gracefully, and those that start from now on. */
  closeSessions(): void {
    this.closing = true;
    for (const session of this.sessions) session.close();
  }

  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  private watch(session: ServerHttp2Session, idleMs: number): void {
    if (this.closing) {
      session.close();
      return;
    }
    this.sessions.add(session);
    session.once('close', () => this.sessions.delete(session));
    let open = 0;
    session.on('stream', (stream) => {
      open++;
      stream.once('close', () => open--);
    });
    // Fires after idleMs without a frame either way; a stream still waiting (a slow origin) keeps it.
    session.setTimeout(idleMs, () => {
      if (open === 0) session.close();
    });
  }
}
