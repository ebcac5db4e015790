/**
 * A real syslog collector for tests: RFC 5424 messages over UDP (one per datagram), or over TCP
 * and TLS with RFC 6587 octet counting, on a free loopback port. `stop()` closes it (its
 * connections too) and `restart()` listens again on the same port, as a collector that goes down
 * and comes back.
 *
 *   const receiver = await startSyslogReceiver('tcp');
 *   await within(2000, () => receiver.messages.length === 3);
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

export interface SyslogReceiver {
  port: number;
  /** Every message received, in order. */
  messages: string[];
  stop(): Promise<void>;
  restart(): Promise<void>;
}

/** `port`: the one to listen on (default: a free one). */
export async function startSyslogReceiver(transport: 'udp' | 'tcp' | 'tls', tls?: { cert: string; key: string }, port = 0): Promise<SyslogReceiver> {
  const messages: string[] = [];
  let udp: UdpSocket | undefined;
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const space = buffer.indexOf(0x20);
        if (space < 0) return;
        const length = Number(buffer.subarray(0, space).toString());
        if (buffer.length < space + 1 + length) return;
        messages.push(buffer.subarray(space + 1, space + 1 + length).toString());
        buffer = buffer.subarray(space + 1 + length);
      }
    });
  };
  const listen = async () => {
    if (transport === 'udp') {
      // Room for a burst sent while the test's own event loop is busy (Linux caps it at net.core.rmem_max).
      const socket = createSocket({ type: 'udp4', recvBufferSize: 4 << 20 });
      socket.on('message', (message) => messages.push(message.toString()));
      await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
      udp = socket;
      port = socket.address().port;
      return;
    }
    const created = transport === 'tls' ? createTlsServer({ cert: tls!.cert, key: tls!.key }, onConnection) : createTcpServer(onConnection);
    await new Promise<void>((resolve) => created.listen(port, '127.0.0.1', resolve));
    server = created;
    port = (created.address() as { port: number }).port;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    messages,
    async stop() {
      if (udp) await new Promise<void>((resolve) => udp!.close(() => resolve()));
      udp = undefined;
      if (server) {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
      }
      server = undefined;
    },
    restart: listen,
  };
}
