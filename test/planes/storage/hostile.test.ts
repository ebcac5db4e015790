/**
 * Hostile input on the file API: traversal in every spelling, names and paths over the limits,
 * uploads over the size limit, and clients that vanish mid-upload. None may touch anything outside
 * its zone, keep bytes it refused, or leave a half file behind.
 */
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createStorageZone, files, startStoragePlane, type StoragePlane, type Zone } from '../../helpers/storage-plane.js';

let t: TestContext;
let plane: StoragePlane;
let zone: Zone;
let api: ReturnType<typeof files>;
const MAX = 64 * 1024;

// One app and plane for the file (building them is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ maxFileBytes: MAX });
  plane = await startStoragePlane(t);
});
afterAll(async () => {
  await plane.close();
  await t.close();
});
beforeEach(async () => {
  await t.reset();
  zone = await createStorageZone(t, 'hostile-zone');
  api = files(plane, zone);
});

/** Sends a request line exactly as given (fetch would normalize the path), and answers the status. */
function rawStatus(method: string, target: string, body = ''): Promise<number> {
  const { hostname, port } = new URL(plane.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `${method} ${target} HTTP/1.1\r\nHost: x\r\nAccessKey: ${zone.Password}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    let raw = '';
    socket.on('data', (d: Buffer) => (raw += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0)));
  });
}

// The files backend's default place: beside the SQLite file the test app's configuration names (on both stores).
const filesDir = () => join(dirname(t.config.databaseUrl.replace(/^sqlite:/, '')), 'files');

describe('path traversal', () => {
  const spellings = [
    '../secret.txt',
    'a/../../secret.txt',
    '%2e%2e/secret.txt',
    '%2E%2E/secret.txt',
    'a/%2e%2e/%2e%2e/secret.txt',
    '..%2fsecret.txt',
    'a%2f..%2f..%2fsecret.txt',
    '..%5csecret.txt',
    'a\\..\\secret.txt',
    './secret.txt',
    // Empty segments are dropped (the platform's paths), never a way around the rules.
    '//..//secret.txt',
    'a//%2e%2e//%2e%2e//secret.txt',
    'nul%00.txt',
    'ctl%07.txt',
    'bad%ff.txt',
    '%',
  ];
  it.each(spellings)('refuses %s with 400 on every method, touching nothing', async (path) => {
    const target = `/${zone.Name}/${path}`;
    for (const method of ['PUT', 'GET', 'DELETE', 'DESCRIBE']) {
      expect([400], `${method} ${target}`).toContain(await rawStatus(method, target, method === 'PUT' ? 'evil' : ''));
    }
    expect(await t.store.files.range(String(zone.Id), { prefix: '', limit: 10 })).toEqual([]);
  });

  it('keeps every byte inside the backend directory whatever the path', async () => {
    await api.put('ok/file.txt', 'fine');
    for (const path of spellings) await rawStatus('PUT', `/${zone.Name}/${path}`, 'evil');
    const outside = readdirSync(dirname(filesDir())).filter((name) => !['files', 'master.key'].includes(name) && !name.startsWith('edgeplane.db'));
    expect(outside).toEqual([]);
    expect(existsSync(join(dirname(filesDir()), 'secret.txt'))).toBe(false);
  });

  it('refuses a name over 255 bytes and a path over 1,024 bytes', async () => {
    expect((await api.put(`${'n'.repeat(255)}.t`, 'x')).status).toBe(400);
    expect((await api.put(`${'é'.repeat(128)}`, 'x')).status).toBe(400);
    expect((await api.put(`${'n'.repeat(255)}`, 'x')).status).toBe(201);
    const deep = Array.from({ length: 9 }, () => 'd'.repeat(120)).join('/');
    expect((await api.put(`${deep}/f`, 'x')).status).toBe(400);
  });

  it('refuses a file under a path that is a file, and a directory where a file is', async () => {
    await api.put('plain', 'x');
    expect((await api.put('plain/inside.txt', 'y')).status).toBe(400);
    expect((await api.put('plain/', '')).status).toBe(400);
    await api.put('folder/x.txt', 'x');
    expect((await api.put('folder', 'y')).status).toBe(400);
  });
});

describe('size limit and aborted uploads', () => {
  it('answers 413 before storing a declared body over EDGEPLANE_MAX_FILE_BYTES', async () => {
    const res = await api.put('big.bin', Buffer.alloc(MAX + 1));
    expect(res.status).toBe(413);
    expect((await res.json()) as { HttpCode: number }).toMatchObject({ HttpCode: 413 });
    expect((await api.get('big.bin')).status).toBe(404);
  });

  it('answers 413 for a chunked body that grows past the limit, keeping nothing', async () => {
    const kept = await blobs();
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(MAX / 2));
        controller.close();
      },
    });
    const res = await fetch(api.url('stream.bin'), { method: 'PUT', body: chunks, headers: { AccessKey: zone.Password }, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect((await api.get('stream.bin')).status).toBe(404);
    expect(await blobs()).toBe(kept);
  });

  it('keeps exactly a body at the limit', async () => {
    expect((await api.put('exact.bin', Buffer.alloc(MAX, 1))).status).toBe(201);
  });

  it('leaves no file and no metadata behind when the client disconnects mid-upload', async () => {
    const kept = await blobs();
    const { hostname, port } = new URL(plane.url);
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(`PUT /${zone.Name}/half.bin HTTP/1.1\r\nHost: x\r\nAccessKey: ${zone.Password}\r\nContent-Length: 50000\r\n\r\n`);
        socket.write(Buffer.alloc(20000, 9));
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    // The server notices, aborts the write, and removes what it had written.
    for (let i = 0; i < 50 && (await tempFiles()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await api.get('half.bin')).status).toBe(404);
    expect(await t.store.files.range(String(zone.Id), { prefix: '', limit: 10 })).toEqual([]);
    expect(await blobs()).toBe(kept);
    expect(await tempFiles()).toBe(0);
  });
});

/** The blobs of the files backend (earlier tests' files stay until the sweep: a test compares before and after). */
async function blobs(): Promise<number> {
  let n = 0;
  for await (const _ of t.app.services.files.blobs.list('')) n++;
  return n;
}

async function tempFiles(): Promise<number> {
  const dir = join(filesDir(), 'tmp');
  return existsSync(dir) ? readdirSync(dir).length : 0;
}
