/**
 * Purges empty the edge's cache: `POST /pullzone/{id}/purgeCache` the whole zone, `POST /purge?url=`
 * one URL or a `*` pattern. (test/postgres/edge-purge.test.ts: seen by the other instance too.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let version = 1;

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin((req, res) => {
    res.writeHead(200, { 'cache-control': 'max-age=600' });
    res.end(`v${version} ${req.url}`);
  });
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

const status = async (host: string, path: string) => (await edge.get(host, path)).headers['cdn-cache'];

describe('POST /pullzone/{id}/purgeCache', () => {
  it("empties the zone's cache and leaves other zones' alone", async () => {
    const zone = await createPullZone(t, 'purge-all', origin.url);
    const other = await createPullZone(t, 'purge-other', origin.url);
    for (const path of ['/a', '/b']) await edge.get(zone.host, path);
    await edge.get(other.host, '/a');
    expect(await status(zone.host, '/a')).toBe('HIT');
    expect((await t.post(`/pullzone/${zone.Id}/purgeCache`, {})).status).toBe(204);
    expect(await status(zone.host, '/a')).toBe('MISS');
    expect(await status(zone.host, '/b')).toBe('MISS');
    expect(await status(other.host, '/a')).toBe('HIT');
  });
});

describe('POST /purge', () => {
  it('removes one URL, whatever its query, and nothing else', async () => {
    const zone = await createPullZone(t, 'purge-url', origin.url);
    for (const path of ['/one.txt', '/one.txt?x=1', '/two.txt']) await edge.get(zone.host, path);
    version = 2;
    const res = await t.post(`/purge?url=${encodeURIComponent(`https://${zone.host}/one.txt`)}`);
    expect(res.status).toBe(200);
    const fresh = await edge.get(zone.host, '/one.txt');
    expect([fresh.headers['cdn-cache'], fresh.text]).toEqual(['MISS', 'v2 /one.txt']);
    expect(await status(zone.host, '/one.txt?x=1')).toBe('MISS');
    expect((await edge.get(zone.host, '/two.txt')).text).toBe('v1 /two.txt');
  });

  it('removes only the query given, in any order of its parameters', async () => {
    const zone = await createPullZone(t, 'purge-query', origin.url);
    for (const path of ['/q.txt?a=1&b=2', '/q.txt?a=2']) await edge.get(zone.host, path);
    expect((await t.post(`/purge?url=${encodeURIComponent(`https://${zone.host}/q.txt?b=2&a=1`)}`)).status).toBe(200);
    expect(await status(zone.host, '/q.txt?a=1&b=2')).toBe('MISS');
    expect(await status(zone.host, '/q.txt?a=2')).toBe('HIT');
  });

  it('removes what a * pattern matches, and a path ending in / everything below it', async () => {
    const zone = await createPullZone(t, 'purge-pattern', origin.url);
    const paths = ['/img/a.png', '/img/b.png', '/img/c.jpg', '/css/x.css', '/docs/a/1', '/docs/b/2'];
    for (const path of paths) await edge.get(zone.host, path);
    expect((await t.post(`/purge?url=${encodeURIComponent(`${zone.host}/img/*.png`)}`)).status).toBe(200);
    expect(await Promise.all(paths.slice(0, 4).map((p) => status(zone.host, p)))).toEqual(['MISS', 'MISS', 'HIT', 'HIT']);
    expect((await t.post(`/purge?url=${encodeURIComponent(`http://${zone.host}/docs/`)}`)).status).toBe(200);
    expect(await status(zone.host, '/docs/a/1')).toBe('MISS');
    expect(await status(zone.host, '/docs/b/2')).toBe('MISS');
  });

  it("refuses a URL of no zone of the account, naming the field; another account's zone included", async () => {
    expect(errorFields(await t.post(`/purge?url=${encodeURIComponent('https://nobody.example/a')}`))).toEqual(['url']);
    expect((await t.post('/purge')).status).toBe(400);
    const zone = await createPullZone(t, 'purge-mine', origin.url);
    await edge.get(zone.host, '/kept');
    const stranger = await t.newAccount('stranger');
    const refused = await t.request('POST', `/purge?url=${encodeURIComponent(`https://${zone.host}/kept`)}`, undefined, stranger.key);
    expect(refused.status).toBe(400);
    expect(await status(zone.host, '/kept')).toBe('HIT');
  });
});
