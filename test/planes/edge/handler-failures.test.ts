/**
 * Whatever a request causes stays with that request: a throw while deciding or writing an answer
 * (at once or from a promise, node:http refusing a header included) is logged and answered 500, or
 * ends the connection when the head went already. The edge's handler with a stand-in pipeline,
 * and the last resort every plane's listener runs in (common/last-resort.ts), over real sockets in
 * this process: an error escaping them would leave the request unanswered and fail the run.
 */
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../../src/planes/edge/delivery.js';
import { edgeHandler } from '../../../src/planes/edge/handler.js';
import { guardedListener } from '../../../src/planes/common/last-resort.js';
import { rawRequest } from '../../helpers/raw-http.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(listener: RequestListener): Promise<number> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const get = (port: number, path = '/') => rawRequest(port, 'edge.test', path);

describe('the edge handler', () => {
  const logged: unknown[] = [];
  let done: number[] = [];
  let destroyed = false;
  const delivery = (headers: Record<string, string>, streamed: boolean): Delivery => {
    const body = streamed ? new Readable({ read() {} }) : Buffer.from('body');
    if (!Buffer.isBuffer(body)) body.once('close', () => (destroyed = true));
    return { status: 200, headers, body, cacheStatus: 'MISS', done: (bytes) => done.push(bytes) };
  };
  /** What the stand-in pipeline does for each path. */
  const answers: Record<string, () => Delivery | Promise<Delivery>> = {
    '/bad-header': () => delivery({ 'x-echo': '€' }, false),
    '/bad-header-later': () => Promise.resolve(delivery({ 'x-echo': 'a\r\nSet-Cookie: x=1' }, true)),
    '/throws': () => {
      throw new Error('the pipeline broke');
    },
    '/rejects': () => Promise.reject(new Error('the pipeline broke later')),
    '/fine': () => delivery({ 'content-type': 'text/plain' }, false),
  };
  const pipeline = { serve: (request: { path: string }) => answers[request.path]!() };

  it('answers 500 for a header node:http refuses, at once or from a promise, and releases the answer', async () => {
    const port = await serve(edgeHandler(pipeline, 'http', (error) => logged.push(error)));
    done = [];
    destroyed = false;
    const first = await get(port, '/bad-header');
    expect(first.status).toBe(500);
    expect(first.headers['x-echo']).toBeUndefined();
    const second = await get(port, '/bad-header-later');
    expect(second.status).toBe(500);
    expect(second.headers['set-cookie']).toBeUndefined();
    expect(done).toEqual([0, 0]);
    expect(destroyed).toBe(true);
    expect(logged.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['ERR_INVALID_CHAR', 'ERR_INVALID_CHAR']);
  });

  it('answers 500 when the pipeline throws or rejects, and keeps answering', async () => {
    logged.length = 0;
    const port = await serve(edgeHandler(pipeline, 'http', (error) => logged.push(error)));
    expect((await get(port, '/throws')).status).toBe(500);
    expect((await get(port, '/rejects')).status).toBe(500);
    expect(logged.map((e) => (e as Error).message)).toEqual(['the pipeline broke', 'the pipeline broke later']);
    const fine = await get(port, '/fine');
    expect(fine.status).toBe(200);
    expect(fine.text).toBe('body');
  });
});

describe('the last resort of every plane’s listener', () => {
  it('answers 500 for what a listener throws or rejects with, even from its own error answer', async () => {
    const logged: unknown[] = [];
    const port = await serve(
      guardedListener(
        async (req, res) => {
          if (req.url === '/sync') throw new Error('at once');
          await Promise.resolve();
          if (req.url === '/async') throw new Error('later');
          // A plane's own failure answer that fails too: a header node:http will not send.
          if (req.url === '/error-answer') res.writeHead(400, { 'x-why': 'bad\nvalue' });
          res.writeHead(200, { 'content-length': 2 });
          res.end('ok');
        },
        (error) => logged.push(error),
      ),
    );
    for (const path of ['/sync', '/async', '/error-answer']) {
      const res = await get(port, path);
      expect(res.status, path).toBe(500);
      expect(res.text, path).toBe('Internal Server Error');
    }
    expect(logged).toHaveLength(3);
    expect((await get(port, '/fine')).text).toBe('ok');
  });

  it('ends the connection when the head went already', async () => {
    const logged: unknown[] = [];
    const port = await serve(
      guardedListener(
        async (req, res) => {
          if (req.url === '/fine') {
            res.end('ok');
            return;
          }
          res.writeHead(200, { 'content-length': 100 });
          res.write('part');
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new Error('mid-answer');
        },
        (error) => logged.push(error),
      ),
    );
    await expect(get(port, '/broken')).rejects.toThrow();
    expect(logged.map((e) => (e as Error).message)).toEqual(['mid-answer']);
    expect((await get(port, '/fine')).text).toBe('ok');
  });
});
