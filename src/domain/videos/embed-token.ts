/**
 * The embed token a library asks for when `PlayerTokenAuthenticationEnabled`: the platform's, so
 * that sites signing for it sign for edgeplane unchanged. `token` is the lowercase hex SHA-256 of
 * the pull zone's ZoneSecurityKey, the video's GUID and `expires` (Unix seconds) written one after
 * the other; the page opens until that second.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export type EmbedTokenProblem = 'token-missing' | 'token-invalid' | 'token-expired';

/** The token of `guid` until `expires`, as a site embedding the video computes it. */
export function embedToken(key: string, guid: string, expires: number | string): string {
  return createHash('sha256').update(`${key}${guid}${expires}`).digest('hex');
}

/** Why `token` and `expires` do not open `guid` at `now`; undefined when they do. Compared in constant time. */
export function embedTokenProblem(key: string, guid: string, token: string | undefined, expires: string | undefined, now: Date): EmbedTokenProblem | undefined {
  if (!token || !expires) return 'token-missing';
  if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-fA-F]{64}$/.test(token) || key === '') return 'token-invalid';
  const expected = Buffer.from(embedToken(key, guid, expires), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(token, 'hex'))) return 'token-invalid';
  return now.getTime() >= Number(expires) * 1000 ? 'token-expired' : undefined;
}
