/**
 * The file API over real HTTP, on both stores and both files backends (a local directory, and a
 * real S3-compatible server): what it stores, what it answers, and what it does to the rest of
 * the platform (counters, password resets, zone deletion, statistics).
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createStorageZone, files, startStoragePlane, type StoragePlane, type Zone } from '../../helpers/storage-plane.js';
import { S3RVER_CREDENTIALS, startTestS3Server, type TestS3Server } from '../../files/s3-test-server.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const md5 = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('hex');

describe.each(['file', 's3'] as const)('the file API, files on %s', (backend) => {
  let s3: TestS3Server | undefined;
  let t: TestContext;
  let plane: StoragePlane;
  let zone: Zone;
  let api: ReturnType<typeof files>;

  beforeAll(async () => {
    if (backend === 's3') {
      s3 = await startTestS3Server(`files-${randomBytes(4).toString('hex')}`);
      Object.assign(process.env, S3RVER_CREDENTIALS);
    }
  });
  afterAll(async () => s3?.close());
  beforeEach(async () => {
    t = await createTestApp(
      s3 ? { filesUrl: `s3://${s3.bucket}/t${randomBytes(4).toString('hex')}?endpoint=${s3.endpoint}&region=us-east-1&forcePathStyle=true` } : {},
    );
    plane = await startStoragePlane(t);
    zone = await createStorageZone(t, `zone-${randomBytes(3).toString('hex')}`);
    api = files(plane, zone);
  });
  afterEach(async () => {
    await plane.close();
    await t.close();
  });

  it('stores an upload and serves it back byte-exact, with type, length, ETag and Last-Modified', async () => {
    const bytes = randomBytes(200_000);
    const put = await api.put('images/photos/cat.jpg', bytes);
    expect(put.status).toBe(201);
    expect(await put.json()).toEqual({ HttpCode: 201, Message: 'File uploaded.' });

    const got = await api.get('images/photos/cat.jpg');
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    expect(got.headers.get('content-length')).toBe(String(bytes.length));
    expect(got.headers.get('etag')).toBe(`"${md5(bytes)}"`);
    expect(new Date(got.headers.get('last-modified')!).getTime()).toBeGreaterThan(0);
    expect(got.headers.get('accept-ranges')).toBe('bytes');
  });

  it('accepts a Checksum in either case, and stores nothing when it does not match', async () => {
    const bytes = Buffer.from('checked content');
    expect((await api.put('a.txt', bytes, { Checksum: sha256(bytes).toUpperCase() })).status).toBe(201);
    expect((await api.put('b.txt', bytes, { Checksum: sha256(bytes) })).status).toBe(201);
    const wrong = await api.put('c.txt', bytes, { Checksum: sha256('something else') });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { HttpCode: number }).HttpCode).toBe(400);
    expect((await api.get('c.txt')).status).toBe(404);
    expect((await api.list('')).body.map((o) => o['ObjectName'])).toEqual(['a.txt', 'b.txt']);
  });

  it('answers ranges (206), refuses impossible ones (416), and conditional reads (304, 412)', async () => {
    const bytes = Buffer.from('0123456789abcdef');
    await api.put('range.bin', bytes);
    const part = await api.get('range.bin', { Range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('2345');
    expect(part.headers.get('content-range')).toBe('bytes 2-5/16');
    const suffix = await api.get('range.bin', { Range: 'bytes=-3' });
    expect(await suffix.text()).toBe('def');
    const open = await api.get('range.bin', { Range: 'bytes=10-' });
    expect(await open.text()).toBe('abcdef');
    const impossible = await api.get('range.bin', { Range: 'bytes=16-20' });
    expect(impossible.status).toBe(416);
    expect(impossible.headers.get('content-range')).toBe('bytes */16');

    const etag = (await api.head('range.bin')).headers.get('etag')!;
    expect((await api.get('range.bin', { 'If-None-Match': etag })).status).toBe(304);
    expect((await api.get('range.bin', { 'If-None-Match': '"other"' })).status).toBe(200);
    const lastModified = (await api.head('range.bin')).headers.get('last-modified')!;
    expect((await api.get('range.bin', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await api.get('range.bin', { 'If-Match': '"other"' })).status).toBe(412);
    expect((await api.get('range.bin', { 'If-Match': etag })).status).toBe(200);
    // If-Range naming another version: the whole file, not the range.
    expect((await api.get('range.bin', { Range: 'bytes=0-1', 'If-Range': '"old"' })).status).toBe(200);
  });

  it('HEAD answers the headers of a GET without the bytes', async () => {
    await api.put('doc.pdf', Buffer.alloc(1234, 7));
    const head = await api.head('doc.pdf');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1234');
    expect(head.headers.get('content-type')).toBe('application/pdf');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('lists a directory with every StorageObject property, directories included; an unknown one is empty', async () => {
    const bytes = Buffer.from('hello');
    await api.put('docs/readme.txt', bytes);
    await api.put('docs/sub/deep.txt', Buffer.from('x'));
    const listed = await api.list('docs/');
    expect(listed.status).toBe(200);
    const [file, directory] = [listed.body.find((o) => o['ObjectName'] === 'readme.txt')!, listed.body.find((o) => o['ObjectName'] === 'sub')!];
    expect(file).toEqual({
      Guid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      StorageZoneName: zone.Name,
      Path: `/${zone.Name}/docs/`,
      ObjectName: 'readme.txt',
      Length: 5,
      LastChanged: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/),
      ServerId: expect.any(Number),
      ArrayNumber: expect.any(Number),
      IsDirectory: false,
      UserId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ContentType: '',
      DateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      StorageZoneId: zone.Id,
      Checksum: sha256(bytes).toUpperCase(),
      ReplicatedZones: '',
    });
    expect(directory).toMatchObject({ ObjectName: 'sub', IsDirectory: true, Length: 0, Path: `/${zone.Name}/docs/`, Checksum: null });
    expect((await api.list('')).body.map((o) => [o['ObjectName'], o['IsDirectory']])).toEqual([['docs', true]]);
    expect(await api.list('nowhere/')).toEqual({ status: 200, body: [] });
  });

  it('creates an empty directory with PUT and a trailing slash, listed until removed', async () => {
    expect((await api.put('empty/', '')).status).toBe(201);
    expect((await api.list('')).body.map((o) => [o['ObjectName'], o['IsDirectory']])).toEqual([['empty', true]]);
    expect(await api.list('empty/')).toEqual({ status: 200, body: [] });
    expect((await api.del('empty/')).status).toBe(200);
    expect((await api.list('')).body).toEqual([]);
  });

  it('stores the content type Override-Content-Type names', async () => {
    await api.put('data.bin', 'body', { 'Override-Content-Type': 'text/csv' });
    expect((await api.get('data.bin')).headers.get('content-type')).toBe('text/csv');
    expect((await api.list('')).body[0]!['ContentType']).toBe('text/csv');
  });

  it('describes one file with DESCRIBE, and answers 404 for a missing one', async () => {
    await api.put('reports/q1.csv', 'a,b\n');
    const found = await api.describe('reports/q1.csv');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ ObjectName: 'q1.csv', Path: `/${zone.Name}/reports/`, Length: 4, IsDirectory: false });
    expect(await api.describe('reports/none.csv')).toEqual({ status: 404, body: { HttpCode: 404, Message: 'Object Not Found' } });
    expect((await api.describe('reports/q1.csv', 'wrong-key')).status).toBe(401);
  });

  it('replaces a file on overwrite and keeps its creation date', async () => {
    await api.put('v.txt', 'version one');
    const before = (await api.describe('v.txt')).body as Record<string, string>;
    await api.put('v.txt', 'version two!');
    const after = (await api.describe('v.txt')).body as Record<string, string>;
    expect(await (await api.get('v.txt')).text()).toBe('version two!');
    expect(after['DateCreated']).toBe(before['DateCreated']);
    expect(after['Guid']).not.toBe(before['Guid']);
  });

  it('deletes a file, and a directory with all it holds; the root only with allowRootDelete', async () => {
    await api.put('a/1.txt', '1');
    await api.put('a/b/2.txt', '2');
    await api.put('keep.txt', 'k');
    const deleted = await api.del('a/1.txt');
    expect(deleted.status).toBe(200);
    expect(((await deleted.json()) as { HttpCode: number }).HttpCode).toBe(200);
    expect((await api.del('a/1.txt')).status).toBe(404);
    expect((await api.del('a/')).status).toBe(200);
    expect((await api.get('a/b/2.txt')).status).toBe(404);
    expect((await api.list('')).body.map((o) => o['ObjectName'])).toEqual(['keep.txt']);

    expect((await api.del('')).status).toBe(400);
    expect((await api.get('keep.txt')).status).toBe(200);
    expect((await fetch(`${api.url('')}?allowRootDelete=true`, { method: 'DELETE', headers: { AccessKey: zone.Password } })).status).toBe(200);
    expect((await api.list('')).body).toEqual([]);
  });

  it('answers 404 with the platform body for a missing file', async () => {
    const res = await api.get('missing.txt');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ HttpCode: 404, Message: 'Object Not Found' });
  });

  it('refuses a wrong or missing key, a read-only key on a write, and an unknown zone alike (401)', async () => {
    await api.put('private.txt', 'secret');
    const unauthorized = { HttpCode: 401, Message: 'Unauthorized' };
    for (const res of [
      await api.get('private.txt', {}, 'wrong'),
      await api.get('private.txt', {}, null),
      await api.put('x.txt', 'x', {}, zone.ReadOnlyPassword),
    ]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(unauthorized);
    }
    expect((await api.del('private.txt', {}, zone.ReadOnlyPassword)).status).toBe(401);
    const readOnly = await api.get('private.txt', {}, zone.ReadOnlyPassword);
    expect(await readOnly.text()).toBe('secret');
    const unknown = await fetch(`${plane.url}/no-such-zone/private.txt`, { headers: { AccessKey: zone.Password } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual(unauthorized);
  });

  it("never lets a zone's key reach another zone's files", async () => {
    const other = await createStorageZone(t, `other-${randomBytes(3).toString('hex')}`);
    const otherApi = files(plane, other);
    await otherApi.put('theirs.txt', 'theirs');
    expect((await fetch(`${plane.url}/${other.Name}/theirs.txt`, { headers: { AccessKey: zone.Password } })).status).toBe(401);
    expect((await api.get('theirs.txt')).status).toBe(404);
  });

  it('keeps FilesStored and StorageUsed exact once a write has answered', async () => {
    const counters = async () => {
      const z = (await t.get(`/storagezone/${zone.Id}`)).body as { FilesStored: number; StorageUsed: number };
      return [z.FilesStored, z.StorageUsed];
    };
    expect(await counters()).toEqual([0, 0]);
    await api.put('one.bin', Buffer.alloc(100));
    await api.put('dir/two.bin', Buffer.alloc(50));
    expect(await counters()).toEqual([2, 150]);
    await api.put('one.bin', Buffer.alloc(10));
    expect(await counters()).toEqual([2, 60]);
    await api.del('dir/');
    expect(await counters()).toEqual([1, 10]);
    // A list asks for every zone's counters in one read: each zone still shows its own.
    const other = await createStorageZone(t, `other-${randomBytes(3).toString('hex')}`);
    await files(plane, other).put('a.bin', Buffer.alloc(3));
    await files(plane, other).put('b.bin', Buffer.alloc(4));
    const listed = (await t.get('/storagezone')).body as { Id: number; FilesStored: number; StorageUsed: number }[];
    const countersOf = (id: number) => listed.filter((z) => z.Id === id).map((z) => [z.FilesStored, z.StorageUsed]);
    expect(countersOf(zone.Id)).toEqual([[1, 10]]);
    expect(countersOf(other.Id)).toEqual([[2, 7]]);
  });

  it('refuses the old password on the very next request after a reset', async () => {
    await api.put('f.txt', 'f');
    expect((await api.get('f.txt')).status).toBe(200);
    expect((await t.post(`/storagezone/${zone.Id}/resetPassword`)).status).toBe(204);
    expect((await api.get('f.txt')).status).toBe(401);
    const fresh = (await t.get(`/storagezone/${zone.Id}`)).body as Zone;
    expect((await files(plane, fresh).get('f.txt')).status).toBe(200);
  });

  it('deletes the files of a deleted zone and frees their space once the grace period is over', async () => {
    await api.put('gone.bin', Buffer.alloc(4096, 1));
    const blobsBefore = await countBlobs(t);
    expect(blobsBefore).toBeGreaterThan(0);
    expect((await t.del(`/storagezone/${zone.Id}`)).status).toBe(204);
    expect((await api.get('gone.bin')).status).toBe(401);
    expect((await t.store.files.usage([String(zone.Id)])).get(String(zone.Id))).toEqual({ files: 0, bytes: 0 });
    // Still there during the grace period (a read that began before the delete may finish)…
    await t.app.services.fileSweeper.sweepDead();
    expect(await countBlobs(t)).toBe(blobsBefore);
    // …and removed after it.
    t.clock.advance(61_000);
    await t.app.services.fileSweeper.sweepDead();
    expect(await countBlobs(t)).toBe(blobsBefore - 1);
  });

  it('forgets the dead blobs of a sweep in one transaction', async () => {
    for (let i = 0; i < 10; i++) {
      await api.put(`d${i}.bin`, 'first');
      await api.put(`d${i}.bin`, 'second');
    }
    t.clock.advance(61_000);
    const commits = () => (t.store.stats() as { commits?: number }).commits ?? 0;
    const before = commits();
    expect(await t.app.services.fileSweeper.sweepDead()).toBeGreaterThanOrEqual(10);
    expect(await t.store.deadBlobs.due(t.clock.read().getTime(), 1000)).toEqual([]);
    // SQLite counts its batch commits (PostgreSQL has no such counter): one, not a commit per key.
    if (t.store.dialect === 'sqlite') expect(commits() - before).toBe(1);
  });

  it('removes a replaced file’s old bytes after the grace period, and blobs nothing points at after an hour', async () => {
    await api.put('r.bin', 'first');
    await api.put('r.bin', 'second');
    expect(await countBlobs(t)).toBe(2);
    t.clock.advance(61_000);
    await t.app.services.fileSweeper.sweepDead();
    expect(await countBlobs(t)).toBe(1);
    // An orphan: bytes written without metadata, as a crash between the two would leave.
    const { Readable } = await import('node:stream');
    await t.app.services.files.blobs.write(`${zone.Id}/00000000-0000-4000-8000-000000000000`, Readable.from([Buffer.from('orphan')]), { maxBytes: 100 });
    expect(await countBlobs(t)).toBe(2);
    // Too young to be swept: it could be an upload about to commit.
    expect(await t.app.services.fileSweeper.sweepOrphans()).toBe(0);
  });

  it('feeds the statistics with what really happened: storage day by day, and bytes downloaded', async () => {
    const day = t.clock.read().toISOString().slice(0, 10);
    await api.put('s1.bin', Buffer.alloc(300));
    await api.put('s2.bin', Buffer.alloc(200));
    await (await api.get('s1.bin')).arrayBuffer();
    await (await api.get('s1.bin', { Range: 'bytes=0-99' })).arrayBuffer();
    const stats = await t.get(`/storagezone/${zone.Id}/statistics`);
    expect(stats.status).toBe(200);
    const point = `${day}T00:00:00Z`;
    expect(stats.body.StorageUsedChart[point]).toBe(500);
    expect(stats.body.FileCountChart[point]).toBe(2);
    expect(Object.keys(stats.body.StorageUsedChart)).toHaveLength(31);

    const egress = await t.get(`/storagezone/${zone.Id}/statistics/egress`);
    expect(egress.status).toBe(200);
    expect(egress.body.HttpEgressChart[point]).toBe(400);
    expect(egress.body).toMatchObject({ HttpEgressTotal: 400, TotalEgress: 400, S3EgressTotal: 0, FtpEgressTotal: 0 });
    const hourly = await t.get(`/storagezone/${zone.Id}/statistics/egress?hourly=true&dateFrom=${day}T00:00:00Z&dateTo=${day}T23:59:59Z`);
    expect(Object.keys(hourly.body.HttpEgressChart)).toHaveLength(24);
    expect(hourly.body.HttpEgressTotal).toBe(400);
    expect((await t.get(`/storagezone/${zone.Id + 1000}/statistics`)).status).toBe(404);
  });
});

async function countBlobs(t: TestContext): Promise<number> {
  let n = 0;
  for await (const _ of t.app.services.files.blobs.list('')) n++;
  return n;
}
