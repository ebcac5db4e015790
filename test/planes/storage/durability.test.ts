/**
 * Files survive a crash: uploads run concurrently while the server is killed with SIGKILL at
 * random moments; after a restart on the same data every upload that was acknowledged reads back
 * byte-exact, and no listed file is a half file. Also: memory stays flat through a 256 MiB upload and
 * download (four times the growth allowed). Runs on SQLite and on PostgreSQL (the project decides).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../../helpers/server-process.js';
import { useCrashWorkspace } from '../../helpers/crash-workspace.js';

const KEY = 'files-crash-key-0123456789';
const workspace = useCrashWorkspace('files-crash', KEY);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function createZone(server: ServerProcess, name: string): Promise<{ Name: string; Password: string }> {
  const res = await fetch(`${server.base}/storagezone`, {
    method: 'POST',
    headers: { AccessKey: KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: name, Region: 'DE' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { Name: string; Password: string };
}

describe('files under SIGKILL', () => {
  it('keeps every acknowledged upload byte-exact, and never lists a half file', async () => {
    let server = await startServer(workspace.env);
    const zone = await createZone(server, `crash-${randomBytes(3).toString('hex')}`);
    /**
     * Every write of each path: acknowledged (201), or cut short by the kill (it may have committed).
     * Writes to one path can overlap (some overwrite the first file), and overlapping writes may
     * commit in either order whatever order their answers arrive in: what a path holds afterwards
     * must be a write that no acknowledged write started after the end of.
     */
    const writes = new Map<string, { hash: string; started: number; ended: number; acknowledged: boolean }[]>();
    const record = (path: string, write: { hash: string; started: number; ended: number; acknowledged: boolean }) =>
      writes.set(path, [...(writes.get(path) ?? []), write]);
    /** The first path acknowledged: some writes overwrite it. */
    let overwritten: string | undefined;
    for (let round = 0; round < 3; round++) {
      let dead = false;
      let n = 0;
      const storage = server.planes['storage']!;
      const cutShort: { ended: number }[] = [];
      const uploader = async (w: number) => {
        while (!dead) {
          const path = `r${round}/w${w}/${n++}.bin`;
          // Sizes from a few bytes to ~1 MiB, some overwriting earlier files.
          const bytes = randomBytes(1 + Math.floor(Math.random() ** 3 * 1_000_000));
          const target = Math.random() < 0.2 && overwritten !== undefined ? overwritten : path;
          const write = { hash: sha256(bytes), started: performance.now(), ended: Number.POSITIVE_INFINITY, acknowledged: false };
          try {
            const res = await fetch(`${storage}/${zone.Name}/${target}`, { method: 'PUT', headers: { AccessKey: zone.Password }, body: bytes });
            write.ended = performance.now();
            // Any other answer is a refusal: nothing of it may be kept.
            if (res.status !== 201) continue;
            write.acknowledged = true;
            overwritten ??= target;
            record(target, write);
          } catch {
            // No answer: the write may or may not have committed before the kill.
            record(target, write);
            cutShort.push(write);
            return;
          }
        }
      };
      const uploaders = Array.from({ length: 6 }, (_, w) => uploader(w));
      await new Promise((r) => setTimeout(r, 200 + Math.floor(Math.random() * 600)));
      dead = true;
      await server.stop('SIGKILL');
      await Promise.all(uploaders);
      // A write cut short ended, at the latest, with the server that was killed.
      const killed = performance.now();
      for (const write of cutShort) write.ended = killed;
      server = await startServer(workspace.env);
    }
    try {
      const acknowledged = [...writes].filter(([, list]) => list.some((x) => x.acknowledged));
      expect(acknowledged.length).toBeGreaterThan(0);
      const storage = server.planes['storage']!;
      for (const [path, list] of acknowledged) {
        const res = await fetch(`${storage}/${zone.Name}/${path}`, { headers: { AccessKey: zone.Password } });
        expect(res.status, path).toBe(200);
        const held = sha256(Buffer.from(await res.arrayBuffer()));
        const current = list.filter((w) => !list.some((later) => later.acknowledged && later.started > w.ended)).map((w) => w.hash);
        expect(current, `${path} holds an older or unknown version`).toContain(held);
      }
      // Whatever is listed is whole: its bytes hash to the checksum its metadata holds.
      const listed: { path: string; checksum: string; length: number }[] = [];
      const walk = async (directory: string) => {
        const res = await fetch(`${storage}/${zone.Name}/${directory}`, { headers: { AccessKey: zone.Password } });
        for (const o of (await res.json()) as { ObjectName: string; IsDirectory: boolean; Checksum: string; Length: number }[]) {
          if (o.IsDirectory) await walk(`${directory}${o.ObjectName}/`);
          else listed.push({ path: `${directory}${o.ObjectName}`, checksum: o.Checksum, length: o.Length });
        }
      };
      await walk('');
      for (const file of listed) {
        const bytes = Buffer.from(await (await fetch(`${storage}/${zone.Name}/${file.path}`, { headers: { AccessKey: zone.Password } })).arrayBuffer());
        expect(bytes.length, file.path).toBe(file.length);
        expect(sha256(bytes).toUpperCase(), file.path).toBe(file.checksum);
      }
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('streams a 256 MiB upload and download with the server growing by less than 64 MB', async () => {
    const server = await startServer(workspace.env);
    try {
      const zone = await createZone(server, `big-${randomBytes(3).toString('hex')}`);
      const storage = server.planes['storage']!;
      const rss = () => serverRssBytes(server);
      const before = rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
      const size = 256 * 1024 ** 2;
      const chunk = randomBytes(1024 * 1024);
      const upload = createHash('sha256');
      const body = Readable.from(
        (function* () {
          for (let sent = 0; sent < size; sent += chunk.length) {
            upload.update(chunk);
            yield chunk;
          }
        })(),
      );
      try {
        const put = await fetch(`${storage}/${zone.Name}/huge.bin`, {
          method: 'PUT',
          headers: { AccessKey: zone.Password, 'content-length': String(size) },
          body: Readable.toWeb(body) as ReadableStream,
          duplex: 'half',
        } as RequestInit);
        expect(put.status).toBe(201);
        const got = await fetch(`${storage}/${zone.Name}/huge.bin`, { headers: { AccessKey: zone.Password } });
        const download = createHash('sha256');
        let received = 0;
        for await (const part of got.body as unknown as AsyncIterable<Uint8Array>) {
          download.update(part);
          received += part.length;
        }
        expect(received).toBe(size);
        expect(download.digest('hex')).toBe(upload.digest('hex'));
      } finally {
        clearInterval(sampler);
      }
      expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await server.stop();
    }
  }, 180_000);
});

/** Resident memory of the server process, from /proc (Linux). */
function serverRssBytes(server: ServerProcess): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}
