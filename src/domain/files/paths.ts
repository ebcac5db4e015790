/**
 * Paths inside a storage zone, as the file API and S3 name them, checked once at the edge of the
 * domain: whatever passes is a plain relative path that can never leave its zone.
 *
 * Rules (the reference sets none beyond "a path"; these follow S3's key limit and common file
 * system limits): every segment is 1 to 255 bytes of UTF-8, the whole path at most 1,024 bytes;
 * no `.` or `..` segment, no empty segment, no backslash, no control character (NUL included),
 * and no Unicode noncharacter. Names are case-sensitive.
 */
import { errors } from '../errors.js';

export const MAX_SEGMENT_BYTES = 255;
export const MAX_PATH_BYTES = 1024;

// Lone surrogates too: they have no UTF-8 form, so such a name could never be stored as sent.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
const FORBIDDEN = /[\u0000-\u001f\u007f\\]|\p{Noncharacter_Code_Point}|\p{Surrogate}/u;

export interface ZonePath {
  /** `images/a.jpg`, or `images/` for a directory, or `` for the zone's root. */
  path: string;
  isDirectory: boolean;
}

/**
 * Checks a path given as decoded segments (the file API's URL after the zone name, already
 * percent-decoded one segment at a time, so an encoded `/` stays inside its segment and is refused).
 */
export function zonePath(segments: readonly string[], isDirectory: boolean, field = 'path'): ZonePath {
  // A directory's path ends in `/`, which leaves one empty last segment; any other empty one is refused.
  const parts = isDirectory && segments.at(-1) === '' ? segments.slice(0, -1) : [...segments];
  for (const part of parts) checkSegment(part, field);
  const path = parts.join('/') + (isDirectory && parts.length > 0 ? '/' : '');
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) throw errors.validation(field, `The path is longer than ${MAX_PATH_BYTES} bytes.`, 'storage.path_too_long');
  return { path, isDirectory: isDirectory || parts.length === 0 };
}

/** Checks an S3-style key (`a/b/c.txt`, `a/b/` for a directory marker): the same rules, `/` as separator. */
export function keyPath(key: string, field = 'key'): ZonePath {
  if (key === '' || key.startsWith('/')) throw errors.validation(field, 'The key must not be empty or start with "/".', 'storage.path_invalid');
  const isDirectory = key.endsWith('/');
  const segments = (isDirectory ? key.slice(0, -1) : key).split('/');
  if (segments.some((s) => s === '')) throw errors.validation(field, 'The key must not contain an empty segment ("//").', 'storage.path_invalid');
  return zonePath(segments, isDirectory, field);
}

function checkSegment(segment: string, field: string): void {
  if (segment === '') throw errors.validation(field, 'The path must not contain an empty segment ("//").', 'storage.path_invalid');
  if (segment === '.' || segment === '..') throw errors.validation(field, 'The path must not contain "." or ".." segments.', 'storage.path_invalid');
  if (segment.includes('/')) throw errors.validation(field, 'A path segment must not contain an encoded "/".', 'storage.path_invalid');
  if (FORBIDDEN.test(segment)) {
    throw errors.validation(field, 'The path must not contain backslashes, control characters or Unicode noncharacters.', 'storage.path_invalid');
  }
  if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
    throw errors.validation(field, `A file or directory name is longer than ${MAX_SEGMENT_BYTES} bytes.`, 'storage.name_too_long');
  }
}

/** `a/b/c.txt` → `a/b/`; `a/b/` → `a/`; `a/` → ``. */
export function parentOf(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const cut = trimmed.lastIndexOf('/');
  return cut < 0 ? '' : trimmed.slice(0, cut + 1);
}

/** `a/b/c.txt` → [`a/`, `a/b/`]: the directories a file implies. */
export function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let parent = parentOf(path); parent !== ''; parent = parentOf(parent)) out.unshift(parent);
  return out;
}

/** The last segment: `a/b/c.txt` → `c.txt`, `a/b/` → `b`. */
export function nameOf(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
