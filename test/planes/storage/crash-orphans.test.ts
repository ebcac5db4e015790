/**
 * What a crash leaves on disk is reclaimed, and nothing in use is touched. A real server process is
 * killed with SIGKILL while an S3 multipart part, a part of another upload, and a file API upload
 * are on their way, each leaving a partial blob where the write left it. After a restart the first
 * upload is completed (its file takes the upload's id, as the crashed part's key does) and the
 * second is left in progress. An hour later (every blob's time set back two hours) the server
 * starts again: the sweep it runs at start removes the three partial blobs, keeps every blob a
 * file or the upload in progress records (that upload then completes), and every object reads
 * back byte-exact.
 */
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, ListPartsCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { s3Client, type S3Zone } from '../../helpers/s3-plane.js';
import { signer } from '../../helpers/s3-signing.js';
import { type ServerProcess, startServer } from '../../helpers/server-process.js';
import { useCrashWorkspace } from '../../helpers/crash-workspace.js';

const KEY = 'crash-orphans-key-0123456789';
const MiB = 1024 * 1024;
const workspace = useCrashWorkspace('crash-orphans', KEY);

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every blob file on disk, by name (the key's last segment: `<guid>[.<part>]`), with its size; the server may be removing some meanwhile. */
function blobFiles(): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (path: string) => {
    for (const entry of gone(() => readdirSync(path, { withFileTypes: true })) ?? []) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else {
        const size = gone(() => statSync(join(path, entry.name)).size);
        if (size !== undefined) found.set(entry.name, size);
      }
    }
  };
  walk(join(workspace.dir, 'files', 'blobs'));
  return found;
}

/** What `read` answers, or undefined for a file or folder removed since it was listed. */
function gone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Sets every blob's time back two hours: the crash happened long before this start. */
function ageBlobs(): void {
  const then = new Date(Date.now() - 2 * 3_600_000);
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else utimesSync(join(path, entry.name), then, then);
    }
  };
  walk(join(workspace.dir, 'files', 'blobs'));
}

async function createZone(server: ServerProcess): Promise<S3Zone> {
  const res = await fetch(`${server.base}/storagezone`, {
    method: 'POST',
    headers: { AccessKey: KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: `orphans-${randomBytes(3).toString('hex')}`, Region: 'DE', StorageZoneType: 1 }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as S3Zone;
}

const s3PlaneOf = (server: ServerProcess) => {
  const url = server.planes['s3']!;
  return { url, port: Number(new URL(url).port), close: async () => {} };
};

/** Opens a request and sends part of its body, leaving it in flight: a socket to destroy later. */
async function inFlight(url: string, head: string, sent: number): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  socket.write(randomBytes(sent));
  return socket;
}

/** The head of a signed UploadPart whose body is `length` bytes (UNSIGNED-PAYLOAD). */
async function partHead(server: ServerProcess, zone: S3Zone, key: string, uploadId: string, partNumber: number, length: number): Promise<string> {
  const url = new URL(server.planes['s3']!);
  const path = `/${zone.Name}/${key}`;
  const query = { partNumber: String(partNumber), uploadId };
  const signed = await signer({ accessKeyId: zone.Name, secretAccessKey: zone.Password, region: zone.Region.toLowerCase() }).sign(
    {
      method: 'PUT',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path,
      headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', 'content-length': String(length) },
      query,
    },
    { signingDate: new Date() },
  );
  const headers = Object.entries(signed.headers as Record<string, string>)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `PUT ${path}?partNumber=${partNumber}&uploadId=${encodeURIComponent(uploadId)} HTTP/1.1\r\n${headers}\r\n`;
}

it('reclaims the partial blobs a SIGKILL left, even a part of an upload completed since, and keeps every blob in use', async () => {
  let server = await startServer(workspace.env);
  const zone = await createZone(server);
  let s3 = s3Client(s3PlaneOf(server), zone);
  const storageUrl = () => server.planes['storage']!;
  /** What each object should read back as. */
  const objects = new Map<string, string>();
  const put = async (path: string, bytes: Buffer) => {
    const res = await fetch(`${storageUrl()}/${zone.Name}/${path}`, { method: 'PUT', headers: { AccessKey: zone.Password }, body: new Uint8Array(bytes) });
    expect(res.status).toBe(201);
    objects.set(path, sha256(bytes));
  };

  // Files of every kind beside the crash: some overwritten, one deleted.
  for (let i = 0; i < 8; i++) await put(`files/f${i}.bin`, randomBytes(1 + Math.floor(Math.random() * 200_000)));
  for (const i of [1, 4]) await put(`files/f${i}.bin`, randomBytes(50_000));
  await fetch(`${storageUrl()}/${zone.Name}/files/f7.bin`, { method: 'DELETE', headers: { AccessKey: zone.Password } });
  objects.delete('files/f7.bin');

  // Two multipart uploads, each with a first part acknowledged.
  const partOne = { done: randomBytes(5 * MiB), open: randomBytes(5 * MiB) };
  const { UploadId: doneId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: zone.Name, Key: 'mp/done.bin' }));
  const { UploadId: openId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: zone.Name, Key: 'mp/open.bin' }));
  const doneOne = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'mp/done.bin', UploadId: doneId, PartNumber: 1, Body: partOne.done }));
  await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'mp/open.bin', UploadId: openId, PartNumber: 1, Body: partOne.open }));

  // In flight when the process dies: a second part of each upload, and a file API upload.
  const before = new Set(blobFiles().keys());
  const flying = [
    await inFlight(server.planes['s3']!, await partHead(server, zone, 'mp/done.bin', doneId!, 2, 4 * MiB), MiB),
    await inFlight(server.planes['s3']!, await partHead(server, zone, 'mp/open.bin', openId!, 2, 4 * MiB), MiB),
    await inFlight(
      storageUrl(),
      `PUT /${zone.Name}/files/cut.bin HTTP/1.1\r\nHost: x\r\nAccessKey: ${zone.Password}\r\nContent-Length: ${2 * MiB}\r\n\r\n`,
      300_000,
    ),
  ];
  // Killed once each write has put bytes on disk.
  const partial = () => [...blobFiles()].filter(([name, size]) => !before.has(name) && size > 0).map(([name]) => name);
  for (let waited = 0; partial().length < 3 && waited < 10_000; waited += 20) await sleep(20);
  expect(partial()).toHaveLength(3);
  s3.destroy();
  await server.stop('SIGKILL');
  for (const socket of flying) socket.destroy();
  const orphans = partial();
  expect(orphans.filter((name) => name.startsWith(`${doneId}.`))).toHaveLength(1);
  expect(orphans.filter((name) => name.startsWith(`${openId}.`))).toHaveLength(1);

  // Restarted: the first upload is completed with a second part sent again; the other stays open.
  server = await startServer(workspace.env);
  s3 = s3Client(s3PlaneOf(server), zone);
  const partTwo = randomBytes(MiB);
  const doneTwo = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'mp/done.bin', UploadId: doneId, PartNumber: 2, Body: partTwo }));
  await s3.send(
    new CompleteMultipartUploadCommand({
      Bucket: zone.Name,
      Key: 'mp/done.bin',
      UploadId: doneId,
      MultipartUpload: {
        Parts: [
          { PartNumber: 1, ETag: doneOne.ETag },
          { PartNumber: 2, ETag: doneTwo.ETag },
        ],
      },
    }),
  );
  objects.set('mp/done.bin', sha256(Buffer.concat([partOne.done, partTwo])));
  s3.destroy();
  // Swept at this start too, but too young then: the orphans are still there.
  await server.stop();
  for (const name of orphans) expect(blobFiles().has(name), name).toBe(true);

  // Two hours later, the next start sweeps.
  ageBlobs();
  server = await startServer(workspace.env);
  try {
    for (let waited = 0; orphans.some((name) => blobFiles().has(name)) && waited < 20_000; waited += 50) await sleep(50);
    expect(orphans.filter((name) => blobFiles().has(name))).toEqual([]);
    // Whatever the sweep still had to look at, it has by now.
    await sleep(500);
    for (const [path, hash] of objects) {
      const res = await fetch(`${storageUrl()}/${zone.Name}/${path}`, { headers: { AccessKey: zone.Password } });
      expect(res.status, path).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer())), path).toBe(hash);
    }
    // The upload left open still has its part: it completes, and reads back whole.
    s3 = s3Client(s3PlaneOf(server), zone);
    const openOne = (await s3.send(new ListPartsCommand({ Bucket: zone.Name, Key: 'mp/open.bin', UploadId: openId }))).Parts ?? [];
    expect(openOne.map((p) => [p.PartNumber, p.Size])).toEqual([[1, 5 * MiB]]);
    const openTwo = await s3.send(new UploadPartCommand({ Bucket: zone.Name, Key: 'mp/open.bin', UploadId: openId, PartNumber: 2, Body: Buffer.from('end') }));
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: zone.Name,
        Key: 'mp/open.bin',
        UploadId: openId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: openOne[0]!.ETag },
            { PartNumber: 2, ETag: openTwo.ETag },
          ],
        },
      }),
    );
    const open = await fetch(`${storageUrl()}/${zone.Name}/mp/open.bin`, { headers: { AccessKey: zone.Password } });
    expect(sha256(Buffer.from(await open.arrayBuffer()))).toBe(sha256(Buffer.concat([partOne.open, Buffer.from('end')])));
  } finally {
    s3.destroy();
    await server.stop();
  }

  // On disk now: exactly the blobs the files record (the old bytes of overwritten and deleted files
  // were as old as the orphans, and nothing records them either).
  const store = await workspace.location.open();
  try {
    const recorded = new Set<string>();
    for (const file of await store.files.range(String(zone.Id), { prefix: '', limit: 1000 })) for (const blob of file.blobs) recorded.add(blob.key);
    const lastSegment = (key: string) => key.slice(key.lastIndexOf('/') + 1);
    expect([...blobFiles().keys()].sort()).toEqual([...recorded].map(lastSegment).sort());
  } finally {
    await store.close();
  }
}, 180_000);
