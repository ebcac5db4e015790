/**
 * Listings: ListBuckets (the zone itself), ListObjectsV2 and ListObjects (v1), ListObjectVersions.
 * Keys come from the file service in byte order, as S3 lists them, a page at a time (list-page.ts).
 */
import { etagOf } from '../../domain/files/etag.js';
import type { FileRecord } from '../../store/types.js';
import { prefixEnd } from '../../store/file-paths.js';
import { isoTime, owner } from './answer-parts.js';
import { S3Error, s3Errors } from './errors.js';
import { type Listed, lastKey, listingEnd, listingQuery, listPage, type Page, resumesPast } from './list-page.js';
import { encoder } from './query-params.js';
import { sendXml } from './respond.js';
import type { S3Call } from './types.js';
import { element, rootElement } from './xml.js';

export function listBuckets(call: Pick<S3Call, 'res' | 'zone' | 'auth'>): void {
  sendXml(
    call.res,
    200,
    rootElement('ListAllMyBucketsResult', [
      owner(call.zone),
      element('Buckets', [element('Bucket', [element('Name', call.zone.zoneName), element('CreationDate', isoTime(call.auth.modifiedAt))])]),
    ]),
  );
}

const pathOf = (file: FileRecord) => file.path;

function objectPage(call: S3Call, prefix: string, delimiter: string, after: string, maxKeys: number): Promise<Page<FileRecord, string>> {
  const source: Listed<FileRecord, string> = {
    fetch: (cursor, limit) => call.deps.files.listInKeyOrder(call.zone, prefix, cursor === '' ? undefined : cursor, limit),
    keyOf: pathOf,
    cursorOf: pathOf,
    past: prefixEnd,
  };
  return listPage(source, prefix, delimiter, after, maxKeys);
}

/** Where a page after a v1 `marker` or a `key-marker` starts: past the key, or past all under a common prefix. */
const afterMarker = (marker: string, prefix: string, delimiter: string) => (resumesPast(marker, prefix, delimiter) ? prefixEnd(marker) : marker);

/** A listed object (`Contents`) or its one version (`Version`, with `versionParts`). */
function objectElement(name: string, file: FileRecord, encode: (s: string) => string, versionParts: string[], withOwner: string | undefined): string {
  return element(name, [
    element('Key', encode(file.path)),
    ...versionParts,
    element('LastModified', isoTime(file.changedAt)),
    element('ETag', etagOf(file)),
    element('Size', file.size),
    element('StorageClass', 'STANDARD'),
    withOwner ?? '',
  ]);
}

/** Answers an object listing: the bucket and prefix, then `middle` (markers, counts, truncation), the entries and common prefixes. */
function sendObjectListing(
  call: S3Call,
  root: string,
  prefix: string,
  encode: (s: string) => string,
  middle: string[],
  page: Page<FileRecord, string>,
  entry: (file: FileRecord) => string,
): void {
  sendXml(
    call.res,
    200,
    rootElement(root, [
      element('Name', call.zone.zoneName),
      element('Prefix', encode(prefix)),
      ...middle,
      ...listingEnd(call, encode, page.items.map(entry), page.prefixes),
    ]),
  );
}

export async function listObjectsV2(call: S3Call): Promise<void> {
  const { prefix, delimiter, max: maxKeys } = listingQuery(call, 'max-keys');
  const token = call.query.get('continuation-token');
  const startAfter = call.query.get('start-after') ?? '';
  let after = startAfter;
  if (token !== undefined) {
    const decoded = Buffer.from(token, 'base64url').toString('utf8');
    if (!decoded.startsWith('k:'))
      throw new S3Error('InvalidArgument', 'The continuation token provided is incorrect', 400, { ArgumentName: 'continuation-token' });
    after = decoded.slice(2);
  }
  const page = await objectPage(call, prefix, delimiter, after, maxKeys);
  const encode = encoder(call.query);
  const withOwner = call.query.get('fetch-owner') === 'true' ? owner(call.zone) : undefined;
  const middle = [
    element('KeyCount', page.items.length + page.prefixes.length),
    element('MaxKeys', maxKeys),
    delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
    element('IsTruncated', page.truncated),
    token === undefined ? '' : element('ContinuationToken', token),
    page.truncated && page.next !== undefined ? element('NextContinuationToken', Buffer.from(`k:${page.next}`).toString('base64url')) : '',
    startAfter === '' ? '' : element('StartAfter', encode(startAfter)),
  ];
  sendObjectListing(call, 'ListBucketResult', prefix, encode, middle, page, (f) => objectElement('Contents', f, encode, [], withOwner));
}

export async function listObjectsV1(call: S3Call): Promise<void> {
  const { prefix, delimiter, max: maxKeys } = listingQuery(call, 'max-keys');
  const marker = call.query.get('marker') ?? '';
  const page = await objectPage(call, prefix, delimiter, afterMarker(marker, prefix, delimiter), maxKeys);
  const encode = encoder(call.query);
  const withOwner = owner(call.zone);
  const middle = [
    element('Marker', encode(marker)),
    page.truncated && delimiter !== '' && page.last !== undefined ? element('NextMarker', encode(lastKey(page, pathOf)!)) : '',
    element('MaxKeys', maxKeys),
    delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
    element('IsTruncated', page.truncated),
  ];
  sendObjectListing(call, 'ListBucketResult', prefix, encode, middle, page, (f) => objectElement('Contents', f, encode, [], withOwner));
}

/** The parts of a `Version` that say it is the object's one version. */
const ONLY_VERSION = [element('VersionId', 'null'), element('IsLatest', true)];

/** ListObjectVersions: without versioning, every object is its one version, `null`, the latest. */
export async function listObjectVersions(call: S3Call): Promise<void> {
  const { prefix, delimiter, max: maxKeys } = listingQuery(call, 'max-keys');
  const keyMarker = call.query.get('key-marker') ?? '';
  const versionIdMarker = call.query.get('version-id-marker') ?? '';
  if (versionIdMarker !== '' && keyMarker === '')
    throw s3Errors.invalidArgument('A version-id marker cannot be specified without a key marker.', 'version-id-marker', versionIdMarker);
  const page = await objectPage(call, prefix, delimiter, afterMarker(keyMarker, prefix, delimiter), maxKeys);
  const encode = encoder(call.query);
  const last = page.truncated ? page.last : undefined;
  const withOwner = owner(call.zone);
  const middle = [
    element('KeyMarker', encode(keyMarker)),
    element('VersionIdMarker', versionIdMarker),
    last === undefined ? '' : element('NextKeyMarker', encode(lastKey(page, pathOf)!)),
    last !== undefined && 'item' in last ? element('NextVersionIdMarker', 'null') : '',
    element('MaxKeys', maxKeys),
    delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
    element('IsTruncated', page.truncated),
  ];
  sendObjectListing(call, 'ListVersionsResult', prefix, encode, middle, page, (f) => objectElement('Version', f, encode, ONLY_VERSION, withOwner));
}
