/**
 * The DNS plane's two UDP sockets (src/planes/dns/datagrams/) against one contract, over real
 * sockets: every datagram of a burst gets its answer, a kept source and message outlive their
 * batch, senders' addresses read as node:dgram reports them, a close sends (or drops) what was
 * already answered, and a taken port fails as a bind does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { udpBatching } from '../../../src/native/udp-batch.js';
import { bindDatagrams, type Datagrams } from '../../../src/planes/dns/datagrams/bind.js';
import { UdpClient } from './clients.js';
import { UDP_SOCKETS } from './start.js';

const opened: Datagrams[] = [];

afterEach(async () => {
  for (const socket of opened.splice(0)) await socket.close(false);
});

async function bind(batching: boolean, address = '127.0.0.1', port = 0): Promise<Datagrams> {
  const socket = await bindDatagrams(address, port, batching, () => undefined);
  opened.push(socket);
  return socket;
}

/** Answers each datagram with its bytes reversed, at once. */
function echoReversed(socket: Datagrams): void {
  socket.start((message, source) => socket.reply(source, Buffer.from(message).reverse()));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('on Linux the batching addon is built (npm ci builds it) and the plane uses it', async () => {
  if (process.platform !== 'linux') return;
  expect(udpBatching()).not.toBeInstanceOf(Error);
  expect((await bind(true)).kind).toBe('batched');
});

describe.each(UDP_SOCKETS)('the %s UDP socket', (kind, { udpBatching: batching }) => {
  it('answers every datagram of a burst larger than a batch (64), each to its sender with its own answer', async () => {
    const socket = await bind(batching);
    expect(socket.kind).toBe(process.platform === 'linux' ? kind : 'node:dgram');
    echoReversed(socket);
    const clients = [new UdpClient(socket.port, { from: '127.0.0.1' }), new UdpClient(socket.port, { from: '127.0.0.2' })];
    const sent = new Map<string, number>();
    for (let i = 0; i < 150; i++)
      for (const [c, client] of clients.entries()) {
        const bytes = Buffer.from(`query ${c}:${i} ${'x'.repeat(i)}`);
        sent.set(Buffer.from(bytes).reverse().toString('latin1'), c);
        client.send(bytes);
      }
    for (let waited = 0; waited < 3000 && clients.some((client) => client.received.length < 150); waited += 20) await wait(20);
    for (const [c, client] of clients.entries()) {
      expect(client.received).toHaveLength(150);
      for (const answer of client.received) expect(sent.get(answer.toString('latin1'))).toBe(c);
      client.close();
    }
  });

  it('keeps a source and a message past the call that got them: an answer made later reaches its sender intact', async () => {
    const socket = await bind(batching);
    socket.start((message, source) => {
      const to = socket.keep(source);
      const kept = socket.keepMessage(message);
      setTimeout(() => socket.reply(to, Buffer.concat([Buffer.from('late '), kept])), 30);
    });
    const client = new UdpClient(socket.port);
    client.send(Buffer.from('first'));
    client.send(Buffer.from('SECOND'));
    const answers = [await client.next(), await client.next()].map((answer) => answer?.toString());
    expect(answers.sort()).toEqual(['late SECOND', 'late first']);
    client.close();
  });

  it('reads senders’ addresses as node:dgram does, IPv4 and IPv6', async () => {
    const v4 = await bind(batching);
    const seen: string[] = [];
    v4.start((message, source) => {
      seen.push(v4.addressOf(source));
      v4.reply(source, message);
    });
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.3']) {
      const client = new UdpClient(v4.port, { from });
      client.send(Buffer.from('hello'));
      expect((await client.next())?.toString()).toBe('hello');
      client.close();
    }
    expect(seen).toEqual(['127.0.0.3', '127.0.0.4', '127.0.0.3']);

    const v6 = await bind(batching, '::1');
    v6.start((_message, source) => v6.reply(source, Buffer.from(v6.addressOf(source))));
    const client = new UdpClient(v6.port, { host: '::1' });
    client.send(Buffer.from('hello'));
    expect((await client.next())?.toString()).toBe('::1');
    client.close();
  });

  it('close(true) sends the answers already given, close(false) drops them; both free the port', async () => {
    for (const flush of [true, false]) {
      const socket = await bind(batching);
      socket.start((message, source) => {
        socket.reply(source, message);
        void socket.close(flush);
      });
      const client = new UdpClient(socket.port);
      client.send(Buffer.from('bye'));
      expect((await client.next(flush ? 1000 : 300))?.toString()).toBe(flush ? 'bye' : undefined);
      await socket.close(flush);
      client.close();
      const again = await bind(batching, '127.0.0.1', socket.port);
      expect(again.port).toBe(socket.port);
    }
  });

  it('fails to bind a taken port as a socket bind does (EADDRINUSE)', async () => {
    const taken = await bind(batching);
    await expect(bindDatagrams('127.0.0.1', taken.port, batching, () => undefined)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('the batched UDP socket', () => {
  it('drops a datagram larger than its slots (4096 bytes: no DNS query is) and answers the next', async () => {
    if (process.platform !== 'linux') return;
    const socket = await bind(true);
    echoReversed(socket);
    const client = new UdpClient(socket.port);
    client.send(Buffer.alloc(5000, 1));
    client.send(Buffer.from('ab'));
    expect((await client.next())?.toString()).toBe('ba');
    expect(await client.next(200)).toBeNull();
    client.close();
  });

  it('sends an answer larger than a slot on its own, whole', async () => {
    if (process.platform !== 'linux') return;
    const socket = await bind(true);
    socket.start((_message, source) => socket.reply(source, Buffer.alloc(6000, 7)));
    const client = new UdpClient(socket.port);
    client.send(Buffer.from('big'));
    expect((await client.next())?.length).toBe(6000);
    client.close();
  });
});
