/**
 * The listener contract scripts depend on: one line per listening plane with its real port, the
 * health answer's `planes`, a port in use named by its variable, and a graceful stop on SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { request as undiciRequest } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.js';
import { startServer } from '../helpers/server-process.js';
import { exchange } from '../planes/storage/raw-http.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-planes-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const KEY = 'bootstrap-key-0123456789';

describe('planes: listeners', () => {
  it('prints one line per listening plane with the bound port, then the line scripts wait for', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: KEY });
    try {
      const lines = server.stdout().trim().split('\n');
      const api = /^edgeplane: api listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(lines.find((l) => l.includes('api listening')) ?? '');
      expect(api).not.toBeNull();
      expect(Number(api![2])).toBeGreaterThan(0);
      expect(api![1]).toBe(server.base);
      expect(lines.at(-1)).toBe(`edgeplane: listening on ${server.base} (store: sqlite)`);
      // The API opens last, once the other planes listen (start-order.test.ts).
      expect(lines.at(-2)).toBe(`edgeplane: api listening on ${server.base}`);
      const health = await (await fetch(`${server.base}/_edgeplane/health`)).json();
      expect(health).toMatchObject({ status: 'ok', store: 'sqlite', planes: { api: 'ok' } });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('answers a request it cannot parse with 400 on every HTTP plane, though answers wait for the end of the turn', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: KEY });
    try {
      const urls = [...server.stdout().matchAll(/^edgeplane: (api|storage|edge|s3) listening on http:\/\/127\.0\.0\.1:(\d+)$/gm)];
      expect(urls.map((m) => m[1]).sort()).toEqual(['api', 'edge', 's3', 'storage']);
      for (const [, plane, port] of urls) {
        const { responses } = await exchange(Number(port), 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n');
        expect(responses[0], plane).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      }
      // The bundle leaves sharp out (a native binding): the edge's optimizer still resizes with it.
      const edgePort = Number(urls.find((m) => m[1] === 'edge')![2]);
      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer();
      const origin = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg', 'cache-control': 'max-age=60' }).end(photo));
      await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
      try {
        const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
        const created = await fetch(`${server.base}/pullzone`, {
          method: 'POST',
          headers: { AccessKey: KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ Name: 'bundled-optimizer', OriginUrl: originUrl }),
        });
        const zone = (await created.json()) as { Id: number };
        await fetch(`${server.base}/pullzone/${zone.Id}`, {
          method: 'POST',
          headers: { AccessKey: KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ OptimizerEnabled: true }),
        });
        const answer = await undiciRequest(`http://127.0.0.1:${edgePort}/a.jpg?width=16`, { headers: { host: 'bundled-optimizer.edgeplane.test' } });
        const image = Buffer.from(await answer.body.arrayBuffer());
        expect([answer.statusCode, (await sharp(image).metadata()).width]).toEqual([200, 16]);
      } finally {
        origin.close();
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('reads `off` and `0` for a port, and refuses other words naming the variable', () => {
    expect(readConfig({ PORT: 'off' }).port).toBe('off');
    expect(readConfig({ PORT: '0' }).port).toBe(0);
    expect(() => readConfig({ PORT: 'none' })).toThrow(/PORT/);
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT/);
  });

  it('refuses PostgreSQL without EDGEPLANE_FILES_URL: instances must share one files backend', async () => {
    const failure = await startServer({
      DATABASE_URL: 'postgres://edgeplane@127.0.0.1:1/none',
      EDGEPLANE_MASTER_KEY: 'ab'.repeat(32),
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(/EDGEPLANE_FILES_URL: with PostgreSQL it must be set/);
  });

  it('ends with a non-zero exit and a message naming the variable when a port is in use', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const failure = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: String(port) }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(failure).toMatchObject({ code: 1 });
      expect((failure as { stderr: string }).stderr).toContain(`edgeplane: PORT: port ${port} on 127.0.0.1 is already in use`);
    } finally {
      taken.close();
    }
  });

  it('on SIGTERM lets a request in flight finish, refuses new connections, and exits within 10 s', async () => {
    // The operator's fault injection holds this one route for 1.5 s: a request reliably in flight.
    const faults = JSON.stringify({ rules: [{ path: '/pullzone/count', latencyMs: 1500 }] });
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: KEY, EDGEPLANE_FAULTS: faults });
    const inFlight = fetch(`${server.base}/pullzone/count`, { headers: { AccessKey: KEY } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await fetch(`${server.base}/pullzone/count`, { headers: { AccessKey: KEY, connection: 'close' } }).then(
      (r) => r.status,
      (e: Error) => e.message,
    );
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ Count: 0 });
    expect(refused).not.toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      if (server.child.exitCode !== null) resolve(server.child.exitCode);
      else server.child.once('exit', (c) => resolve(c));
    });
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
