/**
 * The edge's one spelling of a request path (request-path.ts), the header values rules make
 * (header-value.ts), and what a directory token covers, case by case; hostile-requests.test.ts
 * and test/fuzz/edge.fuzz.test.ts drive the same through a real edge.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { headerSafe, isHeaderName } from '../../../src/domain/edge/policy/header-value.js';
import { verifyToken } from '../../../src/domain/edge/policy/token/verify.js';
import { normalisedPath } from '../../../src/domain/edge/request-path.js';
import type { EdgeRequest } from '../../../src/domain/edge/types.js';

describe('normalisedPath', () => {
  it.each([
    ['/', '/'],
    ['/a/b.txt', '/a/b.txt'],
    ['/.well-known/acme-challenge/x', '/.well-known/acme-challenge/x'],
    ['//127.0.0.1:8080/x', '/127.0.0.1:8080/x'],
    ['/\\127.0.0.1:8080/x', '/127.0.0.1:8080/x'],
    ['/a//b///c', '/a/b/c'],
    ['/a/', '/a/'],
    ['/a//', '/a/'],
    ['/a/./b', '/a/b'],
    ['/a/.', '/a/'],
    ['/a/b/..', '/a/'],
    ['/a/b/../c', '/a/c'],
    ['/../../etc/passwd', '/etc/passwd'],
    ['/public/..\\secret.txt', '/secret.txt'],
    ['/public/x/..\\..\\secret.txt', '/secret.txt'],
    ['/public/%2e%2e/secret.txt', '/secret.txt'],
    ['/public/%2E./secret.txt', '/secret.txt'],
    ['/a%2Fb/c', '/a%2Fb/c'],
    ['/a%20b/%7Ec', '/a%20b/%7Ec'],
    ['/a..b/.c/c.', '/a..b/.c/c.'],
  ])('%s → %s', (path, expected) => {
    expect(normalisedPath(path)).toBe(expected);
  });

  it.each(['/public/..%2fsecret.txt', '/public/..%5Csecret.txt', '/public/%2e%2e%2fsecret.txt', '/a/x%2F.%2Fy', '/public%2F..%2Fsecret.txt'])(
    'refuses %s (an escaped separator beside a dot segment)',
    (path) => {
      expect(normalisedPath(path)).toBeUndefined();
    },
  );
});

describe('headerSafe', () => {
  it('keeps visible ASCII, spaces and escapes; percent-encodes the rest as UTF-8', () => {
    expect(headerSafe('plain value %41')).toBe('plain value %41');
    expect(headerSafe('a\r\nSet-Cookie: x=1')).toBe('a%0D%0ASet-Cookie: x=1');
    expect(headerSafe('\u0000\t\u007f')).toBe('%00%09%7F');
    expect(headerSafe('é€😀')).toBe('%C3%A9%E2%82%AC%F0%9F%98%80');
    expect(headerSafe('\ud800x')).toBe('%EF%BF%BDx');
  });

  it('knows a header name from anything else', () => {
    expect(isHeaderName('x-echo')).toBe(true);
    expect(isHeaderName('x echo')).toBe(false);
    expect(isHeaderName('x:echo')).toBe(false);
    expect(isHeaderName('')).toBe(false);
  });
});

describe('a directory token', () => {
  const KEY = 'unit-key';
  const expires = 4_000_000_000;
  const token = `HS256-${createHmac('sha256', KEY).update('/public/').update(String(expires)).update('token_path=/public/').digest('base64url')}`;
  const verify = (path: string) =>
    verifyToken(
      {
        method: 'GET',
        scheme: 'http',
        host: 'h',
        path,
        query: `token=${token}&token_path=%2Fpublic%2F&expires=${expires}`,
        headers: {},
        clientIp: '192.0.2.1',
      } as EdgeRequest,
      undefined,
      { key: KEY, includeClientIp: false },
      new Date(),
    );

  it('covers the paths under its directory, as sent or decoded', () => {
    expect(verify('/public/a.txt').ok).toBe(true);
    expect(verify('/public/a%2Fb.txt').ok).toBe(true);
    expect(verify('/%70ublic/a.txt').ok).toBe(true);
  });

  it('covers nothing reached through an escaped separator or a dot segment', () => {
    expect(verify('/public%2Fa.txt')).toEqual({ ok: false, reason: 'token-path-mismatch' });
    expect(verify('/public%5Ca.txt')).toEqual({ ok: false, reason: 'token-path-mismatch' });
    expect(verify('/public/..%5Csecret.txt')).toEqual({ ok: false, reason: 'token-path-mismatch' });
    expect(verify('/public/./a.txt')).toEqual({ ok: false, reason: 'token-path-mismatch' });
  });
});
