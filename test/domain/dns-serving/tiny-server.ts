/**
 * Just enough of a DNS server around an authority for outside tools to query it: UDP and TCP on a
 * free port of 127.0.0.1, answers truncated over UDP when they do not fit. The real transport is
 * the DNS plane's; this only keeps the domain's tests independent of it.
 */
import { createSocket } from 'node:dgram';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { decode, encode, type OptAnswer, type Packet } from 'dns-packet';
import { truncated } from '../../../src/domain/dns/serving/response.js';
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
  // UDP takes a free port; TCP may find that port taken by another test's socket, so the pair is
  // tried again on another port rather than left unbound (which once hung a CI run's hook).
  for (;;) {
    const udp = createSocket('udp4');
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const port = udp.address().port;
    const tcp = tcpServer(authority);
    const listening = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!listening) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      continue;
    }
    if ((tcp.address() as AddressInfo).port !== port) throw new Error('TCP did not get the UDP port');
    udp.on('message', (message, peer) => {
      respond(authority, message, 'udp').then(
        (bytes) => udp.send(bytes, peer.port, peer.address),
        () => undefined,
      );
    });
    return {
      port,
      close: () =>
        new Promise<void>((resolve) => {
          udp.close();
          tcp.close(() => resolve());
        }),
    };
  }
}

function tcpServer(authority: Authority): Server {
  return createServer((socket) => {
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
  });
}
