/**
 * `Expect: 100-continue` over real sockets on the storage, S3 and API planes: a body the plane will
 * refuse (too large, a wrong key) gets the final answer first, never `100 Continue` (RFC 9110,
 * 10.1.1), and the connection closes after it; a body the plane takes gets `100 Continue` and is
 * stored. Before, Node sent `100 Continue` to every such request, so the client sent its whole body
 * only to be refused.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createS3Zone, type S3Plane, type S3Zone, startS3Plane } from '../helpers/s3-plane.js';
import { signedHeaders } from '../helpers/s3-signing.js';
import { createStorageZone, startStoragePlane, type StoragePlane, type Zone } from '../helpers/storage-plane.js';

const MAX = 64 * 1024;

/** A raw connection: what the plane sends, in order, read head by head. */
class RawClient {
  private received = '';
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static async connect(url: string): Promise<RawClient> {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    return new RawClient(socket);
  }

  /** The next head the plane sends (`HTTP/1.1 100 Continue`, or a final answer's), within 5 s. */
  async head(): Promise<string> {
    for (let waited = 0; !this.received.includes('\r\n\r\n') && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`no answer; received ${JSON.stringify(this.received)}`);
    const head = this.received.slice(0, end);
    this.received = this.received.slice(end + 4);
    return head;
  }

  /** Waits (up to 5 s) for the plane to close the connection. */
  async closing(): Promise<boolean> {
    for (let waited = 0; !this.closed && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.closed;
  }
}

const statusOf = (head: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ maxFileBytes: MAX, bodyLimit: 4096 });
});
afterEach(async () => {
  await t.close();
});

describe('the storage plane', () => {
  let plane: StoragePlane;
  let zone: Zone;
  beforeEach(async () => {
    plane = await startStoragePlane(t);
    zone = await createStorageZone(t, 'continue-zone');
  });
  afterEach(async () => plane.close());

  const put = (path: string, key: string, length: number) =>
    `PUT /${zone.Name}/${path} HTTP/1.1\r\nHost: x\r\nAccessKey: ${key}\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

  it('answers 413 before any 100 Continue to a body over the limit, and closes', async () => {
    const client = await RawClient.connect(plane.url);
    client.socket.write(put('big.bin', zone.Password, MAX + 1));
    const head = await client.head();
    expect(statusOf(head)).toBe(413);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(await client.closing()).toBe(true);
  });

  it('answers 401 before any 100 Continue to a wrong key', async () => {
    const client = await RawClient.connect(plane.url);
    client.socket.write(put('a.bin', 'wrong-key', 10));
    expect(statusOf(await client.head())).toBe(401);
    expect(await client.closing()).toBe(true);
  });

  it('sends 100 Continue to a body it takes, then stores it, and keeps the connection', async () => {
    const client = await RawClient.connect(plane.url);
    client.socket.write(put('ok.bin', zone.Password, 5));
    expect(statusOf(await client.head())).toBe(100);
    client.socket.write('hello');
    expect(statusOf(await client.head())).toBe(201);
    const get = await fetch(`${plane.url}/${zone.Name}/ok.bin`, { headers: { AccessKey: zone.Password } });
    expect(await get.text()).toBe('hello');
    expect(client.closed).toBe(false);
    client.socket.destroy();
  });
});

describe('the S3 plane', () => {
  let plane: S3Plane;
  let zone: S3Zone;
  beforeEach(async () => {
    plane = await startS3Plane(t);
    zone = await createS3Zone(t, `continue-${Date.now().toString(36)}`);
  });
  afterEach(async () => plane.close());

  async function put(key: string, length: number): Promise<string> {
    const path = `/${zone.Name}/${key}`;
    const credentials = { accessKeyId: zone.Name, secretAccessKey: zone.Password, region: zone.Region.toLowerCase() };
    const headers = await signedHeaders(plane.url, 'PUT', path, credentials, 'UNSIGNED-PAYLOAD', { 'content-length': String(length), expect: '100-continue' });
    return `PUT ${path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
  }

  it('answers EntityTooLarge (400, as S3 does) before any 100 Continue, and closes', async () => {
    const client = await RawClient.connect(plane.url);
    client.socket.write(await put('big.bin', MAX + 1));
    const head = await client.head();
    expect(statusOf(head)).toBe(400);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(await client.closing()).toBe(true);
  });

  it('sends 100 Continue to a body it takes, then stores it', async () => {
    const client = await RawClient.connect(plane.url);
    client.socket.write(await put('ok.bin', 5));
    expect(statusOf(await client.head())).toBe(100);
    client.socket.write('hello');
    expect(statusOf(await client.head())).toBe(200);
    client.socket.destroy();
    expect((await t.store.files.get(String(zone.Id), 'ok.bin'))?.size).toBe(5);
  });
});

describe('the API plane', () => {
  let base: string;
  beforeEach(async () => {
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  const post = (key: string, length: number) =>
    `POST /storagezone HTTP/1.1\r\nHost: x\r\nAccessKey: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

  it('answers 413 before any 100 Continue to a body over EDGEPLANE_BODY_LIMIT, and closes', async () => {
    const client = await RawClient.connect(base);
    client.socket.write(post(t.key, 4097));
    expect(statusOf(await client.head())).toBe(413);
    expect(await client.closing()).toBe(true);
  });

  it('sends 100 Continue to a body it takes', async () => {
    const body = JSON.stringify({ Name: 'continued', Region: 'DE' });
    const client = await RawClient.connect(base);
    client.socket.write(post(t.key, Buffer.byteLength(body)));
    expect(statusOf(await client.head())).toBe(100);
    client.socket.write(body);
    expect(statusOf(await client.head())).toBe(201);
    client.socket.destroy();
  });
});
