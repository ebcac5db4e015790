/**
 * What bounds the DNS plane: the rate limit per source, TCP's idle timeout and caps, and how it
 * stops: gracefully (answers in flight still sent) or at once; the rate limit and stopping over
 * both of the plane's UDP sockets.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { decode } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { type DnsPlaneOptions, listenDns } from '../../../src/planes/dns/listen.js';
import { PlaneListenError } from '../../../src/planes/plane.js';
import { FakeAuthority } from './fake-authority.js';
import { frame, query, TcpClient, UdpClient, udpAsk } from './clients.js';
import { startPlane, UDP_SOCKETS } from './start.js';

/** Sends `count` queries at once from `from` and sorts what comes back within `waitMs`. */
async function flood(port: number, from: string, count: number, waitMs = 500): Promise<{ answered: number; truncated: number }> {
  const client = new UdpClient(port, { from });
  try {
    for (let id = 0; id < count; id++) client.send(query('example.test', { id }));
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const replies = client.received.map((bytes) => decode(bytes));
    return { answered: replies.filter((r) => !r.flag_tc).length, truncated: replies.filter((r) => r.flag_tc).length };
  } finally {
    client.close();
  }
}

describe.each(UDP_SOCKETS)('over the %s UDP socket', (_kind, socket) => {
  const start = (options: DnsPlaneOptions = {}) => startPlane({ ...socket, ...options });

  describe('rate limit per source (UDP)', () => {
    it('answers a burst, then drops, answering every 2nd dropped query empty with TC set so a real client retries over TCP', async () => {
      const { plane } = await start({ rateLimitPerSecond: 20, rateLimitBurst: 20 });
      const { answered, truncated } = await flood(plane.port, '127.0.0.1', 60, 300);
      // 20 from the burst, plus what refills while the flood arrives (20/s: a few at most).
      expect(answered).toBeGreaterThanOrEqual(20);
      expect(answered).toBeLessThanOrEqual(27);
      expect(truncated).toBe(Math.floor((60 - answered) / 2));
      const client = await TcpClient.connect(plane.port);
      await client.write(frame(query('example.test', { id: 99 })));
      expect(await client.next()).toMatchObject({ id: 99, rcode: 'NOERROR', flag_tc: false });
      client.destroy();
    });

    it('limits each source on its own: another address is answered while the first is limited', async () => {
      const { plane } = await start({ rateLimitPerSecond: 10, rateLimitBurst: 10, rateLimitSlip: 0 });
      const first = await flood(plane.port, '127.0.0.1', 40, 200);
      expect(first.answered).toBeLessThanOrEqual(14);
      expect(first.truncated).toBe(0);
      const second = await flood(plane.port, '127.0.0.2', 5, 200);
      expect(second.answered).toBe(5);
    });

    it('refills: a limited source is answered again a moment later', async () => {
      const { plane } = await start({ rateLimitPerSecond: 50, rateLimitBurst: 5, rateLimitSlip: 0 });
      await flood(plane.port, '127.0.0.1', 20, 100);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await udpAsk(plane.port, query('example.test'))).toMatchObject({ rcode: 'NOERROR' });
    });
  });
});

describe('TCP limits', () => {
  it('closes a connection idle for tcpIdleTimeoutMs', async () => {
    const { plane } = await startPlane({ tcpIdleTimeoutMs: 300 });
    const client = await TcpClient.connect(plane.port);
    const started = Date.now();
    await client.write(frame(query('example.test')));
    await client.next();
    expect(await client.closesWithin(2000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('keeps a connection open while an answer is still being worked out, past the idle timeout', async () => {
    const { plane, authority } = await startPlane({ tcpIdleTimeoutMs: 100 });
    authority.slowMs = 400;
    const client = await TcpClient.connect(plane.port);
    await client.write(frame(query('slow.example.test', { id: 3 })));
    expect(await client.next(2000)).toMatchObject({ id: 3, rcode: 'NOERROR' });
    expect(await client.closesWithin(1000)).toBe(true);
  });

  it('refuses connections over maxTcpConnections, and serves the others', async () => {
    const { plane } = await startPlane({ maxTcpConnections: 2 });
    const kept = [await TcpClient.connect(plane.port), await TcpClient.connect(plane.port)];
    const extra = await TcpClient.connect(plane.port);
    expect(await extra.closesWithin(1000)).toBe(true);
    for (const client of kept) {
      await client.write(frame(query('example.test', { id: 8 })));
      expect(await client.next()).toMatchObject({ id: 8 });
      client.destroy();
    }
  });

  it('caps the connections of one client (maxTcpConnectionsPerClient): one address trickling on all it can open leaves TCP to the others', async () => {
    const { plane } = await startPlane({ maxTcpConnections: 100, maxTcpConnectionsPerClient: 10, tcpMessageTimeoutMs: 10_000 });
    // As many connections as the plane takes in all, from one address, each holding a message begun.
    const tricklers = await Promise.all(Array.from({ length: 100 }, () => TcpClient.connect(plane.port, '127.0.0.1', '127.0.0.1')));
    for (const client of tricklers) client.socket.write(Buffer.of(0));
    const cut = Promise.all(tricklers.map((client) => client.closesWithin(1000)));

    const other = await TcpClient.connect(plane.port, '127.0.0.1', '127.0.0.2');
    await other.write(frame(query('example.test', { id: 11 })));
    expect(await other.next()).toMatchObject({ id: 11, rcode: 'NOERROR' });
    other.destroy();
    expect((await cut).filter(Boolean)).toHaveLength(90);

    // A client's count goes down as its connections close.
    for (const client of tricklers) client.destroy();
    await Promise.all(tricklers.map((client) => client.closed));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await TcpClient.connect(plane.port, '127.0.0.1', '127.0.0.1');
    await again.write(frame(query('example.test', { id: 12 })));
    expect(await again.next()).toMatchObject({ id: 12 });
    again.destroy();
  });

  it('cuts a connection whose message is not whole tcpMessageTimeoutMs after its first byte, though bytes keep coming', async () => {
    const { plane } = await startPlane({ tcpIdleTimeoutMs: 10_000, tcpMessageTimeoutMs: 300 });
    const client = await TcpClient.connect(plane.port);
    const bytes = frame(query('example.test'));
    let closed = false;
    void client.closed.then(() => (closed = true));
    const started = Date.now();
    // A byte every 50 ms: the whole message would take 1.6 s.
    const trickle = (async () => {
      for (let i = 0; i < bytes.length && !closed; i++) {
        client.socket.write(bytes.subarray(i, i + 1));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    expect(await client.closesWithin(1200)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await trickle;
  });

  it('keeps a client whose queries each arrive whole in time, in pieces, for longer than the idle timeout', async () => {
    const { plane } = await startPlane({ tcpIdleTimeoutMs: 400, tcpMessageTimeoutMs: 300 });
    const client = await TcpClient.connect(plane.port);
    for (let id = 1; id <= 4; id++) {
      const bytes = frame(query('example.test', { id }));
      await client.write(bytes.subarray(0, 5));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.write(bytes.subarray(5));
      expect(await client.next()).toMatchObject({ id, rcode: 'NOERROR' });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    client.destroy();
  });

  it('cuts a client that has not closed its side 2 s after the plane ended the connection, though it keeps sending', async () => {
    const { plane } = await startPlane({ tcpIdleTimeoutMs: 200 });
    // Half-open allowed: the client does not close its side when the plane ends the connection.
    const socket = net.connect({ port: plane.port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => {});
    const ended = new Promise<number>((resolve) => socket.once('end', () => resolve(Date.now())));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    let open = true;
    void closed.then(() => (open = false));
    await ended;
    const sending = (async () => {
      // Bytes after the end are read and ignored; they must not keep the connection open.
      for (let i = 0; i < 40 && open; i++) {
        socket.write(Buffer.of(0));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const result = await Promise.race([closed, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 3000))]);
    socket.destroy();
    await sending;
    expect(result).not.toBe('open');
    expect((result as number) - (await ended)).toBeGreaterThanOrEqual(1900);
  });

  it('works on at most maxTcpQueriesInFlight queries of a connection at once, and answers them all', async () => {
    const { plane, authority } = await startPlane({ maxTcpQueriesInFlight: 2 });
    authority.slowMs = 150;
    const client = await TcpClient.connect(plane.port);
    const started = Date.now();
    await client.write(Buffer.concat([1, 2, 3, 4].map((id) => frame(query('slow.example.test', { id })))));
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await client.next()).id);
    expect(ids.sort()).toEqual([1, 2, 3, 4]);
    // Two rounds of two: the last two started only when the first two were answered.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    client.destroy();
  });
});

describe.each(UDP_SOCKETS)('over the %s UDP socket', (_kind, socket) => {
  const start = (options: DnsPlaneOptions = {}) => startPlane({ ...socket, ...options });

  describe('stopping', () => {
    it('close() answers the queries in flight over both transports, then stops listening', async () => {
      const { plane } = await start();
      const tcp = await TcpClient.connect(plane.port);
      await tcp.write(frame(query('slow.example.test', { id: 1 })));
      const udp = new UdpClient(plane.port);
      udp.send(query('slow.example.test', { id: 2 }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      let closed = false;
      const closing = plane.close().then(() => (closed = true));
      expect(await tcp.next()).toMatchObject({ id: 1, rcode: 'NOERROR' });
      expect(decode((await udp.next())!)).toMatchObject({ id: 2, rcode: 'NOERROR' });
      await closing;
      expect(closed).toBe(true);
      udp.close();
      await expect(TcpClient.connect(plane.port)).rejects.toThrow(/ECONNREFUSED/);
    });

    it('forceClose() cuts connections whose answers are not ready, and close() then resolves', async () => {
      const { plane, authority } = await start();
      authority.slowMs = 5000;
      const tcp = await TcpClient.connect(plane.port);
      await tcp.write(frame(query('slow.example.test')));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closing = plane.close();
      plane.forceClose();
      await closing;
      expect(await tcp.closesWithin(1000)).toBe(true);
    });
  });
});

describe('listening', () => {
  it('names EDGEPLANE_DNS_PORT when the port is taken, over UDP or over TCP', async () => {
    const { plane } = await startPlane();
    const error = await listenDns(new FakeAuthority(), '127.0.0.1', plane.port).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlaneListenError);
    expect((error as Error).message).toMatch(/^EDGEPLANE_DNS_PORT: port \d+ on 127\.0\.0\.1 is already in use/);

    const tcpOnly = net.createServer();
    await new Promise<void>((resolve) => tcpOnly.listen(0, '127.0.0.1', resolve));
    const port = (tcpOnly.address() as net.AddressInfo).port;
    try {
      await expect(listenDns(new FakeAuthority(), '127.0.0.1', port)).rejects.toThrow(/EDGEPLANE_DNS_PORT: port \d+ on 127\.0\.0\.1 is already in use/);
    } finally {
      await new Promise((resolve) => tcpOnly.close(resolve));
    }
    // The UDP socket of the failed attempt was released: once TCP is free, the port binds.
    const again = await listenDns(new FakeAuthority(), '127.0.0.1', port);
    expect(again.port).toBe(port);
    await again.close();
  });

  it('resolves a host name once, so UDP and TCP listen on the same address', async () => {
    const { address } = await lookup('localhost');
    const { plane } = await startPlane({}, 'localhost');
    expect(plane.url).toBe(`dns://localhost:${plane.port}`);
    expect(await udpAsk(plane.port, query('example.test', { id: 5 }), 1000, address)).toMatchObject({ id: 5 });
    const tcp = await TcpClient.connect(plane.port, address);
    await tcp.write(frame(query('example.test', { id: 6 })));
    expect(await tcp.next()).toMatchObject({ id: 6 });
    tcp.destroy();
  });

  it('listens on IPv6, the address in brackets in its URL', async () => {
    const { plane } = await startPlane({}, '::1');
    expect(plane.url).toBe(`dns://[::1]:${plane.port}`);
    expect(await udpAsk(plane.port, query('example.test', { id: 6 }), 1000, '::1')).toMatchObject({ id: 6, rcode: 'NOERROR' });
    const tcp = await TcpClient.connect(plane.port, '::1');
    await tcp.write(frame(query('example.test', { id: 7 })));
    expect(await tcp.next()).toMatchObject({ id: 7 });
    tcp.destroy();
  });
});
