/**
 * A presented secret (a key, a password) compared with a known one in constant time whatever their
 * lengths: both as SHA-256 digests, the known one digested once when it is learnt, so a request
 * costs one hash.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const secretDigest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether `presented` (a digest) is the known secret's; false when there is none. */
export const sameSecret = (presented: Buffer, known: Buffer | null): boolean => known !== null && timingSafeEqual(presented, known);
