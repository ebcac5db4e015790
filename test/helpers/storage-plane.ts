/**
 * The storage plane of a test app, listening on a free loopback port, and a small client for its
 * file API (fetch, and raw sockets for DESCRIBE, which fetch refuses to send).
 */
import net from 'node:net';
import { listenStorage } from '../../src/planes/storage/listen.js';
import type { TestContext } from './app.js';

export interface StoragePlane {
  url: string;
  close(): Promise<void>;
}

export async function startStoragePlane(t: TestContext): Promise<StoragePlane> {
  const errors: unknown[] = [];
  const plane = await listenStorage(t.app.services, '127.0.0.1', 0, (error) => errors.push(error));
  return {
    url: plane.url,
    async close() {
      await plane.close();
      if (errors.length > 0) throw new Error(`the storage plane logged errors: ${errors.map(String).join('; ')}`);
    },
  };
}

export interface Zone {
  Id: number;
  Name: string;
  Password: string;
  ReadOnlyPassword: string;
}

export async function createStorageZone(t: TestContext, name: string, extra: Record<string, unknown> = {}): Promise<Zone> {
  const res = await t.post('/storagezone', { Name: name, Region: 'DE', ...extra });
  if (res.status !== 201) throw new Error(`storage zone: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Zone;
}

/** The file API of one zone, with its password unless another key is given. */
export function files(plane: StoragePlane, zone: Pick<Zone, 'Name' | 'Password'>) {
  const url = (path: string) => `${plane.url}/${zone.Name}/${path}`;
  const auth = (key: string | null | undefined): Record<string, string> => (key === null ? {} : { AccessKey: key ?? zone.Password });
  return {
    url,
    put: (path: string, body: BodyInit, headers: Record<string, string> = {}, key?: string | null) =>
      fetch(url(path), { method: 'PUT', body, headers: { ...auth(key), ...headers } }),
    get: (path: string, headers: Record<string, string> = {}, key?: string | null) => fetch(url(path), { headers: { ...auth(key), ...headers } }),
    head: (path: string, headers: Record<string, string> = {}, key?: string | null) =>
      fetch(url(path), { method: 'HEAD', headers: { ...auth(key), ...headers } }),
    del: (path: string, headers: Record<string, string> = {}, key?: string | null) =>
      fetch(url(path), { method: 'DELETE', headers: { ...auth(key), ...headers } }),
    list: async (path: string, key?: string | null) => {
      const res = await fetch(url(path), { headers: auth(key) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>[] };
    },
    describe: (path: string, key?: string | null) => describe(plane, `/${zone.Name}/${path}`, key === null ? undefined : (key ?? zone.Password)),
  };
}

/** Sends `DESCRIBE` over a raw socket and reads one JSON answer. */
export function describe(plane: StoragePlane, path: string, key: string | undefined): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(plane.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`DESCRIBE ${path} HTTP/1.1\r\nHost: ${hostname}\r\n${key === undefined ? '' : `AccessKey: ${key}\r\n`}Connection: close\r\n\r\n`);
    });
    let raw = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => (raw = Buffer.concat([raw, d])));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = raw.toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      const chunked = /transfer-encoding: chunked/i.test(text.slice(0, text.indexOf('\r\n\r\n')));
      resolve({ status, body: JSON.parse(chunked ? dechunk(body) : body) });
    });
  });
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}
