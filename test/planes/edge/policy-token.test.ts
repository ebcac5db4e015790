/**
 * Token authentication over real HTTP: URLs signed as the platform's documentation says (MD5 basic,
 * HMAC-SHA256 with a directory token in the path) open files; unsigned, tampered and expired ones
 * get 403; the token never reaches the origin nor splits the cache.
 */
import { execFile } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, updatePullZone } from '../../helpers/edge-plane.js';

const run = promisify(execFile);
const KEY = 'http-token-test-key';
const b64url = (bytes: Buffer) => bytes.toString('base64url');
const md5Token = (path: string, expires: number, ip = '') => b64url(createHash('md5').update(`${KEY}${path}${expires}${ip}`).digest());
const hmacToken = (signedPath: string, expires: number, params = '') =>
  `HS256-${b64url(createHmac('sha256', KEY).update(signedPath).update(String(expires)).update(params).digest())}`;

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let host: string;
let zoneId: number;
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin();
  edge = await startEdgePlane(t);
  const zone = await createPullZone(t, 'token-zone', origin.url);
  host = zone.host;
  zoneId = zone.Id;
  expect((await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, { SecurityKey: KEY })).status).toBe(204);
  await updatePullZone(t, zone.Id, { ZoneSecurityEnabled: true });
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

describe('ZoneSecurityEnabled', () => {
  it('refuses requests without a token, or with a wrong or expired one', async () => {
    const expires = inAnHour();
    expect((await edge.get(host, '/v/a.mp4')).status).toBe(403);
    expect((await edge.get(host, `/v/a.mp4?token=${md5Token('/v/b.mp4', expires)}&expires=${expires}`)).status).toBe(403);
    const past = Math.floor(Date.now() / 1000) - 1;
    expect((await edge.get(host, `/v/a.mp4?token=${md5Token('/v/a.mp4', past)}&expires=${past}`)).status).toBe(403);
  });

  it('serves a basic (MD5) signed URL; the origin sees the file’s URL without the token, and the cache ignores it', async () => {
    const expires = inAnHour();
    const first = await edge.get(host, `/v/basic.mp4?token=${md5Token('/v/basic.mp4', expires)}&expires=${expires}`);
    expect(first.status).toBe(200);
    expect(first.text).toBe('origin /v/basic.mp4');
    expect(origin.requests.at(-1)?.url).toBe('/v/basic.mp4');
    // Another valid token for the same file is the same cached copy.
    const later = expires + 60;
    const second = await edge.get(host, `/v/basic.mp4?token=${md5Token('/v/basic.mp4', later)}&expires=${later}`);
    expect(second.status).toBe(200);
    expect(second.headers['cdn-cache']).toBe('HIT');
  });

  it('serves every file under a directory token carried in the path (HMAC-SHA256), nothing outside it', async () => {
    const expires = inAnHour();
    const token = hmacToken('/live/', expires, 'token_path=/live/');
    const prefix = `/bcdn_token=${token}&token_path=%2Flive%2F&expires=${expires}`;
    const playlist = await edge.get(host, `${prefix}/live/index.m3u8`);
    expect(playlist.status).toBe(200);
    expect(playlist.text).toBe('origin /live/index.m3u8');
    const segment = await edge.get(host, `${prefix}/live/720p/00001.ts`);
    expect(segment.text).toBe('origin /live/720p/00001.ts');
    expect(origin.requests.at(-1)?.url).toBe('/live/720p/00001.ts');
    expect((await edge.get(host, `${prefix}/vod/00001.ts`)).status).toBe(403);
  });

  it('with ZoneSecurityIncludeHashRemoteIP, a token must name the client address', async () => {
    await updatePullZone(t, zoneId, { ZoneSecurityIncludeHashRemoteIP: true });
    try {
      const expires = inAnHour();
      expect((await edge.get(host, `/ip/a.txt?token=${md5Token('/ip/a.txt', expires)}&expires=${expires}`)).status).toBe(403);
      expect((await edge.get(host, `/ip/a.txt?token=${md5Token('/ip/a.txt', expires, '10.9.8.7')}&expires=${expires}`)).status).toBe(403);
      expect((await edge.get(host, `/ip/a.txt?token=${md5Token('/ip/a.txt', expires, '127.0.0.1')}&expires=${expires}`)).status).toBe(200);
    } finally {
      await updatePullZone(t, zoneId, { ZoneSecurityIncludeHashRemoteIP: false });
    }
  });

  it('curl fetches a signed URL as a user would', async () => {
    const expires = inAnHour();
    const url = `http://127.0.0.1:${edge.port}/curl/a.txt?token=${md5Token('/curl/a.txt', expires)}&expires=${expires}`;
    const { stdout } = await run('curl', ['-s', '-H', `Host: ${host}`, '-w', '\n%{http_code}', url]);
    expect(stdout).toBe('origin /curl/a.txt\n200');
  });

  it('a new key invalidates the old URLs; turning the setting off opens everything', async () => {
    const expires = inAnHour();
    const url = `/k/a.txt?token=${md5Token('/k/a.txt', expires)}&expires=${expires}`;
    expect((await edge.get(host, url)).status).toBe(200);
    expect((await t.post(`/pullzone/${zoneId}/resetSecurityKey`, { SecurityKey: 'another-key' })).status).toBe(204);
    expect((await edge.get(host, url)).status).toBe(403);
    await updatePullZone(t, zoneId, { ZoneSecurityEnabled: false });
    expect((await edge.get(host, '/k/unsigned.txt')).status).toBe(200);
    await t.post(`/pullzone/${zoneId}/resetSecurityKey`, { SecurityKey: KEY });
    await updatePullZone(t, zoneId, { ZoneSecurityEnabled: true });
  });
});
