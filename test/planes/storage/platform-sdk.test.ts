/**
 * The platform's published storage SDK for JavaScript against the storage plane, over real sockets:
 * upload, list, describe, download and delete, exactly as the SDK sends them. Its region hosts are
 * hard-coded HTTPS URLs, so its `fetch` is redirected: same method, path, headers and body, sent to
 * the plane instead of the region's host. The SDK joins the zone and a path that starts with `/`
 * into `/<zone>//<path>`; the plane takes that path as the platform does.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ReadableStream } from 'node:stream/web';
// The one place the vendor's name appears in edgeplane: it is the published package's name.
import * as StorageSdk from '@bunny.net/storage-sdk';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createStorageZone, startStoragePlane, type StoragePlane, type Zone } from '../../helpers/storage-plane.js';

let t: TestContext;
let plane: StoragePlane;
let zone: Zone;
/** Each request the SDK made, as `METHOD /path`, in order. */
let sent: string[];

const regionHosts = new Set(Object.values(StorageSdk.regions.StorageRegion).map((region) => StorageSdk.regions.addr(region).host));

beforeEach(async () => {
  t = await createTestApp();
  plane = await startStoragePlane(t);
  zone = await createStorageZone(t, `sdk-${randomBytes(3).toString('hex')}`, { ReplicationRegions: ['NY'] });
  sent = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (!regionHosts.has(url.host)) throw new Error(`the SDK asked for ${url.host}, not a storage region's host`);
    sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    return realFetch(`${plane.url}${url.pathname}${url.search}`, init);
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await plane.close();
  await t.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      // In pieces, as a stream of a real file would come.
      for (let offset = 0; offset < bytes.length; offset += 16_384) controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + 16_384)));
      controller.close();
    },
  });
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

it('uploads, lists, describes, downloads and deletes a file through the SDK', async () => {
  const storage = StorageSdk.zone.connect_with_accesskey(StorageSdk.regions.StorageRegion.Falkenstein, zone.Name, zone.Password);
  const bytes = randomBytes(100_000);

  const uploaded = await StorageSdk.file.upload(storage, '/reports/q1.bin', streamOf(bytes), {
    sha256Checksum: sha256(bytes),
    contentType: 'application/x-q1',
  });
  expect(uploaded).toBe(true);
  expect(sent).toEqual([`PUT /${zone.Name}//reports/q1.bin`]);

  const root = await StorageSdk.file.list(storage, '/');
  expect(root.map((f) => [f.objectName, f.isDirectory])).toEqual([['reports', true]]);
  const listed = await StorageSdk.file.list(storage, '/reports');
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({
    objectName: 'q1.bin',
    path: `/${zone.Name}/reports/`,
    length: bytes.length,
    isDirectory: false,
    storageZoneName: zone.Name,
    storageZoneId: zone.Id,
    checksum: sha256(bytes).toUpperCase(),
    replicatedZones: ['NY'],
    contentType: 'application/x-q1',
  });

  const described = await StorageSdk.file.get(storage, '/reports/q1.bin');
  expect(described).toMatchObject({ objectName: 'q1.bin', length: bytes.length, guid: listed[0]!.guid });
  expect(described.lastChanged.getTime()).not.toBeNaN();
  expect((await bytesOf((await described.data()).stream)).equals(bytes)).toBe(true);

  const downloaded = await StorageSdk.file.download(storage, '/reports/q1.bin');
  expect(downloaded.length).toBe(bytes.length);
  expect((await bytesOf(downloaded.stream)).equals(bytes)).toBe(true);

  expect(await StorageSdk.file.remove(storage, '/reports/q1.bin')).toBe(true);
  await expect(StorageSdk.file.get(storage, '/reports/q1.bin')).rejects.toThrow('File not found: /reports/q1.bin');
  expect(await StorageSdk.file.list(storage, '/reports')).toEqual([]);
  expect(await StorageSdk.file.removeDirectory(storage, '/reports')).toBe(true);
  expect(await StorageSdk.file.list(storage, '/')).toEqual([]);

  // Every call went to the storage plane, with the `//` the SDK builds.
  expect(sent).toEqual([
    `PUT /${zone.Name}//reports/q1.bin`,
    `GET /${zone.Name}//`,
    `GET /${zone.Name}//reports/`,
    `DESCRIBE /${zone.Name}//reports/q1.bin`,
    `GET /${zone.Name}//reports/q1.bin`,
    `GET /${zone.Name}//reports/q1.bin`,
    `DELETE /${zone.Name}//reports/q1.bin`,
    `DESCRIBE /${zone.Name}//reports/q1.bin`,
    `GET /${zone.Name}//reports/`,
    `DELETE /${zone.Name}//reports/`,
    `GET /${zone.Name}//`,
  ]);
});

it('refuses the SDK with a wrong key as the platform does (401), with the read-only key on a write too', async () => {
  const wrong = StorageSdk.zone.connect_with_accesskey(StorageSdk.regions.StorageRegion.Falkenstein, zone.Name, 'not-the-password');
  await expect(StorageSdk.file.list(wrong, '/')).rejects.toThrow(`Unauthorized access to storage zone: ${zone.Name}`);
  const readOnly = StorageSdk.zone.connect_with_accesskey(StorageSdk.regions.StorageRegion.Falkenstein, zone.Name, zone.ReadOnlyPassword);
  await expect(StorageSdk.file.upload(readOnly, '/x.txt', streamOf(Buffer.from('x')))).rejects.toThrow('Unauthorized access');
  expect(await StorageSdk.file.list(readOnly, '/')).toEqual([]);
});
