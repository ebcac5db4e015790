/**
 * A raw HTTP/1.1 client for tests of the storage plane's front: it writes bytes exactly as given (in
 * one write, or one byte per write) and reads responses off the socket with a small parser, so a
 * test controls framing that no HTTP client library would produce.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { requestMethod } from '../../../src/planes/storage/extension-methods.js';

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated ones joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /** The response's bytes with the Date header removed, to compare two servers' answers. */
  normalized: string;
}

/** What the echo handler answers: what Node's http server made of the request. */
export interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  trailers: Record<string, string | undefined>;
  bodyLength: number;
  bodySha256: string;
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Answers every request with a JSON echo of it, once its body has been read whole. */
export const echoHandler: http.RequestListener = (req, res) => {
  const hash = createHash('sha256');
  let length = 0;
  req.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    length += chunk.length;
  });
  req.on('end', () => {
    const echo: Echo = {
      method: requestMethod(req),
      url: req.url ?? '',
      headers: req.headers,
      trailers: req.trailers,
      bodyLength: length,
      bodySha256: hash.digest('hex'),
    };
    const body = JSON.stringify(echo);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
};

export const echoOf = (response: RawResponse): Echo => JSON.parse(response.body.toString('utf8')) as Echo;

const HEAD_END = Buffer.from('\r\n\r\n');

export class RawClient {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;
  /** Settles when the socket has closed, whoever closed it. */
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('end', () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on('error', (error) => {
      this.error = error;
      this.wake?.();
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawClient(socket));
      });
    });
  }

  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** One byte per write, each sent before the next is written (the socket has no Nagle delay). */
  async writeBytewise(bytes: string | Buffer): Promise<void> {
    const all = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
    for (let i = 0; i < all.length; i++) {
      await this.write(all.subarray(i, i + 1));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Reads the next response; `head` says it answers a HEAD (no body, whatever the headers say). */
  async response(options: { head?: boolean; timeoutMs?: number } = {}): Promise<RawResponse> {
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    for (;;) {
      const parsed = this.parse(options.head ?? false);
      if (parsed) return parsed;
      if (this.error) throw this.error;
      if (this.ended) throw new Error(`connection ended before a whole response; received: ${JSON.stringify(this.buffer.toString('latin1'))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no whole response in time; received: ${JSON.stringify(this.buffer.toString('latin1'))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Resolves with whatever arrived but was not read as a response, once the server closed. */
  async rest(timeoutMs = 5000): Promise<string> {
    await Promise.race([this.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the server did not close the connection')), timeoutMs))]);
    return this.buffer.toString('latin1');
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(head: boolean): RawResponse | undefined {
    const buffer = this.buffer;
    const headEnd = buffer.indexOf(HEAD_END);
    if (headEnd === -1) return undefined;
    const lines = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(lines[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let at = headEnd + 4;
    let body: Buffer;
    if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) {
      body = Buffer.alloc(0);
    } else if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = buffer.indexOf('\r\n', at);
        if (lineEnd === -1) return undefined;
        const size = Number.parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
        if (size === 0) {
          const trailersEnd = buffer.indexOf('\r\n\r\n', lineEnd);
          if (buffer.subarray(lineEnd, lineEnd + 4).equals(HEAD_END)) at = lineEnd + 4;
          else if (trailersEnd === -1) return undefined;
          else at = trailersEnd + 4;
          break;
        }
        if (buffer.length < lineEnd + 2 + size + 2) return undefined;
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (buffer.length < at + length) return undefined;
      body = buffer.subarray(at, at + length);
      at += length;
    } else {
      // Neither: the body runs to the end of the connection.
      if (!this.ended) return undefined;
      body = buffer.subarray(at);
      at = buffer.length;
    }
    const raw = buffer.subarray(0, at).toString('latin1');
    this.buffer = buffer.subarray(at);
    return { status, headers, body: Buffer.from(body), normalized: raw.replace(/^Date: .*\r\n/im, '') };
  }
}

/** Starts a bare node:http server (no front) with the same handler, to compare answers against. */
export async function bareServer(handler: http.RequestListener, options: http.ServerOptions = {}): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer({ ...options, insecureHTTPParser: false }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sends `bytes` on a fresh connection and collects every response until the server closes or goes
 * quiet, as normalized text, plus whether the server closed the connection.
 */
export async function exchange(port: number, bytes: string | Buffer, quietMs = 150): Promise<{ responses: string[]; closed: boolean }> {
  const client = await RawClient.connect(port);
  await client.write(bytes);
  const responses: string[] = [];
  for (;;) {
    try {
      responses.push((await client.response({ timeoutMs: quietMs })).normalized);
    } catch {
      break;
    }
  }
  const closed = await Promise.race([client.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), quietMs))]);
  client.destroy();
  return { responses, closed };
}
