/**
 * The directory tokens edgeplane signs itself (the embed page's player addresses): the verifier
 * accepts every file under the directory until the expiry, nothing outside it, nothing after it,
 * and, when the zone binds tokens to the client address, only from that address.
 */
import { describe, expect, it } from 'vitest';
import { directoryTokenSegment } from '../../../src/domain/edge/policy/token/sign.js';
import { verifyToken } from '../../../src/domain/edge/policy/token/verify.js';
import { parseIp } from '../../../src/security/ip-list.js';
import { KEY, request } from './helpers.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const EXPIRES = NOW.getTime() / 1000 + 3600;
const DIRECTORY = '/3f2a1c9e-8b7d-4e6f-9a0b-1c2d3e4f5a6b/';

function check(path: string, settings = { key: KEY, includeClientIp: false }, clientIp = '203.0.113.9', now = NOW) {
  return verifyToken(request({ path, clientIp }), parseIp(clientIp), settings, now);
}

describe('directoryTokenSegment', () => {
  it('opens every file under the directory until it expires, and nothing outside it', () => {
    const segment = directoryTokenSegment({ key: KEY, includeClientIp: false }, { tokenPath: DIRECTORY, expires: EXPIRES });
    expect(segment).toMatch(/^\/bcdn_token=HS256-[A-Za-z0-9_-]{43}&token_path=%2F[0-9a-f-]{36}%2F&expires=\d+$/);
    expect(check(`${segment}${DIRECTORY}playlist.m3u8`)).toEqual({ ok: true, path: `${DIRECTORY}playlist.m3u8`, query: '' });
    expect(check(`${segment}${DIRECTORY}360p/video0.ts`)).toMatchObject({ ok: true, path: `${DIRECTORY}360p/video0.ts` });
    expect(check(`${segment}/another-video/playlist.m3u8`)).toEqual({ ok: false, reason: 'token-path-mismatch' });
    expect(check(`${segment}${DIRECTORY}../secret.txt`)).toMatchObject({ ok: false });
    expect(check(`${segment}${DIRECTORY}a.ts`, undefined, undefined, new Date(EXPIRES * 1000))).toEqual({ ok: false, reason: 'token-expired' });
    expect(check(`${segment}${DIRECTORY}a.ts`, { key: 'another-key', includeClientIp: false })).toEqual({ ok: false, reason: 'token-invalid' });
  });

  it('binds the token to the client address when the zone asks for it', () => {
    const settings = { key: KEY, includeClientIp: true };
    const segment = directoryTokenSegment(settings, { tokenPath: DIRECTORY, expires: EXPIRES, clientIp: '198.51.100.7' });
    expect(check(`${segment}${DIRECTORY}a.ts`, settings, '198.51.100.7')).toMatchObject({ ok: true });
    expect(check(`${segment}${DIRECTORY}a.ts`, settings, '198.51.100.8')).toEqual({ ok: false, reason: 'token-invalid' });
  });

  it('refuses to sign a path that is not a directory', () => {
    expect(() => directoryTokenSegment({ key: KEY, includeClientIp: false }, { tokenPath: '/video.mp4', expires: EXPIRES })).toThrow(/directory/);
  });
});
