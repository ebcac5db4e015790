/**
 * Answers held until the end of the event loop's turn (TurnWrites, on the API's server): each
 * connection still gets all of its bytes, in order, with back-pressure, and nothing is held once
 * the server starts closing.
 */
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TurnWrites } from '../../src/planes/common/turn-writes.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serving(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const writes = new TurnWrites();
  const server = createServer(handler);
  writes.hold(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { writes, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, port: (server.address() as AddressInfo).port };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnWrites', () => {
  it('holds an answer until the turn ends, then writes it; after release() it writes at once', async () => {
    const buffered: number[] = [];
    const afterTurn: number[] = [];
    const { writes, base } = await serving((_req, res) => {
      res.end('hello');
      buffered.push(res.socket!.writableLength);
      setImmediate(() => afterTurn.push(res.socket?.writableLength ?? 0));
    });
    expect(await (await fetch(base)).text()).toBe('hello');
    await nextTurn();
    expect(buffered[0], 'still held right after end()').toBeGreaterThan(0);
    expect(afterTurn[0], 'written by the end of the turn').toBe(0);

    writes.release();
    expect(await (await fetch(base)).text()).toBe('hello');
    expect(buffered[1], 'written at once once released').toBe(0);
  });

  it('sends what a socket wrote just before it was destroyed: the 400 of a request Node cannot parse', async () => {
    const { port } = await serving((_req, res) => res.end('never'));
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n');
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('keeps the order of pipelined answers on one connection', async () => {
    const { port } = await serving((req, res) => res.end(`answer to ${req.url}`));
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.write(['/one', '/two', '/three'].map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
    while (!received.includes('answer to /three')) await new Promise((resolve) => setTimeout(resolve, 5));
    socket.destroy();
    const bodies = [...received.matchAll(/answer to \/(?:one|two|three)/g)].map((m) => m[0]);
    expect(bodies).toEqual(['answer to /one', 'answer to /two', 'answer to /three']);
  });

  it('delivers an answer larger than the socket takes at once, whole', async () => {
    const big = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(i, i);
    const { base } = await serving((_req, res) => {
      res.write(big.subarray(0, big.length / 2));
      res.end(big.subarray(big.length / 2));
    });
    const body = Buffer.from(await (await fetch(base)).arrayBuffer());
    expect(body.equals(big)).toBe(true);
  });

  it("writes the turn's other answers when one client has hung up", async () => {
    const held = new Map<string, ServerResponse>();
    let gone: () => void = () => {};
    const goneSeen = new Promise<void>((resolve) => (gone = resolve));
    const { base, port } = await serving((req, res) => {
      held.set(req.url ?? '', res);
      if (req.url === '/left') res.on('close', gone);
    });
    const answered = fetch(`${base}/stays`).then((r) => r.text());
    const left = httpRequest({ host: '127.0.0.1', port, path: '/left' });
    left.on('error', () => {});
    left.end();
    while (held.size < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    left.destroy();
    await goneSeen;
    held.get('/left')!.end('to no one');
    held.get('/stays')!.end('still here');
    expect(await answered).toBe('still here');
  });
});
