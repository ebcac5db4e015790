/**
 * The presigned authentication of resumable uploads: a browser or an app uploads a video without
 * holding the library's key, with a signature its server made for that one video until a time:
 * `AuthorizationSignature` = SHA-256 (lowercase hex) of `libraryId + ApiKey + AuthorizationExpire
 * + videoId` written one after the other as text, `AuthorizationExpire` in UNIX seconds, with the
 * `LibraryId` and `VideoId` it was made for. Every request of an upload carries them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { errors } from '../errors.js';
import type { LibraryKeys } from './library-access.js';
import type { LibraryAccess } from './types.js';

/** The four headers, as the platform's clients send them. */
export const PRESIGNED_HEADERS = ['AuthorizationSignature', 'AuthorizationExpire', 'LibraryId', 'VideoId'] as const;

export interface PresignedCredentials {
  libraryId: string | undefined;
  videoId: string | undefined;
  expire: string | undefined;
  signature: string | undefined;
}

/** What a valid signature opens: the library (as its `ApiKey` would) and the one video it names. */
export interface PresignedAccess {
  access: LibraryAccess;
  videoId: string;
}

/** The signature a library's server gives its client for `videoId` until `expire` (UNIX seconds). */
export function presignedSignature(libraryId: number, apiKey: string, expire: number, videoId: string): string {
  return createHash('sha256').update(`${libraryId}${apiKey}${expire}${videoId}`, 'utf8').digest('hex');
}

const DIGITS = /^[0-9]{1,15}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Checks the credentials at `now`: a missing, malformed, expired or wrong signature, or an unknown
 * library, is the same 401 (no one learns which libraries exist). Compared in constant time. The
 * video itself is the caller's to find: the signature only says who may upload to it.
 */
export async function authorizePresigned(keys: LibraryKeys, presented: PresignedCredentials, now: Date): Promise<PresignedAccess> {
  const { libraryId, videoId, expire, signature } = presented;
  if (!libraryId || !videoId || !expire || !signature) {
    throw errors.unauthorized('The AuthorizationSignature, AuthorizationExpire, LibraryId and VideoId headers are required.');
  }
  if (!DIGITS.test(libraryId) || !DIGITS.test(expire) || !HEX_SHA256.test(signature) || videoId.length > 64) {
    throw errors.unauthorized('The presigned upload headers are malformed.');
  }
  if (Number(expire) * 1000 <= now.getTime()) throw errors.unauthorized('The AuthorizationExpire time has passed.');
  const library = await keys.find(Number(libraryId));
  const apiKey = library?.library.ApiKey;
  if (!library || !apiKey) throw errors.unauthorized('The AuthorizationSignature is not valid.');
  const expected = Buffer.from(presignedSignature(library.libraryId, apiKey, Number(expire), videoId), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw errors.unauthorized('The AuthorizationSignature is not valid.');
  return { access: { ...library, canWrite: true }, videoId };
}
