/**
 * Answers held until the end of the turn (the front door's writes): each reaches its own client,
 * and one whose client hung up meanwhile is skipped without holding back the others.
 */
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TurnWrites } from '../../src/planes/api/turn-writes.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('TurnWrites', () => {
  it('sends the answers queued in one turn, skipping a response whose client is gone', async () => {
    const writes = new TurnWrites();
    const held = new Map<string, ServerResponse>();
    let gone: () => void = () => {};
    const goneSeen = new Promise<void>((resolve) => (gone = resolve));
    const server = createServer((req, res) => {
      held.set(req.url ?? '', res);
      if (req.url === '/left') res.on('close', gone);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    const answered = fetch(`http://127.0.0.1:${port}/stays`).then(async (r) => ({ status: r.status, id: r.headers.get('x-id'), body: await r.text() }));
    const left = httpRequest({ host: '127.0.0.1', port, path: '/left' });
    left.on('error', () => {});
    left.end();
    while (held.size < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    left.destroy();
    await goneSeen;

    const body = Buffer.from('{"ok":true}');
    writes.end(held.get('/left')!, 200, { 'content-length': body.length }, body);
    writes.end(held.get('/stays')!, 200, { 'content-length': body.length, 'x-id': 'stays' }, body);
    expect(held.get('/stays')!.headersSent, 'nothing is written before the turn ends').toBe(false);
    expect(await answered).toEqual({ status: 200, id: 'stays', body: '{"ok":true}' });
    expect(held.get('/left')!.headersSent).toBe(false);
  });
});
