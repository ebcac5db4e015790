/**
 * Just enough of a DNS server around an authority for outside tools to query it: UDP and TCP on a
 * free port of 127.0.0.1 (bound as the DNS plane binds), answers truncated over UDP when they do
 * not fit. The real answering is the DNS plane's; this keeps the domain's tests independent of it.
 */
import type { Socket } from 'node:net';
import { decode, encode, type OptAnswer, type Packet } from 'dns-packet';
import { truncated } from '../../../src/domain/dns/serving/response.js';
import { bindBoth } from '../../../src/planes/dns/listen.js';
import type { Authority, QueryContext } from '../../../src/domain/dns/serving/types.js';

export interface TinyServer {
  port: number;
  close(): Promise<void>;
}

async function respond(authority: Authority, message: Buffer, transport: 'udp' | 'tcp'): Promise<Buffer> {
  const query = decode(message);
  const opt = query.additionals?.find((a): a is OptAnswer => a.type === 'OPT');
  const context: QueryContext = {
    address: '127.0.0.1',
    transport,
    maxSize: transport === 'tcp' ? 65535 : opt ? Math.max(512, Math.min(opt.udpPayloadSize, 1232)) : 512,
    dnssecOk: opt !== undefined && (opt.flags & 0x8000) !== 0,
  };
  const { response } = await authority.answer(query, context);
  const bytes = encode(response);
  return bytes.length > context.maxSize ? encode(truncated(response as Packet)) : bytes;
}

export async function startTinyServer(authority: Authority): Promise<TinyServer> {
  // The plane's binding: one port for both, tried again when TCP finds UDP's free port taken.
  const { udp, tcp, boundPort: port } = await bindBoth('127.0.0.1', 0, { batching: true, logError: () => undefined });
  tcp.on('connection', (socket) => serveConnection(authority, socket));
  udp.start((message, source) => {
    const peer = udp.keep(source);
    respond(authority, udp.keepMessage(message), 'udp').then(
      (bytes) => udp.reply(peer, bytes),
      () => undefined,
    );
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        void udp.close(false);
        tcp.close(() => resolve());
      }),
  };
}

function serveConnection(authority: Authority, socket: Socket): void {
  let buffered = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
      const message = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
      buffered = buffered.subarray(2 + message.length);
      respond(authority, message, 'tcp').then(
        (bytes) => socket.write(Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes])),
        () => socket.destroy(),
      );
    }
  });
  socket.on('error', () => undefined);
}
