/**
 * Perma-cache (`PermaCacheStorageZoneId`, `PermaCacheType`): an edge miss writes the origin's
 * answer into the storage zone in the platform's layout; a later miss — after a URL purge, with the
 * origin down, on another instance over the same store — is served from there; a whole-zone purge
 * starts a new folder; the storage zone's counters include the files.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zonePath } from '../../../src/domain/files/paths.js';
import type { ZoneAccess } from '../../../src/domain/files/types.js';
import { createEdgeCore } from '../../../src/planes/edge/core.js';
import { listenEdge } from '../../../src/planes/edge/listen.js';
import type { Store } from '../../../src/store/types.js';
import { buildApiOver, createTestApp, errorFields, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, type TestPullZone } from '../../helpers/edge-plane.js';
import { createStorageZone } from '../../helpers/storage-plane.js';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let version = 1;

/** Answers `v<version> <url>`, kept 10 minutes, its type from the extension; `/private…` and `/cookie…` as named. */
function originAnswer(req: { url?: string | undefined }, res: import('node:http').ServerResponse) {
  const url = req.url ?? '';
  const headers: Record<string, string> = { 'content-type': url.includes('.jpg') ? 'image/jpeg' : 'text/plain', 'cache-control': 'max-age=600' };
  if (url.startsWith('/private')) headers['cache-control'] = 'private, max-age=600';
  if (url.startsWith('/cookie')) headers['set-cookie'] = 'session=1';
  res.writeHead(200, headers);
  res.end(`v${version} ${url}`);
}

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin(originAnswer);
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

const accessOf = (zone: { Id: number; Name: string }): ZoneAccess => ({
  zoneId: String(zone.Id),
  accountId: t.accountId,
  zoneName: zone.Name,
  canWrite: true,
  userId: '',
  s3: false,
  region: 'DE',
  replicationRegions: [],
});
const folderOf = (zone: TestPullZone, cacheVersion = 0) => `__bcdn_perma_cache__/pullzone__${zone.Name}__${zone.Id}-${cacheVersion}/`;
const stored = async (storage: { Id: number }, path: string) => {
  const file = await t.app.services.files.find({ zoneId: String(storage.Id) }, path);
  return file && { file, text: (await t.app.services.files.readBytes(file)).toString() };
};
const counters = async (storage: { Id: number }) => {
  const { FilesStored, StorageUsed } = (await t.get(`/storagezone/${storage.Id}`)).body as { FilesStored: number; StorageUsed: number };
  return { FilesStored, StorageUsed };
};
const purgeUrl = async (zone: TestPullZone, path: string) =>
  expect((await t.post(`/purge?url=${encodeURIComponent(`https://${zone.host}${path}`)}`)).status).toBe(200);

describe('perma-cache off', () => {
  it('writes nothing and sends no Perma-Cache header', async () => {
    const storage = await createStorageZone(t, 'perma-off-files');
    const zone = await createPullZone(t, 'perma-off', origin.url);
    const res = await edge.get(zone.host, '/a.txt');
    expect([res.status, res.headers['cdn-cache'], res.headers['perma-cache']]).toEqual([200, 'MISS', undefined]);
    await edge.core.permaCache.idle();
    expect(await counters(storage)).toEqual({ FilesStored: 0, StorageUsed: 0 });
  });
});

describe('perma-cache on', () => {
  it('writes a miss in the layout, and after a URL purge serves it from storage with the origin down', async () => {
    const own = await startOrigin(originAnswer);
    const storage = await createStorageZone(t, 'perma-on-files');
    const zone = await createPullZone(t, 'permacachetest', own.url, { PermaCacheStorageZoneId: storage.Id });
    const first = await edge.get(zone.host, '/path/to/my/file/image.jpg');
    expect([first.status, first.headers['cdn-cache'], first.headers['perma-cache'], first.text]).toEqual([
      200,
      'MISS',
      'MISS',
      'v1 /path/to/my/file/image.jpg',
    ]);
    await edge.core.permaCache.idle();
    const kept = await stored(storage, `${folderOf(zone)}path/to/my/file/___image.jpg___/___file___`);
    expect([kept?.text, kept?.file.contentType, kept?.file.metadata]).toEqual([first.text, 'image/jpeg', { 'system:cache-control': 'max-age=600' }]);
    expect(await counters(storage)).toEqual({ FilesStored: 1, StorageUsed: first.body.length });
    // The edge's own copy keeps the header it was cached with.
    expect([(await edge.get(zone.host, '/path/to/my/file/image.jpg')).headers['cdn-cache'], first.headers['perma-cache']]).toEqual(['HIT', 'MISS']);

    await own.close();
    await purgeUrl(zone, '/path/to/my/file/image.jpg');
    const again = await edge.get(zone.host, '/path/to/my/file/image.jpg');
    expect([again.status, again.headers['cdn-cache'], again.headers['perma-cache'], again.text]).toEqual([200, 'MISS', 'HIT', first.text]);
    expect([again.headers['content-type'], again.headers['cache-control'], again.headers['etag']]).toEqual([
      'image/jpeg',
      'max-age=600',
      `"${kept?.file.md5}"`,
    ]);
    expect(again.headers['cdn-requestpullsuccess']).toBeUndefined();
    // Kept by the edge again, from the perma-cache's answer.
    expect((await edge.get(zone.host, '/path/to/my/file/image.jpg')).headers['cdn-cache']).toBe('HIT');
    // What the perma-cache does not hold needs the origin, which is down.
    expect((await edge.get(zone.host, '/other.txt')).status).toBe(502);
    expect(own.requests.map((r) => r.url)).toEqual(['/path/to/my/file/image.jpg']);
  });

  it('a whole-zone purge starts a new folder; the old one stays, and the counters hold both', async () => {
    const storage = await createStorageZone(t, 'perma-purge-files');
    const zone = await createPullZone(t, 'perma-purge', origin.url, { PermaCacheStorageZoneId: storage.Id });
    version = 1;
    await edge.get(zone.host, '/a.txt');
    await edge.core.permaCache.idle();
    version = 2;
    // An expired copy is fetched again from the perma-cache, and a URL purge does not touch it.
    edge.advance(601);
    const expired = await edge.get(zone.host, '/a.txt');
    expect([expired.headers['cdn-cache'], expired.headers['perma-cache'], expired.text]).toEqual(['EXPIRED', 'HIT', 'v1 /a.txt']);
    await purgeUrl(zone, '/a.txt');
    expect((await edge.get(zone.host, '/a.txt')).headers['perma-cache']).toBe('HIT');
    expect((await t.post(`/pullzone/${zone.Id}/purgeCache`, {})).status).toBe(204);
    const fresh = await edge.get(zone.host, '/a.txt');
    expect([fresh.headers['perma-cache'], fresh.text]).toEqual(['MISS', 'v2 /a.txt']);
    await edge.core.permaCache.idle();
    expect((await stored(storage, `${folderOf(zone, 0)}___a.txt___/___file___`))?.text).toBe('v1 /a.txt');
    expect((await stored(storage, `${folderOf(zone, 1)}___a.txt___/___file___`))?.text).toBe('v2 /a.txt');
    expect(await counters(storage)).toEqual({ FilesStored: 2, StorageUsed: 'v1 /a.txt'.length + 'v2 /a.txt'.length });
    version = 1;
  });

  it('keeps each query apart under a hashed name, and never keeps private, cookie-setting or bypassed answers', async () => {
    const storage = await createStorageZone(t, 'perma-kinds-files');
    const zone = await createPullZone(t, 'perma-kinds', origin.url, { PermaCacheStorageZoneId: storage.Id });
    const rule = { ActionType: 15, ActionParameter1: '', ActionParameter2: '', TriggerMatchingType: 0, Enabled: true, Description: 'bypass' };
    const triggers = [{ Type: 0, PatternMatches: ['/skip/*'], PatternMatchingType: 0, Parameter1: '' }];
    expect((await t.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, { ...rule, Triggers: triggers })).status).toBe(201);
    for (const path of ['/q.txt?a=1', '/q.txt?a=2', '/q.txt', '/private.txt', '/cookie.txt']) {
      expect((await edge.get(zone.host, path)).headers['perma-cache']).toBe('MISS');
    }
    expect((await edge.get(zone.host, '/skip/b.txt')).headers['perma-cache']).toBeUndefined();
    await edge.core.permaCache.idle();
    const names = async (dir: string) => (await t.app.services.files.list({ zoneId: String(storage.Id) }, dir)).map((f) => f.path.slice(dir.length)).sort();
    expect(await names(folderOf(zone))).toEqual(['___q.txt___/']);
    const variants = await names(`${folderOf(zone)}___q.txt___/`);
    expect(variants).toHaveLength(3);
    expect(variants.filter((n) => /^___file___[0-9a-f]{16}$/.test(n))).toHaveLength(2);
    expect(variants).toContain('___file___');
  });

  it('PermaCacheType 1 (Manual) reads what the account put there and writes nothing', async () => {
    const storage = await createStorageZone(t, 'perma-manual-files');
    const zone = await createPullZone(t, 'perma-manual', origin.url, { PermaCacheStorageZoneId: storage.Id, PermaCacheType: 1 });
    expect((await edge.get(zone.host, '/fetched.txt')).headers['perma-cache']).toBe('MISS');
    const path = `${folderOf(zone)}docs/___put.txt___/___file___`;
    await t.app.services.files.upload(accessOf(storage), zonePath(path.split('/'), false), Readable.from([Buffer.from('put by hand')]), {
      contentType: 'text/plain',
    });
    const asked = origin.requests.length;
    const res = await edge.get(zone.host, '/docs/put.txt');
    expect([res.headers['perma-cache'], res.text, res.headers['content-type'], origin.requests.length]).toEqual(['HIT', 'put by hand', 'text/plain', asked]);
    await edge.core.permaCache.idle();
    expect(await counters(storage)).toEqual({ FilesStored: 1, StorageUsed: 'put by hand'.length });
    expect((await t.post(`/pullzone/${zone.Id}`, { PermaCacheType: 2 })).status).toBe(400);
  });

  it('a deleted storage zone turns it off, said once in the log; another account’s zone is refused', async () => {
    const storage = await createStorageZone(t, 'perma-gone-files');
    const zone = await createPullZone(t, 'perma-gone', origin.url, { PermaCacheStorageZoneId: storage.Id });
    expect((await t.del(`/storagezone/${storage.Id}`)).status).toBe(204);
    for (const path of ['/x.txt', '/y.txt']) {
      const res = await edge.get(zone.host, path);
      expect([res.status, res.headers['perma-cache'], res.text]).toEqual([200, undefined, `v1 ${path}`]);
    }
    expect(edge.errors.map(String)).toEqual([
      `Error: Pull zone ${zone.Id} serves without its perma-cache: storage zone ${storage.Id} is deleted or not of its account.`,
    ]);
    edge.errors.length = 0;
    const other = await t.newAccount('perma-other');
    const theirs = (await t.post('/storagezone', { Name: 'perma-theirs', Region: 'DE' }, other.key)).body as { Id: number };
    expect(errorFields(await t.post(`/pullzone/${zone.Id}`, { PermaCacheStorageZoneId: theirs.Id }))).toEqual(['PermaCacheStorageZoneId']);
  });
});

describe('perma-cache across instances', () => {
  let storeB: Store;
  let b: FastifyInstance;
  let edgeB: Awaited<ReturnType<typeof listenEdge>>;
  beforeAll(async () => {
    storeB = await t.openStore();
    b = await buildApiOver({ config: t.config, store: storeB, masterKey: t.masterKey, clock: t.clock.read });
    edgeB = await listenEdge(
      createEdgeCore(b.services, { cdnDomain: t.config.cdnDomain, cacheBytes: 1 << 20, logError: (e) => edge.errors.push(e) }),
      '127.0.0.1',
      0,
    );
  });
  afterAll(async () => {
    await edgeB?.close();
    await b?.close();
    await storeB?.close();
  });

  it("another instance, with the origin down, serves what this one's miss wrote", async () => {
    const own = await startOrigin(originAnswer);
    const storage = await createStorageZone(t, 'perma-shared-files');
    const zone = await createPullZone(t, 'perma-shared', own.url, { PermaCacheStorageZoneId: storage.Id });
    const onA = await edge.get(zone.host, '/shared.css');
    expect(onA.headers['perma-cache']).toBe('MISS');
    await edge.core.permaCache.idle();
    await own.close();
    const onB = await request(`${edgeB.url}/shared.css`, { headers: { host: zone.host } });
    expect([onB.statusCode, onB.headers['cdn-cache'], onB.headers['perma-cache'], await onB.body.text()]).toEqual([200, 'MISS', 'HIT', onA.text]);
    expect(own.requests).toHaveLength(1);
  });
});
