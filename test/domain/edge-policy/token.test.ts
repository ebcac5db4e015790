/**
 * URL token authentication (ZoneSecurityEnabled, ZoneSecurityKey, ZoneSecurityIncludeHashRemoteIP).
 * The signers below are written from the platform's public documentation of its algorithms, not
 * from the verifier; the published cross-language vectors of the platform's signing libraries
 * check them first, so that every other case compares the verifier with what a real signer sends.
 *
 *   basic:     base64url(MD5(key + path + expires [+ ip]))
 *   advanced:  base64url(SHA256(key + signedPath + expires [+ ip] + sortedParams))
 *   HMAC:      "HS256-" ["1-"] base64url(HMAC-SHA256(key, signedPath + expires [+ ipBytes] + sortedParams))
 *
 * signedPath is token_path when set, else the URL path; sortedParams the query parameters other
 * than token and expires, sorted by name, `name=value` joined with `&`, values not encoded.
 */
import { createHash, createHmac } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { action, always, answerFor, CONTINUE, decide, get, KEY, refused, rule, trigger, zoneWith } from './helpers.js';

const b64url = (bytes: Buffer) => bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function md5Token(key: string, path: string, expires: number, ip = ''): string {
  return b64url(
    createHash('md5')
      .update(key + path + expires + ip)
      .digest(),
  );
}

function sortedParams(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

function sha256Token(key: string, signedPath: string, expires: number, params: Record<string, string> = {}, ip = ''): string {
  return b64url(
    createHash('sha256')
      .update(key + signedPath + expires + ip + sortedParams(params))
      .digest(),
  );
}

/** The address as the HMAC signers bind it: 4 bytes for IPv4, the /64 then 8 zero bytes for IPv6. */
function boundIp(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  const [head, tail = ''] = ip.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const all = [...groups(head!), ...new Array(8 - groups(head!).length - groups(tail).length).fill('0'), ...groups(tail)];
  const bytes = Buffer.alloc(16);
  for (let i = 0; i < 4; i++) bytes.writeUInt16BE(Number.parseInt(all[i]!, 16), i * 2);
  return bytes;
}

function hmacToken(key: string, signedPath: string, expires: number, params: Record<string, string> = {}, ip?: string): string {
  const mac = createHmac('sha256', key).update(signedPath).update(String(expires));
  if (ip) mac.update(boundIp(ip));
  mac.update(sortedParams(params));
  return `HS256-${ip ? '1-' : ''}${b64url(mac.digest())}`;
}

const enc = (params: Record<string, string>) =>
  Object.keys(params)
    .sort()
    .map((k) => `&${k}=${encodeURIComponent(params[k]!)}`)
    .join('');

const EXPIRES = Math.floor(Date.UTC(2026, 0, 1, 1) / 1000); // an hour after NOW
const secured = (more = {}) => zoneWith({ ZoneSecurityEnabled: true, ...more });

describe('the test signers', () => {
  // Published vectors of the platform's signing libraries (key "SecurityKey", expires 1598024587).
  const K = 'SecurityKey';
  const E = 1598024587;
  it('reproduce the platform’s published HMAC tokens', () => {
    expect(hmacToken(K, '/300kb.jpg', E)).toBe('HS256-o10JRWlsAItyAsdKS6jJKjabHN4FrFsplDHPV1idcX4');
    expect(hmacToken(K, '/abc', E, { token_path: '/abc' })).toBe('HS256-uVZvT3SbEoVKYJyDJgbcsDmSFf73cv-uNUVaJiKWpbQ');
    expect(hmacToken(K, '/300kb.jpg', E, { token_ignore_params: 'true' })).toBe('HS256-1lwWBD_c1IAGSj1UKPoxreu8ePDQ-Z9FoWLcRn_RRH0');
    expect(hmacToken(K, '/300kb.jpg', E, { limit: '1000' })).toBe('HS256-DAVapqNNED3Z7JkjRTYX0UOIHNtbHEuuhRNEc4A7mMQ');
    expect(hmacToken(K, '/300kb.jpg', E, { token_countries: 'CA,US' })).toBe('HS256-i5s3Uv7mnrFfN5nznwU2BxhILpnipYeE18TapV0WNFM');
    expect(hmacToken(K, '/300kb.jpg', E, {}, '1.2.3.4')).toBe('HS256-1-L2rISTLcujMY9UFf2tbZ41d5i-Bme1g1oTK_Z2QMLJk');
    expect(hmacToken(K, '/300kb.jpg', E, {}, '2001:0db8:85a3:0000:0000:8a2e:0370:7334')).toBe('HS256-1-Z1BaGdhTZdU4iANcyKpurFR2VgCNdqC6hlBv5x_TyaI');
    expect(hmacToken(K, '/abc/', E, { limit: '5000' }, '1.2.3.4')).toBe('HS256-1-X01Z6A9xAo1_ds1XFf9y8gAIzk_JpmoevOx7EtgMQhY');
  });

  it('the verifier accepts those published URLs as the platform’s edge does', () => {
    const zone = secured({ ZoneSecurityKey: K });
    const before = new Date((E - 60) * 1000);
    const cases: [string, string][] = [
      ['/300kb.jpg?token=HS256-o10JRWlsAItyAsdKS6jJKjabHN4FrFsplDHPV1idcX4&expires=1598024587', '203.0.113.9'],
      ['/abc/300kb.jpg?token=HS256-uVZvT3SbEoVKYJyDJgbcsDmSFf73cv-uNUVaJiKWpbQ&token_path=%2Fabc&expires=1598024587', '203.0.113.9'],
      ['/300kb.jpg?token=HS256-i5s3Uv7mnrFfN5nznwU2BxhILpnipYeE18TapV0WNFM&token_countries=CA%2CUS&expires=1598024587', '203.0.113.9'],
      ['/300kb.jpg?token=HS256-1-L2rISTLcujMY9UFf2tbZ41d5i-Bme1g1oTK_Z2QMLJk&expires=1598024587', '1.2.3.4'],
      ['/300kb.jpg?token=HS256-1-Z1BaGdhTZdU4iANcyKpurFR2VgCNdqC6hlBv5x_TyaI&expires=1598024587', '2001:db8:85a3::8a2e:370:7334'],
      ['/bcdn_token=HS256-1-X01Z6A9xAo1_ds1XFf9y8gAIzk_JpmoevOx7EtgMQhY&limit=5000&expires=1598024587/abc/', '1.2.3.4'],
    ];
    for (const [url, clientIp] of cases) expect(decide(zone, get(url, { clientIp }), {}, before).verdict, url).toEqual(CONTINUE);
  });
});

describe('ZoneSecurityEnabled', () => {
  it('off: requests without a token are served', () => {
    expect(decide(zoneWith(), get('/img/cat.jpg')).verdict).toEqual(CONTINUE);
  });

  it('on: a request without a token, or with only half of one, is refused', () => {
    const zone = secured();
    expect(decide(zone, get('/img/cat.jpg')).verdict).toEqual(refused('token-missing'));
    expect(decide(zone, get(`/img/cat.jpg?expires=${EXPIRES}`)).verdict).toEqual(refused('token-missing'));
    expect(decide(zone, get('/img/cat.jpg?token=abc')).verdict).toEqual(refused('token-missing'));
  });

  it('on without a key: every request is refused', () => {
    const zone = secured({ ZoneSecurityKey: '' });
    const token = md5Token('', '/a.jpg', EXPIRES);
    expect(decide(zone, get(`/a.jpg?token=${token}&expires=${EXPIRES}`)).verdict).toEqual(refused('token-key-missing'));
  });

  it('turned off again: the same request is served', () => {
    expect(decide({ ...secured(), ZoneSecurityEnabled: false }, get('/img/cat.jpg')).verdict).toEqual(CONTINUE);
  });
});

describe('basic tokens (MD5)', () => {
  const zone = secured();
  const url = (path: string, token: string, expires = EXPIRES, extra = '') => `${path}?token=${token}&expires=${expires}${extra}`;

  it('serve the signed path until it expires', () => {
    const token = md5Token(KEY, '/img/cat.jpg', EXPIRES);
    expect(decide(zone, get(url('/img/cat.jpg', token))).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(url('/img/cat.jpg', token)), {}, new Date((EXPIRES - 1) * 1000)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(url('/img/cat.jpg', token)), {}, new Date(EXPIRES * 1000)).verdict).toEqual(refused('token-expired'));
  });

  it('do not open another path, another expiry, or another key', () => {
    const token = md5Token(KEY, '/img/cat.jpg', EXPIRES);
    expect(decide(zone, get(url('/img/dog.jpg', token))).verdict).toEqual(refused('token-invalid'));
    expect(decide(zone, get(url('/img/cat.jpg', token, EXPIRES + 3600))).verdict).toEqual(refused('token-invalid'));
    expect(decide(zone, get(url('/img/cat.jpg', md5Token('other-key', '/img/cat.jpg', EXPIRES)))).verdict).toEqual(refused('token-invalid'));
    expect(decide(zone, get(url('/img/cat.jpg', `${token.slice(0, -1)}A`))).verdict).toEqual(refused('token-invalid'));
    expect(decide(zone, get(url('/img/cat.jpg', token, Number.NaN))).verdict).toEqual(refused('token-invalid'));
  });

  it('sign no other parameter: extra ones are allowed, and only token and expires are taken out of the query', () => {
    const token = md5Token(KEY, '/img/cat.jpg', EXPIRES);
    const { verdict, effects } = decide(zone, get(url('/img/cat.jpg', token, EXPIRES, '&width=200')));
    expect(verdict).toEqual(CONTINUE);
    expect(effects.rewrittenQuery).toBe('width=200');
    expect(effects.rewrittenPath).toBeUndefined();
  });

  it('with ZoneSecurityIncludeHashRemoteIP, are bound to the client address', () => {
    const bound = secured({ ZoneSecurityIncludeHashRemoteIP: true });
    const token = md5Token(KEY, '/img/cat.jpg', EXPIRES, '198.51.100.4');
    expect(decide(bound, get(url('/img/cat.jpg', token), { clientIp: '198.51.100.4' })).verdict).toEqual(CONTINUE);
    expect(decide(bound, get(url('/img/cat.jpg', token), { clientIp: '::ffff:198.51.100.4' })).verdict).toEqual(CONTINUE);
    expect(decide(bound, get(url('/img/cat.jpg', token), { clientIp: '198.51.100.5' })).verdict).toEqual(refused('token-invalid'));
    // A token signed without the address no longer passes, and passes again once the setting is off.
    const unbound = md5Token(KEY, '/img/cat.jpg', EXPIRES);
    expect(decide(bound, get(url('/img/cat.jpg', unbound), { clientIp: '198.51.100.4' })).verdict).toEqual(refused('token-invalid'));
    expect(decide({ ...bound, ZoneSecurityIncludeHashRemoteIP: false }, get(url('/img/cat.jpg', unbound))).verdict).toEqual(CONTINUE);
  });
});

describe('advanced tokens (SHA-256)', () => {
  const zone = secured();

  it('sign the path, the expiry and every other parameter, sorted', () => {
    const params = { width: '200', a: 'x y' };
    const token = sha256Token(KEY, '/img/cat.jpg', EXPIRES, params);
    const ok = `/img/cat.jpg?width=200&token=${token}&a=x%20y&expires=${EXPIRES}`;
    const { verdict, effects } = decide(zone, get(ok));
    expect(verdict).toEqual(CONTINUE);
    // The token's own parameters never reach the cache key or the origin; the file's do.
    expect(effects.rewrittenQuery).toBe('width=200&a=x%20y');
    expect(decide(zone, get(`${ok}&b=1`)).verdict).toEqual(refused('token-invalid'));
    expect(decide(zone, get(ok.replace('width=200', 'width=300'))).verdict).toEqual(refused('token-invalid'));
  });

  it('token_path: a directory token opens every file under the path, and nothing outside it', () => {
    const token = sha256Token(KEY, '/videos/stream1/', EXPIRES, { token_path: '/videos/stream1/' });
    const q = `?token=${token}&token_path=%2Fvideos%2Fstream1%2F&expires=${EXPIRES}`;
    expect(decide(zone, get(`/videos/stream1/playlist.m3u8${q}`)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`/videos/stream1/seg/1.ts${q}`)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`/videos/stream2/playlist.m3u8${q}`)).verdict).toEqual(refused('token-path-mismatch'));
    // token_path is signed: changing it breaks the token.
    expect(decide(zone, get(`/videos/stream2/a.ts${q.replace('stream1', 'stream2')}`)).verdict).toEqual(refused('token-invalid'));
  });

  it('the path form carries the token in the first path segment, and the file path follows it', () => {
    const token = sha256Token(KEY, '/videos/', EXPIRES, { token_path: '/videos/' });
    const { verdict, effects } = decide(zone, get(`/bcdn_token=${token}&expires=${EXPIRES}&token_path=%2Fvideos%2F/videos/a/playlist.m3u8`));
    expect(verdict).toEqual(CONTINUE);
    expect(effects.rewrittenPath).toBe('/videos/a/playlist.m3u8');
    expect(decide(zone, get(`/bcdn_token=${token}&expires=${EXPIRES}&token_path=%2Fvideos%2F/other/a.ts`)).verdict).toEqual(refused('token-path-mismatch'));
  });

  it('with ZoneSecurityIncludeHashRemoteIP, bind the client address (between expiry and parameters)', () => {
    const bound = secured({ ZoneSecurityIncludeHashRemoteIP: true });
    const token = sha256Token(KEY, '/a.mp4', EXPIRES, { limit: '100' }, '192.0.2.33');
    const u = `/a.mp4?token=${token}&limit=100&expires=${EXPIRES}`;
    expect(decide(bound, get(u, { clientIp: '192.0.2.33' })).verdict).toEqual(CONTINUE);
    expect(decide(bound, get(u, { clientIp: '192.0.2.34' })).verdict).toEqual(refused('token-invalid'));
  });

  it('a signed limit caps the download speed', () => {
    const token = sha256Token(KEY, '/a.mp4', EXPIRES, { limit: '250' });
    expect(decide(zone, get(`/a.mp4?token=${token}&limit=250&expires=${EXPIRES}`)).effects.rateLimitKBps).toBe(250);
  });
});

describe('HMAC tokens (HS256)', () => {
  const zone = secured();

  it('serve the signed URL until it expires, and refuse changes', () => {
    const token = hmacToken(KEY, '/docs/report.pdf', EXPIRES, { v: '3' });
    const u = `/docs/report.pdf?v=3&token=${token}&expires=${EXPIRES}`;
    expect(decide(zone, get(u)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(u)).effects.rewrittenQuery).toBe('v=3');
    expect(decide(zone, get(u), {}, new Date(EXPIRES * 1000 + 1)).verdict).toEqual(refused('token-expired'));
    expect(decide(zone, get(u.replace('v=3', 'v=4'))).verdict).toEqual(refused('token-invalid'));
    expect(decide(zone, get(u.replace('/docs/', '/doc/'))).verdict).toEqual(refused('token-invalid'));
    expect(decide(secured({ ZoneSecurityKey: 'rotated' }), get(u)).verdict).toEqual(refused('token-invalid'));
  });

  it('token_ignore_params: other parameters may be added freely', () => {
    const token = hmacToken(KEY, '/a.jpg', EXPIRES, { token_ignore_params: 'true' });
    const u = `/a.jpg?token=${token}&token_ignore_params=true&expires=${EXPIRES}`;
    expect(decide(zone, get(u)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`${u}&w=1&h=2`)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`${u}&w=1`)).effects.rewrittenQuery).toBe('w=1');
  });

  it('a directory token in the path form serves segments under its token_path', () => {
    const token = hmacToken(KEY, '/live/', EXPIRES, { token_path: '/live/' });
    const seg = (file: string) => `/bcdn_token=${token}&token_path=%2Flive%2F&expires=${EXPIRES}${file}`;
    expect(decide(zone, get(seg('/live/index.m3u8'))).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(seg('/live/720p/00001.ts'))).effects.rewrittenPath).toBe('/live/720p/00001.ts');
    expect(decide(zone, get(seg('/vod/00001.ts'))).verdict).toEqual(refused('token-path-mismatch'));
  });

  it('an IP-bound token (HS256-1-) serves its client only; an IPv6 one its /64', () => {
    const v4 = hmacToken(KEY, '/a.jpg', EXPIRES, {}, '192.0.2.10');
    expect(decide(zone, get(`/a.jpg?token=${v4}&expires=${EXPIRES}`, { clientIp: '192.0.2.10' })).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`/a.jpg?token=${v4}&expires=${EXPIRES}`, { clientIp: '192.0.2.11' })).verdict).toEqual(refused('token-invalid'));
    const v6 = hmacToken(KEY, '/a.jpg', EXPIRES, {}, '2001:db8:1:2::10');
    expect(decide(zone, get(`/a.jpg?token=${v6}&expires=${EXPIRES}`, { clientIp: '2001:db8:1:2:ffff::1' })).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`/a.jpg?token=${v6}&expires=${EXPIRES}`, { clientIp: '2001:db8:1:3::10' })).verdict).toEqual(refused('token-invalid'));
  });

  it('with ZoneSecurityIncludeHashRemoteIP, a token signed without the address is refused', () => {
    const bound = secured({ ZoneSecurityIncludeHashRemoteIP: true });
    const plain = hmacToken(KEY, '/a.jpg', EXPIRES);
    expect(decide(bound, get(`/a.jpg?token=${plain}&expires=${EXPIRES}`)).verdict).toEqual(refused('token-invalid'));
    const ipBound = hmacToken(KEY, '/a.jpg', EXPIRES, {}, '203.0.113.9');
    expect(decide(bound, get(`/a.jpg?token=${ipBound}&expires=${EXPIRES}`)).verdict).toEqual(CONTINUE);
    expect(decide({ ...bound, ZoneSecurityIncludeHashRemoteIP: false }, get(`/a.jpg?token=${plain}&expires=${EXPIRES}`)).verdict).toEqual(CONTINUE);
  });

  it('a signed limit caps the download speed', () => {
    const token = hmacToken(KEY, '/big.bin', EXPIRES, { limit: '64' });
    expect(decide(zone, get(`/big.bin?token=${token}${enc({ limit: '64' })}&expires=${EXPIRES}`)).effects.rateLimitKBps).toBe(64);
  });

  it('token_countries is signed but not enforced (no location database)', () => {
    const token = hmacToken(KEY, '/a.jpg', EXPIRES, { token_countries: 'CA,US' });
    expect(decide(zone, get(`/a.jpg?token=${token}&token_countries=CA%2CUS&expires=${EXPIRES}`)).verdict).toEqual(CONTINUE);
  });
});

describe('edge rules and token authentication', () => {
  it('DisableTokenAuthentication opens the paths its rule matches', () => {
    const zone = secured({ EdgeRules: [rule(action(8), [trigger(0, ['/public/*'])])] });
    expect(decide(zone, get('/public/a.jpg')).verdict).toEqual(CONTINUE);
    expect(decide(zone, get('/private/a.jpg')).verdict).toEqual(refused('token-missing'));
  });

  it('EnableTokenAuthentication protects the paths its rule matches on a zone without it', () => {
    const zone = zoneWith({ EdgeRules: [rule(action(9), [trigger(0, ['/private/*'])])] });
    expect(decide(zone, get('/private/a.jpg')).verdict).toEqual(refused('token-missing'));
    expect(decide(zone, get('/public/a.jpg')).verdict).toEqual(CONTINUE);
    const token = md5Token(KEY, '/private/a.jpg', EXPIRES);
    expect(decide(zone, get(`/private/a.jpg?token=${token}&expires=${EXPIRES}`)).verdict).toEqual(CONTINUE);
  });

  it('a disabled rule changes nothing', () => {
    const zone = secured({ EdgeRules: [always(action(8), { Enabled: false })] });
    expect(decide(zone, get('/a.jpg')).verdict).toEqual(refused('token-missing'));
  });
});

describe('paths the signers write differently', () => {
  const zone = secured();

  it('an escaped path passes whether the signer signed it escaped or decoded', () => {
    const raw = md5Token(KEY, '/my%20file.jpg', EXPIRES);
    const decoded = hmacToken(KEY, '/my file.jpg', EXPIRES);
    expect(decide(zone, get(`/my%20file.jpg?token=${raw}&expires=${EXPIRES}`)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`/my%20file.jpg?token=${decoded}&expires=${EXPIRES}`)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`/my%20fil.jpg?token=${decoded}&expires=${EXPIRES}`)).verdict).toEqual(refused('token-invalid'));
  });

  it('a directory token does not open files outside its directory through dot segments', () => {
    const token = hmacToken(KEY, '/videos/', EXPIRES, { token_path: '/videos/' });
    const q = `?token=${token}&token_path=%2Fvideos%2F&expires=${EXPIRES}`;
    expect(decide(zone, get(`/videos/a.ts${q}`)).verdict).toEqual(CONTINUE);
    expect(decide(zone, get(`/videos/../secret.txt${q}`)).verdict).toEqual(refused('token-path-mismatch'));
    expect(decide(zone, get(`/videos/%2e%2e/secret.txt${q}`)).verdict).toEqual(refused('token-path-mismatch'));
  });
});

describe('the README’s worked example', () => {
  it('computes the tokens the README shows, and the edge accepts them', () => {
    const key = '0d9b6a1e-example-key';
    const expires = 1900000000;
    expect(md5Token(key, '/videos/intro.mp4', expires)).toBe('j2GphJ4VByMRoreK3NwmnA');
    expect(hmacToken(key, '/videos/', expires, { token_path: '/videos/' })).toBe('HS256-iG2WIEICyoL2RnHM7F3qHY0ck5kz1fssTRfd3rRMU3E');
    const zone = secured({ ZoneSecurityKey: key });
    expect(decide(zone, get(`/videos/intro.mp4?token=j2GphJ4VByMRoreK3NwmnA&expires=${expires}`)).verdict).toEqual(CONTINUE);
    const dir = `/bcdn_token=HS256-iG2WIEICyoL2RnHM7F3qHY0ck5kz1fssTRfd3rRMU3E&token_path=%2Fvideos%2F&expires=${expires}/videos/intro.mp4`;
    expect(decide(zone, get(dir)).verdict).toEqual(CONTINUE);
  });
});

describe('a refused request keeps its refusal', () => {
  it('a rule’s SetStatusCode or ForceDownload does not change the 403 of a missing token; its headers still go out', () => {
    const zone = secured({ EdgeRules: [always(action(14, '200'), { ExtraActions: [action(7), action(5, 'X-Zone', 'z1')] })] });
    const { verdict, status, headers } = answerFor(zone, get('/a.jpg'), { status: 403, headers: { 'content-type': 'text/html' } });
    expect(verdict).toEqual(refused('token-missing'));
    expect(status).toBe(403);
    expect(headers['content-disposition']).toBeUndefined();
    expect(headers['x-zone']).toBe('z1');
  });
});
