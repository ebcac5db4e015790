/**
 * A request the S3 plane refuses before reading its body gets its answer and a closed connection,
 * and a client still sending that body can finish sending and read the answer: the plane reads
 * and discards what comes after its answer instead of resetting the connection.
 */
import net from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createS3Zone, type S3Plane, type S3Zone, startS3Plane } from '../../helpers/s3-plane.js';

let t: TestContext;
let plane: S3Plane;
let zone: S3Zone;

beforeEach(async () => {
  t = await createTestApp();
  plane = await startS3Plane(t);
  zone = await createS3Zone(t, `linger-${Date.now().toString(36)}`);
});
afterEach(async () => {
  await plane.close();
  await t.close();
});

const BODY_BYTES = 8 * 1024 * 1024;

it('refuses an unsigned upload before its body, and lets the client send the rest before closing: no reset', async () => {
  // Half-open, as curl is: the plane's FIN after its answer does not end the upload.
  const socket = net.connect({ port: plane.port, host: '127.0.0.1', allowHalfOpen: true });
  socket.setNoDelay(true);
  let received = '';
  let failure: Error | undefined;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', (error) => (failure = error));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`PUT /${zone.Name}/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`);
  // The answer comes before any of the body is sent.
  for (let waited = 0; !received.includes('</Error>') && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(received).toMatch(/^HTTP\/1\.1 403 /);
  expect(received.toLowerCase()).toContain('connection: close');
  // Then the whole body: destroyed at once, the plane's socket would answer it with a reset (EPIPE / ECONNRESET here).
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (let sent = 0; sent < BODY_BYTES && !failure; sent += chunk.length) {
    if (!socket.write(chunk))
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
  }
  socket.end();
  await closed;
  expect(failure).toBeUndefined();
});

it('lingers for a bounded time: a client that keeps sending slowly and never ends is cut off about 2 s after the answer', async () => {
  const socket = net.connect({ port: plane.port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`PUT /${zone.Name}/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`);
  for (let waited = 0; !received.includes('</Error>') && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  const answered = Date.now();
  expect(received).toMatch(/^HTTP\/1\.1 403 /);
  // A trickle of the body: read and discarded while the plane lingers, reset once it has closed.
  const trickle = setInterval(() => socket.write(Buffer.alloc(1024, 0x61)), 100);
  const lingered = (await closed) - answered;
  clearInterval(trickle);
  expect(lingered).toBeGreaterThanOrEqual(1500);
  expect(lingered).toBeLessThan(5000);
});
