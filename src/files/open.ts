/**
 * The backend a URL names: `file:<dir>` or `s3://<bucket>[/<prefix>]?endpoint=…&region=…&forcePathStyle=true`.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blobKeySegments } from './blob-key.js';
import { LocalDiskBlobStore } from './local-disk.js';
import { LazyS3BlobStore } from './lazy-s3.js';
import type { S3Location } from './s3.js';
import type { BlobStore } from './types.js';

export type BlobStoreLocation = { kind: 'file'; directory: string } | ({ kind: 's3' } & S3Location);

const ACCEPTED =
  'expected file:<directory> (absolute, or relative to the working directory; file:///<absolute path> too) ' +
  'or s3://<bucket>[/<prefix>][?endpoint=<http(s) URL>&region=<region>&forcePathStyle=true|false]';

/** AWS's rules, which S3-compatible stores share: 3 to 63 lowercase letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]+$/;
const S3_PARAMETERS = new Set(['endpoint', 'region', 'forcePathStyle']);

function problem(reason: string): Error {
  // The URL itself stays out of the message: a mistaken one may carry a secret.
  return new Error(`${reason}; ${ACCEPTED}`);
}

function fileLocation(url: string): BlobStoreLocation {
  if (url.startsWith('file://')) {
    try {
      return { kind: 'file', directory: fileURLToPath(url) };
    } catch (error) {
      throw problem(`not a local file URL (${(error as Error).message})`);
    }
  }
  const path = url.slice('file:'.length);
  if (path === '') throw problem('file: needs a directory');
  return { kind: 'file', directory: resolve(path) };
}

/** The path as written: URL parsing would resolve `a/../b` to `b` silently. */
function s3Prefix(url: string): string {
  const authorityAndPath = url.slice('s3://'.length).split(/[?#]/)[0]!;
  const slash = authorityAndPath.indexOf('/');
  // Left encoded: any escape falls outside the key alphabet and is refused.
  const prefix = slash === -1 ? '' : authorityAndPath.slice(slash).replace(/^\/|\/$/g, '');
  if (prefix === '') return '';
  try {
    blobKeySegments(prefix);
  } catch {
    throw problem('the prefix holds only A-Z a-z 0-9 . _ - in segments separated by single slashes');
  }
  return prefix;
}

function s3Location(url: string): BlobStoreLocation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw problem('not a URL');
  }
  if (parsed.username || parsed.password) throw problem('credentials do not belong in the URL (use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)');
  if (parsed.port) throw problem('a port belongs in the endpoint parameter');
  if (parsed.hash) throw problem('no #fragment');
  if (!BUCKET.test(parsed.hostname)) throw problem('the bucket is 3 to 63 lowercase letters, digits, dots and hyphens');
  const unknown = [...parsed.searchParams.keys()].filter((name) => !S3_PARAMETERS.has(name));
  if (unknown.length > 0) throw problem(`unknown parameter ${unknown.join(', ')}`);

  const location: BlobStoreLocation = { kind: 's3', bucket: parsed.hostname, prefix: s3Prefix(url), forcePathStyle: false };
  const endpoint = parsed.searchParams.get('endpoint');
  if (endpoint !== null) {
    if (!URL.canParse(endpoint) || !['http:', 'https:'].includes(new URL(endpoint).protocol)) throw problem('the endpoint is an http(s) URL');
    location.endpoint = endpoint;
  }
  const region = parsed.searchParams.get('region');
  if (region !== null) {
    if (!REGION.test(region)) throw problem('the region is lowercase letters, digits and hyphens');
    location.region = region;
  }
  const forcePathStyle = parsed.searchParams.get('forcePathStyle');
  if (forcePathStyle !== null) {
    if (forcePathStyle !== 'true' && forcePathStyle !== 'false') throw problem('forcePathStyle is true or false');
    location.forcePathStyle = forcePathStyle === 'true';
  }
  return location;
}

/** Where a URL says blobs live; throws an Error that explains the accepted forms. */
export function parseBlobStoreUrl(url: string): BlobStoreLocation {
  if (url.startsWith('file:')) return fileLocation(url);
  if (url.startsWith('s3://')) return s3Location(url);
  throw problem('unknown kind of location');
}

export function openBlobStore(url: string): BlobStore {
  const location = parseBlobStoreUrl(url);
  if (location.kind === 'file') return new LocalDiskBlobStore(location.directory);
  const { kind: _, ...s3 } = location;
  return new LazyS3BlobStore(s3);
}
