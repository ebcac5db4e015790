/**
 * Signs a directory token the way verify.ts checks it, for the addresses edgeplane gives out
 * itself (the embed page's player): the HMAC-SHA256 form, `HS256-` + base64url of
 * HMAC(key, tokenPath + expires + `token_path=<tokenPath>` [+ the client address as text, when the
 * zone binds tokens to it]), carried in the path form (locate.ts) so that every address a player
 * builds relative to a playlist carries it too.
 */
import { createHmac } from 'node:crypto';
import { canonicalIpText } from '../../../../security/ip-list.js';
import type { TokenSettings } from './verify.js';

export interface DirectoryGrant {
  /** The directory every signed path starts with (`/{guid}/`): begins and ends with `/`. */
  tokenPath: string;
  /** Unix seconds; the edge refuses the token from that second on. */
  expires: number;
  /** The address the edge will see, when the zone binds tokens to it (ZoneSecurityIncludeHashRemoteIP). */
  clientIp?: string | undefined;
}

/** The first path segment of a path-form directory token: `/bcdn_token=…&token_path=%2F…%2F&expires=…`, to put before the file's path. */
export function directoryTokenSegment(settings: TokenSettings, grant: DirectoryGrant): string {
  if (!grant.tokenPath.startsWith('/') || !grant.tokenPath.endsWith('/'))
    throw new Error(`a directory token's path begins and ends with /: ${grant.tokenPath}`);
  const expires = String(Math.floor(grant.expires));
  const hmac = createHmac('sha256', settings.key).update(grant.tokenPath).update(expires).update(`token_path=${grant.tokenPath}`);
  if (settings.includeClientIp) hmac.update(canonicalIpText(grant.clientIp ?? ''));
  const token = `HS256-${hmac.digest('base64url')}`;
  return `/bcdn_token=${token}&token_path=${encodeURIComponent(grant.tokenPath)}&expires=${expires}`;
}
