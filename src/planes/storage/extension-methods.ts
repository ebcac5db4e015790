/**
 * Lets a plain `node:http` server answer the extension method `DESCRIBE`, which the platform's storage
 * client sends to read a file's metadata. Node's parser (llhttp) knows a fixed list of methods and
 * refuses any other, so a `DESCRIBE` would get a 400 and a closed connection.
 *
 * How: a `net.Server` accepts the TCP connections; each connection's bytes pass through a
 * RequestFramer (request-framer.ts), which finds where each request starts and rewrites the request
 * line of a `DESCRIBE` into `PROPFIND` followed by the header `X-Edgeplane-Method: DESCRIBE`; the
 * result reaches the `http.Server` through a FramedSocket, a Duplex whose reads are the framed bytes
 * and whose writes go straight to the real socket. `requestMethod(req)` gives the handler the real
 * method back.
 *
 * Why this cannot make the front and Node disagree about where a request starts (request smuggling):
 * 1. The framer changes bytes only at a request start, and only for a `DESCRIBE` whose whole head it
 *    understood: the method becomes `PROPFIND` (as long as `DESCRIBE`) and one header line is inserted
 *    after the request line. Neither changes how llhttp frames that request: a request's body is
 *    framed by its Content-Length or Transfer-Encoding (and CONNECT or Upgrade make it special),
 *    never by an ordinary method or an unknown header.
 * 2. Every other byte reaches Node untouched and in order. So while the framer knows where requests
 *    start, Node parses exactly the stream it would parse without the front, DESCRIBE heads aside.
 * 3. The framer knows where requests start because it reads only a strict subset of HTTP/1.1 (see
 *    request-framer.ts) on which llhttp, in its strict mode, reads the same boundaries: lines end in
 *    CRLF, the head ends at the first empty line, a body is exactly Content-Length bytes or chunks
 *    whose sizes, extensions and trailers are well-formed, and no body otherwise. The http server is
 *    always built with `insecureHTTPParser: false`, so neither an option nor the process-wide
 *    `--insecure-http-parser` flag can make llhttp lenient behind the front's back.
 * 4. Whatever falls outside that subset, the framer passes through, untouched, for the rest of the
 *    connection: both Content-Length and Transfer-Encoding, a Transfer-Encoding other than exactly
 *    `chunked` (or on HTTP/1.0), an invalid or repeated Content-Length, obsolete line folding, a bare
 *    CR or LF, a head or trailer section over the limit (twice the http server's `maxHeaderSize`), a
 *    malformed chunk line or chunk end, `CONNECT`, an `Upgrade` header, HTTP/0.9, the HTTP/2 preface,
 *    a request line with more than single spaces. From then on it never rewrites, so Node alone
 *    frames what follows, and what it let through before was sound by 1 and 2. A `DESCRIBE` head it
 *    gave up on is let through as it came, and Node refuses it as it would anyway.
 * 5. Where llhttp is stricter than the framer (control characters in a value, a bad target, a method
 *    it does not know), Node answers 400 and destroys the connection, so nothing follows on which the
 *    two could disagree. This relies on the default 'clientError' handling; a 'clientError' listener
 *    added to the http server must end the socket too.
 *
 * The marker header is trusted only on a `PROPFIND` whose first header it is, where the front puts
 * it. A client sending it that way itself gets its request treated as a `DESCRIBE`, which it could
 * have asked for directly: nothing to gain.
 *
 * Timeouts keep working through the FramedSocket: `headersTimeout` and `requestTimeout` are checked
 * by the http server on its parsers (the front starts that tracking when it listens), from the first
 * byte Node sees; the front holds back at most a `DESCRIBE` head, and gives up on one still
 * incomplete after `headersTimeout`. `timeout` and `keepAliveTimeout` set the real socket's idle
 * timer, which the real socket's reads and writes reset, as for a bare server.
 *
 * Cost: the framer scans heads and chunk-size lines only, skips Content-Length bodies by count and
 * forwards the socket's buffers without copying; writes go to the real socket as they come (corked
 * batches become one writev). What a bare server avoids is the JavaScript hop per chunk: Node's
 * parser normally reads the socket natively.
 */
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import { DESCRIBE, METHOD_MARKER_HEADER, RequestFramer, REWRITTEN_METHOD } from './request-framer.js';
import { continueOnRead } from '../common/expect-continue.js';
import { closeGracefully } from '../common/graceful-close.js';
import { TurnWrites } from '../common/turn-writes.js';
import { bound } from '../plane.js';

export { DESCRIBE, METHOD_MARKER_HEADER, REWRITTEN_METHOD } from './request-framer.js';

/** The request's method as the client sent it: `DESCRIBE` for a request the front rewrote. */
export function requestMethod(req: IncomingMessage): string {
  const method = req.method ?? '';
  if (method !== REWRITTEN_METHOD) return method;
  const raw = req.rawHeaders;
  return raw[0] === METHOD_MARKER_HEADER && raw[1] === DESCRIBE ? DESCRIBE : method;
}

export interface ExtensionMethodServer {
  /** Accepts the TCP connections; listen on it (or use `listen`). */
  readonly server: net.Server;
  /** Parses and answers the framed requests; set its timeouts here. Never listens itself. */
  readonly http: http.Server;
  /** Starts listening; a bind failure rejects with the listener's own error (EADDRINUSE …). */
  listen(port: number, host: string): Promise<AddressInfo>;
  /**
   * Stops accepting, lets requests in flight finish, answers any request that arrives meanwhile on
   * an open connection with `Connection: close`, ends keep-alive connections as they become idle,
   * and resolves once every connection is closed. A connection that never completes a request
   * stays until the http server's headersTimeout (or forceClose), as with a bare server.
   */
  close(): Promise<void>;
  /** Ends every connection still open (slow clients), for when a graceful close takes too long. */
  forceClose(): void;
}

export function createExtensionMethodServer(handler: http.RequestListener, options: http.ServerOptions = {}): ExtensionMethodServer {
  let closing = false;
  const serve: http.RequestListener = (req, res) => {
    if (closing) res.setHeader('Connection', 'close');
    handler(req, res);
  };
  const httpServer = http.createServer({ ...options, insecureHTTPParser: false }, serve);
  // `100 Continue` only once the handler reads the body: a refusal comes first (common/expect-continue.ts).
  continueOnRead(httpServer, serve);
  const headLimit = 2 * (options.maxHeaderSize ?? http.maxHeaderSize);
  const holdTimeout = () => httpServer.headersTimeout || httpServer.requestTimeout;
  const connections = new Set<FramedSocket>();

  const server = net.createServer(
    {
      allowHalfOpen: true,
      noDelay: options.noDelay ?? true,
      keepAlive: options.keepAlive,
      keepAliveInitialDelay: options.keepAliveInitialDelay,
      highWaterMark: options.highWaterMark,
    },
    (socket) => {
      const framed = new FramedSocket(socket, headLimit, holdTimeout);
      connections.add(framed);
      socket.once('close', () => connections.delete(framed));
      httpServer.emit('connection', framed);
    },
  );
  // Answers leave at the end of the event loop's turn, as the API's do: held on the real sockets,
  // which every byte the framed connections write passes through.
  const turnWrites = new TurnWrites();
  turnWrites.hold(server);
  // The http server starts tracking its connections (for headersTimeout, requestTimeout and
  // closeIdleConnections) when it hears it listens; it never does, the front does.
  server.on('listening', () => httpServer.emit('listening'));

  return {
    server,
    http: httpServer,
    listen: async (port, host) => {
      await bound(server, (done) => server.listen(port, host, done));
      return server.address() as AddressInfo;
    },
    close: () => {
      closing = true;
      return closeGracefully(server, turnWrites, httpServer);
    },
    forceClose: () => {
      httpServer.closeAllConnections();
      for (const framed of connections) framed.destroy();
    },
  };
}

/**
 * What Node's http server sees as the connection: reads are the framer's output, writes go to the
 * real socket. It offers what `_http_server.js` and `_http_outgoing.js` use of a net.Socket; it has
 * no `_handle`, so Node reads it through 'data' events rather than natively.
 */
class FramedSocket extends Duplex {
  private readonly framer: RequestFramer;
  private socketPaused = false;
  private pendingWrite: ((error?: Error | null) => void) | null = null;
  private holdTimer: NodeJS.Timeout | undefined;
  private timedHold = 0;

  constructor(
    private readonly socket: net.Socket,
    headLimit: number,
    private readonly holdTimeout: () => number,
  ) {
    super({
      allowHalfOpen: true,
      decodeStrings: false,
      readableHighWaterMark: socket.readableHighWaterMark,
      writableHighWaterMark: socket.writableHighWaterMark,
    });
    this.framer = new RequestFramer(
      (bytes) => {
        if (!this.push(bytes) && !this.socketPaused) {
          this.socketPaused = true;
          socket.pause();
        }
      },
      { headLimit },
    );
    socket.on('data', (chunk: Buffer) => {
      this.framer.push(chunk);
      if (this.framer.holding) this.armHoldTimer();
      else if (this.holdTimer) this.clearHoldTimer();
    });
    socket.on('end', () => {
      this.clearHoldTimer();
      this.framer.passThrough();
      this.push(null);
    });
    socket.on('drain', () => {
      const callback = this.pendingWrite;
      this.pendingWrite = null;
      callback?.();
    });
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
    // Errors reach Node's own listener; this one only keeps an error after Node let go of the socket
    // from becoming an uncaught exception.
    this.on('error', () => {});
  }

  /** A DESCRIBE head held too long is let through as it came: Node refuses it as it would anyway. */
  private armHoldTimer(): void {
    const hold = this.framer.holdCount;
    if (this.holdTimer && this.timedHold === hold) return;
    this.clearHoldTimer();
    const timeout = this.holdTimeout();
    if (timeout <= 0) return;
    this.timedHold = hold;
    this.holdTimer = setTimeout(() => {
      this.holdTimer = undefined;
      this.framer.passThrough();
    }, timeout);
  }

  private clearHoldTimer(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }

  override _read(): void {
    if (this.socketPaused) {
      this.socketPaused = false;
      this.socket.resume();
    }
  }

  // The callback runs at once unless the real socket asks to wait: nothing queues here, so Node's
  // pipelining checks (`needDrain`) see the real socket's pressure, and a write followed at once by
  // destroy() (Node's 400 and 408) reaches the real socket first.
  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.socket.write(chunk, encoding)) callback();
    else this.pendingWrite = callback;
  }

  override _writev(chunks: { chunk: Buffer | string; encoding: BufferEncoding }[], callback: (error?: Error | null) => void): void {
    const socket = this.socket;
    socket.cork();
    let flowing = true;
    for (const { chunk, encoding } of chunks) flowing = socket.write(chunk, encoding);
    socket.uncork();
    if (flowing) callback();
    else this.pendingWrite = callback;
  }

  override _final(callback: (error?: Error | null) => void): void {
    // A socket destroyed meanwhile closes this one too; its error is not this stream's to report.
    this.socket.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.clearHoldTimer();
    this.socket.destroy();
    callback(error);
  }

  /** As net.Socket's: finish writing, then close (Node calls it after a response marked last). */
  destroySoon(): void {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }

  setTimeout(msecs: number, callback?: () => void): this {
    this.socket.setTimeout(msecs);
    if (callback) {
      if (msecs === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, initialDelay?: number): this {
    this.socket.setKeepAlive(enable, initialDelay);
    return this;
  }

  ref(): this {
    this.socket.ref();
    return this;
  }

  unref(): this {
    this.socket.unref();
    return this;
  }

  address(): AddressInfo | object {
    return this.socket.address();
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }

  get remoteFamily(): string | undefined {
    return this.socket.remoteFamily;
  }

  get localAddress(): string | undefined {
    return this.socket.localAddress;
  }

  get localPort(): number | undefined {
    return this.socket.localPort;
  }

  get localFamily(): string | undefined {
    return this.socket.localFamily;
  }

  get bytesRead(): number {
    return this.socket.bytesRead;
  }

  get bytesWritten(): number {
    return this.socket.bytesWritten;
  }

  get timeout(): number | undefined {
    return this.socket.timeout;
  }
}
