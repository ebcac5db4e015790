/**
 * Checks a request's URL token against the zone's key, accepting each form the platform's public
 * signing code has produced, told apart by the token itself:
 *
 * - `HS256-1-<sig>`: HMAC-SHA256(key, signedPath + expires + clientIpBytes + signedParameters),
 *   the token bound to the client address (4 bytes for IPv4; for IPv6 its /64, then 8 zero bytes).
 * - `HS256-<sig>`: HMAC-SHA256(key, signedPath + expires + signedParameters [+ clientIp text when
 *   the zone's ZoneSecurityIncludeHashRemoteIP is on, as signers of that generation appended it]).
 * - 43 characters (a SHA-256 digest): the older advanced token,
 *   SHA-256(key + signedPath + expires [+ clientIp] + signedParameters).
 * - 22 characters (an MD5 digest): the basic token, MD5(key + path + expires [+ clientIp]);
 *   it signs no parameters and no token_path.
 *
 * Signatures are base64url without padding. `signedPath` is `token_path` when the token carries
 * one (a directory token: the request path must then start with it), else the request path as
 * sent. `signedParameters` are the token's other query parameters (token and expires excluded),
 * decoded, sorted by name, joined as `name=value&…`; with `token_ignore_params=true` only that
 * flag and `token_path` are signed, and any other parameter may be added freely. The token is
 * valid until `expires` (Unix seconds): a request at or after that second is refused.
 * `token_countries` / `token_countries_blocked` are signed but not enforced: edgeplane has no
 * location database. An advanced token's signed `limit` caps the download speed (kB/s).
 * An escaped path is accepted signed either way (as sent, or decoded), since the platform's
 * signers differ there; a directory token never covers a path with a `.` or `..` segment, nor
 * one under its directory only through an escaped `/`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { EdgeRequest } from '../../types.js';
import { canonicalIpText, ipBytes, type ParsedIp } from '../../../../security/ip-list.js';
import { locateToken, queryWithout, TOKEN_PARAMETERS } from './locate.js';

export type TokenOutcome =
  | {
      ok: true;
      /** The file's path (different from the request's for a path-form token). */
      path: string;
      /** The query without the token's parameters. */
      query: string;
      /** A signed `limit` parameter: download speed cap in kB/s. */
      speedLimitKBps?: number;
    }
  | { ok: false; reason: 'token-missing' | 'token-invalid' | 'token-expired' | 'token-path-mismatch' | 'token-key-missing' };

export interface TokenSettings {
  key: string;
  /** ZoneSecurityIncludeHashRemoteIP. */
  includeClientIp: boolean;
}

const BASIC_ONLY: ReadonlySet<string> = new Set(['token', 'expires']);

function decodeSignature(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  return Buffer.from(text, 'base64url');
}

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** The /64 of an IPv6 address, as the signers bind it: a client keeps its token across its own subnet. */
function boundIpBytes(ip: ParsedIp): Buffer {
  const bytes = ipBytes(ip);
  if (bytes.length === 16) bytes.fill(0, 8);
  return bytes;
}

function signedParameters(parameters: [string, string][]): { data: string; tokenPath?: string; limit?: string } {
  const byName = new Map<string, string>();
  for (const [name, value] of parameters) if (!byName.has(name)) byName.set(name, value);
  const tokenPath = byName.get('token_path');
  const signed =
    byName.get('token_ignore_params') === 'true'
      ? new Map([['token_ignore_params', 'true'], ...(tokenPath !== undefined ? ([['token_path', tokenPath]] as const) : [])])
      : byName;
  const names = [...signed.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const limit = signed.get('limit');
  return {
    data: names.map((name) => `${name}=${signed.get(name)}`).join('&'),
    ...(tokenPath !== undefined ? { tokenPath } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

function decodedOrUndefined(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Whether a directory token's `token_path` covers the path (a plain prefix, as the platform
 * compares it, of the path as sent or with its escapes decoded). The path is the edge's one
 * spelling of it (request-path.ts), the very path the origin is asked for. Never covered: a path
 * that holds a `.` or `..` segment once decoded (`\` read as `/` too), and one that reaches the
 * prefix only through an escaped separator (`/public%2Fa.txt`): an origin that takes the path as
 * sent reads that as a file outside the directory.
 */
function underTokenPath(path: string, tokenPath: string): boolean {
  const decoded = decodedOrUndefined(path);
  if (decoded === undefined || decoded.split(/[/\\]/).some((segment) => segment === '..' || segment === '.')) return false;
  if (path.startsWith(tokenPath)) return true;
  const separatorsKept = decodedOrUndefined(path.replace(/%(2f|5c)/gi, '%25$1'));
  return separatorsKept?.startsWith(tokenPath) === true;
}

export function verifyToken(request: EdgeRequest, clientIp: ParsedIp | undefined, settings: TokenSettings, now: Date): TokenOutcome {
  if (!settings.key) return { ok: false, reason: 'token-key-missing' };
  const located = locateToken(request);
  if (!located) return { ok: false, reason: 'token-missing' };
  if (!/^\d{1,12}$/.test(located.expires)) return { ok: false, reason: 'token-invalid' };
  const ipText = canonicalIpText(request.clientIp);
  const { token, expires, path } = located;

  let basic = false;
  let params: ReturnType<typeof signedParameters> | undefined;
  let check: (signedPath: string) => boolean;
  if (token.startsWith('HS256-')) {
    const signed = signedParameters(located.parameters);
    params = signed;
    const ipBound = token.startsWith('HS256-1-');
    const signature = decodeSignature(token.slice(ipBound ? 8 : 6));
    if (ipBound && !clientIp) return { ok: false, reason: 'token-invalid' };
    check = (signedPath) => {
      const hmac = createHmac('sha256', settings.key).update(signedPath).update(expires);
      if (ipBound && clientIp) hmac.update(boundIpBytes(clientIp));
      hmac.update(signed.data);
      if (!ipBound && settings.includeClientIp) hmac.update(ipText);
      return signature !== undefined && sameBytes(signature, hmac.digest());
    };
  } else {
    const signature = decodeSignature(token);
    const ip = settings.includeClientIp ? ipText : '';
    if (signature?.length === 16) {
      basic = true;
      check = (signedPath) => sameBytes(signature, createHash('md5').update(`${settings.key}${signedPath}${expires}${ip}`).digest());
    } else if (signature?.length === 32) {
      const signed = signedParameters(located.parameters);
      params = signed;
      check = (signedPath) => sameBytes(signature, createHash('sha256').update(`${settings.key}${signedPath}${expires}${ip}${signed.data}`).digest());
    } else check = () => false;
  }
  // Signers differ on an escaped path (`/a%20b.jpg`): some sign it as sent, some decoded. Accept both.
  const signedPath = params?.tokenPath ?? path;
  const decodedPath = params?.tokenPath === undefined && path.includes('%') ? decodedOrUndefined(path) : undefined;
  const valid = check(signedPath) || (decodedPath !== undefined && decodedPath !== signedPath && check(decodedPath));
  if (!valid) return { ok: false, reason: 'token-invalid' };
  if (params?.tokenPath !== undefined && !underTokenPath(path, params.tokenPath)) return { ok: false, reason: 'token-path-mismatch' };
  if (now.getTime() >= Number(expires) * 1000) return { ok: false, reason: 'token-expired' };

  const limit = params?.limit !== undefined && /^\d+$/.test(params.limit) ? Number(params.limit) : 0;
  return {
    ok: true,
    path,
    query: located.form === 'path' ? request.query : queryWithout(request.query, basic ? BASIC_ONLY : TOKEN_PARAMETERS),
    ...(limit > 0 ? { speedLimitKBps: limit } : {}),
  };
}
