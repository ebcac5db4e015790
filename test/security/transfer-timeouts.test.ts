/**
 * The storage and S3 planes over real sockets, their timeouts scaled down (idle 500 ms, head 1.2 s):
 * an upload whose bytes keep coming finishes however long it takes, while the same trickle under a
 * whole-request deadline of the same size (the planes' old design, Node's `requestTimeout`, then
 * 300 s) is cut with a 408; an upload or a download that stalls is cut after the idle time; a
 * plane still working on an answer keeps the connection; a head trickled byte by byte is cut at
 * the head's deadline.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenS3 } from '../../src/planes/s3/listen.js';
import { cutStalledTransfers, type TransferTimeouts, trackExchange, transferServerOptions } from '../../src/planes/common/transfer-timeouts.js';
import { createExtensionMethodServer } from '../../src/planes/storage/extension-methods.js';
import { storageHandler } from '../../src/planes/storage/handler.js';
import { listenStorage } from '../../src/planes/storage/listen.js';
import type { RunningPlane } from '../../src/planes/plane.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createS3Zone, type S3Zone } from '../helpers/s3-plane.js';
import { signedHeaders } from '../helpers/s3-signing.js';
import { createStorageZone, type Zone } from '../helpers/storage-plane.js';

const TIMEOUTS: TransferTimeouts = { idleMs: 500, headersMs: 1200 };
/** The trickle: one byte every 60 ms for 1.44 s, near three times the idle time and longer than the whole-request deadline below (0.9 s). */
const TRICKLE = { bytes: 24, everyMs: 60 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Exchange {
  /** Everything the plane sent, as latin1. */
  received: string;
  /** When the connection closed, in ms after the last byte written (NaN when still open). */
  closedAfterLastWrite: number;
}

/**
 * Writes `head`, then `body` one piece at a time, `everyMs` apart (stopping when an answer comes);
 * resolves once the plane has closed, or has answered unless `untilClosed`, or `wait` ms after the last write.
 */
async function exchange(url: string, head: string, body: Buffer[], everyMs: number, { wait = 4000, untilClosed = false } = {}): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  let closedAt = Number.NaN;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('close', () => (closedAt = performance.now()));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  let lastWrite = performance.now();
  for (const piece of body) {
    await sleep(everyMs);
    if (socket.destroyed || received !== '') break;
    socket.write(piece);
    lastWrite = performance.now();
  }
  for (let waited = 0; Number.isNaN(closedAt) && (untilClosed || !answered(received)) && waited < wait; waited += 10) await sleep(10);
  socket.destroy();
  return { received, closedAfterLastWrite: closedAt - lastWrite };
}

/** Whether `text` holds a whole answer (its head, and as many body bytes as its Content-Length says). */
function answered(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
  return text.length - end - 4 >= length;
}

const pieces = (bytes: Buffer) => [...bytes].map((byte) => Buffer.from([byte]));
const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('the storage plane', () => {
  let plane: RunningPlane;
  let zone: Zone;
  const errors: unknown[] = [];
  beforeEach(async () => {
    plane = await listenStorage(t.app.services, '127.0.0.1', 0, (error) => errors.push(error), TIMEOUTS);
    zone = await createStorageZone(t, 'timeouts-zone');
  });
  afterEach(async () => {
    await plane.close();
    expect(errors).toEqual([]);
  });

  const putHead = (path: string, length: number) =>
    `PUT /${zone.Name}/${path} HTTP/1.1\r\nHost: x\r\nAccessKey: ${zone.Password}\r\nContent-Length: ${length}\r\n\r\n`;
  const stored = async (path: string) => {
    const res = await fetch(`${plane.url}/${zone.Name}/${path}`, { headers: { AccessKey: zone.Password } });
    return res.status === 200 ? Buffer.from(await res.arrayBuffer()) : res.status;
  };

  it('lets an upload that keeps making progress run past the idle time and past a whole-request deadline of the same size', async () => {
    const bytes = Buffer.from('a slow but steady upload!!!!!!'.slice(0, TRICKLE.bytes));
    const started = performance.now();
    const { received } = await exchange(plane.url, putHead('slow.txt', bytes.length), pieces(bytes), TRICKLE.everyMs);
    expect(performance.now() - started).toBeGreaterThan(2 * TIMEOUTS.idleMs);
    expect(statusOf(received)).toBe(201);
    expect(sha256((await stored('slow.txt')) as Buffer)).toBe(sha256(bytes));
  });

  it('(the old design) a whole-request deadline cuts the same trickle with 408 though it kept making progress', async () => {
    // The plane as it was: the same front and handler, Node's whole-request deadline (300 s then) scaled down to 0.9 s.
    const handler = storageHandler({ files: t.app.services.files, usage: t.app.services.usage, logError: (error) => errors.push(error) });
    const old = createExtensionMethodServer(handler, { requestTimeout: 900, headersTimeout: 900, connectionsCheckingInterval: 50 });
    const address = await old.listen(0, '127.0.0.1');
    try {
      const bytes = Buffer.alloc(TRICKLE.bytes, 0x61);
      const { received } = await exchange(`http://127.0.0.1:${address.port}`, putHead('old.txt', bytes.length), pieces(bytes), TRICKLE.everyMs);
      expect(statusOf(received)).toBe(408);
      expect(await stored('old.txt')).toBe(404);
    } finally {
      old.forceClose();
      await old.close();
    }
  });

  it('cuts an upload that stalls with 408 after the idle time, keeping nothing of it', async () => {
    const { received, closedAfterLastWrite } = await exchange(plane.url, putHead('stalled.bin', 1000), [Buffer.alloc(100, 1)], 10, { untilClosed: true });
    expect(statusOf(received)).toBe(408);
    expect(closedAfterLastWrite).toBeGreaterThanOrEqual(TIMEOUTS.idleMs * 0.9);
    expect(closedAfterLastWrite).toBeLessThan(TIMEOUTS.idleMs + 2000);
    expect(await stored('stalled.bin')).toBe(404);
    for (let i = 0; i < 100 && (await blobCount(t)) > 0; i++) await sleep(20);
    expect(await blobCount(t)).toBe(0);
  });

  it('cuts a download the client stops reading after the idle time', async () => {
    const size = 32 * 1024 * 1024;
    const access = await t.app.services.files.authorize(zone.Name, zone.Password, 'write');
    await t.app.services.files.upload(access, { path: 'big.bin', isDirectory: false }, Readable.from([Buffer.alloc(size, 7)]));
    const { hostname, port } = new URL(plane.url);
    const socket = net.connect(Number(port), hostname);
    let bytes = 0;
    let failed = false;
    socket.on('error', () => (failed = true));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /${zone.Name}/big.bin HTTP/1.1\r\nHost: x\r\nAccessKey: ${zone.Password}\r\n\r\n`);
    socket.pause();
    // Not read for four idle times: the plane's buffers fill and it stops moving bytes.
    await sleep(TIMEOUTS.idleMs * 4);
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.resume();
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(failed || bytes < size).toBe(true);
    expect(bytes).toBeLessThan(size);
  });

  it('cuts a head trickled byte by byte at the head deadline, though bytes keep coming', async () => {
    const head = Buffer.from(`GET /${zone.Name}/ HTTP/1.1\r\nHost: x\r\nAccessKey: ${zone.Password}\r\nX-Slow: ${'s'.repeat(60)}\r\n\r\n`);
    const started = performance.now();
    const { received } = await exchange(plane.url, '', pieces(head), TRICKLE.everyMs, { wait: 0 });
    expect(statusOf(received)).toBe(408);
    expect(performance.now() - started).toBeLessThan(TIMEOUTS.headersMs + 2000);
  });
});

async function blobCount(t: TestContext): Promise<number> {
  let n = 0;
  for await (const _ of t.app.services.files.blobs.list('')) n++;
  return n;
}

describe('the S3 plane', () => {
  let plane: RunningPlane;
  let zone: S3Zone;
  const errors: unknown[] = [];
  beforeEach(async () => {
    plane = await listenS3(t.app.services, '127.0.0.1', 0, {
      storageDomain: t.config.storageDomain,
      logError: (error) => errors.push(error),
      timeouts: TIMEOUTS,
    });
    zone = await createS3Zone(t, `timeouts-${Date.now().toString(36)}`);
  });
  afterEach(async () => {
    await plane.close();
    expect(errors).toEqual([]);
  });

  async function putHead(key: string, length: number): Promise<string> {
    const path = `/${zone.Name}/${key}`;
    const credentials = { accessKeyId: zone.Name, secretAccessKey: zone.Password, region: zone.Region.toLowerCase() };
    const headers = await signedHeaders(plane.url, 'PUT', path, credentials, 'UNSIGNED-PAYLOAD', { 'content-length': String(length) });
    return `PUT ${path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
  }

  it('lets an upload that keeps making progress run past the idle time', async () => {
    const bytes = Buffer.alloc(TRICKLE.bytes, 0x62);
    const { received } = await exchange(plane.url, await putHead('slow.bin', bytes.length), pieces(bytes), TRICKLE.everyMs);
    expect(statusOf(received)).toBe(200);
    expect((await t.store.files.get(String(zone.Id), 'slow.bin'))?.sha256).toBe(sha256(bytes));
  });

  it('cuts an upload that stalls with 408 after the idle time, keeping nothing of it', async () => {
    const { received, closedAfterLastWrite } = await exchange(plane.url, await putHead('stalled.bin', 1000), [Buffer.alloc(100, 1)], 10, { untilClosed: true });
    expect(statusOf(received)).toBe(408);
    expect(closedAfterLastWrite).toBeGreaterThanOrEqual(TIMEOUTS.idleMs * 0.9);
    expect(closedAfterLastWrite).toBeLessThan(TIMEOUTS.idleMs + 2000);
    expect(await t.store.files.get(String(zone.Id), 'stalled.bin')).toBeUndefined();
  });
});

it('keeps the connection while the plane itself works on an answer longer than the idle time', async () => {
  const server = http.createServer(transferServerOptions(TIMEOUTS), (req, res) => {
    trackExchange(req, res);
    req.resume();
    req.once('end', () => setTimeout(() => res.end('worked'), TIMEOUTS.idleMs * 3));
  });
  cutStalledTransfers(server, TIMEOUTS);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as net.AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'all of it at once' });
    expect(await res.text()).toBe('worked');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
