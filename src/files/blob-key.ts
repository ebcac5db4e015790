/**
 * The keys every backend accepts. The alphabet is what a path segment and an S3 key can both hold
 * without escaping, and it leaves characters (`@` among them) for the local layout's own names, so
 * no key can ever name one of them or a place outside the backend's directory.
 */
import { InvalidBlobKeyError } from './types.js';

const SEGMENT = /^[A-Za-z0-9._-]+$/;
/** Most file systems refuse longer names. */
const MAX_SEGMENT_LENGTH = 255;
/** S3's limit for a whole key, prefix included; leaves room for a URL's prefix. */
const MAX_KEY_LENGTH = 900;

function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'empty segment';
  if (segment === '.' || segment === '..') return `"${segment}" segment`;
  if (segment.length > MAX_SEGMENT_LENGTH) return `segment longer than ${MAX_SEGMENT_LENGTH} characters`;
  if (!SEGMENT.test(segment)) return 'segments hold only A-Z a-z 0-9 . _ -';
  return undefined;
}

/** The key's segments (`zone7/abc` → `['zone7', 'abc']`), or InvalidBlobKeyError. */
export function blobKeySegments(key: string): string[] {
  if (key.length > MAX_KEY_LENGTH) throw new InvalidBlobKeyError(key, `longer than ${MAX_KEY_LENGTH} characters`);
  const segments = key.split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) throw new InvalidBlobKeyError(key, problem);
  }
  return segments;
}

export interface BlobPrefix {
  /** The segments the prefix names whole (`a/b/c` → `['a', 'b']`): listing starts below them. */
  directories: string[];
  /** What a key's next segment must start with (`a/b/c` → `c`; empty when the prefix ends in `/`). */
  partial: string;
}

/** A list prefix: whole segments follow the key rules; the partial last one may be any start of a segment (or empty). */
export function blobPrefix(prefix: string): BlobPrefix {
  const segments = prefix.split('/');
  const partial = segments.pop()!;
  if (prefix.length > MAX_KEY_LENGTH) throw new InvalidBlobKeyError(prefix, `longer than ${MAX_KEY_LENGTH} characters`);
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) throw new InvalidBlobKeyError(prefix, problem);
  }
  if (partial !== '' && !SEGMENT.test(partial)) throw new InvalidBlobKeyError(prefix, 'segments hold only A-Z a-z 0-9 . _ -');
  return { directories: segments, partial };
}

/** Whether `key` is one a backend could have written (objects someone else put in a bucket are not). */
export function isBlobKey(key: string): boolean {
  try {
    blobKeySegments(key);
    return true;
  } catch {
    return false;
  }
}
