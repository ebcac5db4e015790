/**
 * A WebSocket echo server for the edge's tests: node:http's 'upgrade' event, the RFC 6455
 * handshake, and just enough framing to echo each text or binary message back, answer a ping, and
 * close when asked. A message `close-me` makes the server close the connection itself (code 4000);
 * a request to `/refuse` is answered 401 instead of switching protocols. `open` counts the
 * connections it holds; `handshakes` keeps each handshake's request headers.
 *
 *   const origin = await startWebSocketOrigin();
 *   const zone = await createPullZone(t, 'ws', origin.url, { EnableWebSockets: true });
 */
import { createHash } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const TEXT = 0x1;
const CLOSE = 0x8;
const PING = 0x9;
const PONG = 0xa;

export interface WebSocketOrigin {
  url: string;
  /** Connections open now. */
  readonly open: number;
  /** The request headers of each handshake, in order. */
  handshakes: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** An unmasked frame (a server's): FIN set, one opcode, the payload's length in the shortest form. */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const head = length < 126 ? Buffer.from([0x80 | opcode, length]) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (length >= 126 && length < 65_536) {
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else if (length >= 65_536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, payload]);
}

/** Reads whole client frames (masked) off the front of `buffer`: each opcode and payload, and the bytes left. */
function frames(buffer: Buffer): { messages: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const messages: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  for (;;) {
    if (buffer.length - at < 2) break;
    const opcode = buffer[at]! & 0x0f;
    let length = buffer[at + 1]! & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      if (buffer.length - offset < 2) break;
      length = buffer.readUInt16BE(offset);
      offset += 2;
    } else if (length === 127) {
      if (buffer.length - offset < 8) break;
      length = Number(buffer.readBigUInt64BE(offset));
      offset += 8;
    }
    if (buffer.length - offset < 4 + length) break;
    const mask = buffer.subarray(offset, offset + 4);
    const payload = Buffer.from(buffer.subarray(offset + 4, offset + 4 + length));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
    messages.push({ opcode, payload });
    at = offset + 4 + length;
  }
  return { messages, rest: buffer.subarray(at) };
}

export async function startWebSocketOrigin(): Promise<WebSocketOrigin> {
  const sockets = new Set<Socket>();
  const handshakes: WebSocketOrigin['handshakes'] = [];
  const server = http.createServer((_req, res) => res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only'));
  server.on('upgrade', (req, socket: Socket, head: Buffer) => {
    handshakes.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/refuse') {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain\r\ncontent-length: 11\r\nconnection: close\r\n\r\nno entrance');
      return;
    }
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${GUID}`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nX-Origin: echo\r\n\r\n`);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = head;
    const take = (chunk: Buffer) => {
      const { messages, rest } = frames(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const { opcode, payload } of messages) {
        if (opcode === CLOSE) {
          socket.end(frame(CLOSE, payload.subarray(0, 2)));
          return;
        }
        if (opcode === PING) socket.write(frame(PONG, payload));
        else if (opcode === TEXT && payload.toString() === 'close-me') socket.end(frame(CLOSE, Buffer.from([0x0f, 0xa0])));
        else if (opcode !== PONG) socket.write(frame(opcode, payload));
      }
    };
    socket.on('data', take);
    if (head.length > 0) take(Buffer.alloc(0));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get open() {
      return sockets.size;
    },
    handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
