/**
 * A deployment that waits for the API and then uses a plane must find that plane listening: the
 * API opens its port last, once every other plane listens. The server is started as `npm start`
 * starts it, on ports chosen beforehand, and its API polled as fast as a client could.
 */
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/nsd.js';
import { serverEnvironment, TEST_SERVER } from '../helpers/server-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Resolves true when a TCP connection to the port is accepted, false when it is refused. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Resolves true when a DNS query over UDP is answered within a second (a datagram sent to an unbound port is lost). */
function answersUdp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), 1000);
    socket.on('message', () => done(true));
    socket.on('error', () => done(false));
    socket.send(encode({ id: 7, type: 'query', questions: [{ name: 'example.test', type: 'A' }] }), port, '127.0.0.1');
  });
}

/** The status of `GET /_edgeplane/health`, or undefined while the port refuses connections. */
function health(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/_edgeplane/health', agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', () => resolve(undefined));
  });
}

describe('start-up order', () => {
  it('every plane takes connections as soon as the API first answers (three starts)', async () => {
    for (let start = 0, attempt = 0; start < 3; ) {
      const dir = mkdtempSync(join(tmpdir(), 'edgeplane-start-order-'));
      const [api, storage, edge, edgeTls, s3, dns] = [
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
      ];
      const env = serverEnvironment({
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        EDGEPLANE_BOOTSTRAP_KEY: 'bootstrap-key-0123456789',
        PORT: String(api),
        EDGEPLANE_STORAGE_PORT: String(storage),
        EDGEPLANE_EDGE_PORT: String(edge),
        EDGEPLANE_EDGE_TLS_PORT: String(edgeTls),
        EDGEPLANE_S3_PORT: String(s3),
        EDGEPLANE_DNS_PORT: String(dns),
      });
      const child = spawn(process.execPath, TEST_SERVER, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        const started = Date.now();
        let refused = false;
        while ((await health(api)) === undefined) {
          // Another test took one of the ports between freePort() and the server's bind: start again on others.
          if (child.exitCode !== null && /is already in use/.test(output) && ++attempt < 5) {
            refused = true;
            break;
          }
          if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`the API never answered:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        if (refused) continue;
        const [tcp, udp] = await Promise.all([Promise.all([storage, edge, edgeTls, s3, dns].map((port) => accepts(port))), answersUdp(dns)]);
        expect({ storage: tcp[0], edge: tcp[1], 'edge-tls': tcp[2], s3: tcp[3], 'dns tcp': tcp[4], 'dns udp': udp }, `start ${start + 1}`).toEqual({
          storage: true,
          edge: true,
          'edge-tls': true,
          s3: true,
          'dns tcp': true,
          'dns udp': true,
        });
        start++;
      } finally {
        child.kill('SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
