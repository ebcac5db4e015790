/**
 * Listings: ListBuckets (the zone itself), ListObjectsV2 and ListObjects (v1), GetBucketLocation.
 * Keys come from the store in byte order, as S3 lists them. With a delimiter, the keys under a
 * common prefix are skipped in one step (the next page starts past the prefix), so a folder with a
 * million files costs one entry, not a million.
 */
import { prefixEnd } from '../../store/file-paths.js';
import type { FileRecord } from '../../store/types.js';
import type { S3Call } from './call.js';
import { sendXml } from './call.js';
import { S3Error, s3Errors } from './errors.js';
import { etagOf, isoTime } from './objects.js';
import { uriEncode } from './sigv4.js';
import { element, rootElement, S3_NAMESPACE } from './xml.js';

const MAX_KEYS = 1000;

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

export function owner(zone: S3Call['zone'], name = 'Owner'): string {
  return element(name, [element('ID', zone.userId), element('DisplayName', zone.zoneName)]);
}

export function bucketLocation(call: S3Call): void {
  sendXml(call.res, 200, element('LocationConstraint', call.zone.region.toLowerCase(), ` xmlns="${S3_NAMESPACE}"`));
}

function maxKeysOf(call: S3Call, name: string): number {
  const raw = call.query.get(name);
  if (raw === undefined) return MAX_KEYS;
  if (!/^\d+$/.test(raw)) throw s3Errors.invalidArgument(`Provided ${name} not an integer or within integer range`, name, raw);
  return Math.min(MAX_KEYS, Number(raw));
}

/** One page of a listing: the items and the common prefixes they were rolled up into, in key order. */
export interface Page<T, C> {
  items: T[];
  prefixes: string[];
  truncated: boolean;
  /** Where the next page starts (exclusive): past the last item, or past everything under the last common prefix. */
  next: C | undefined;
  /** The last item or common prefix listed (v1's NextMarker, ListMultipartUploads' NextKeyMarker). */
  last: { item: T } | { prefix: string } | undefined;
}

/** What is listed, in key order: objects, uploads in progress. */
export interface Listed<T, C> {
  fetch(after: C | undefined, limit: number): Promise<T[]>;
  keyOf(item: T): string;
  /** Where listing resumes after this item. */
  cursorOf(item: T): C;
  /** Where listing resumes past every key under a common prefix. */
  past(common: string): C;
}

/** Up to `max` items and common prefixes after `after`: keys holding `delimiter` after `prefix` are rolled up, each prefix once. */
export async function listPage<T, C>(source: Listed<T, C>, prefix: string, delimiter: string, after: C | undefined, max: number): Promise<Page<T, C>> {
  const items: T[] = [];
  const prefixes: string[] = [];
  let cursor = after;
  let last: Page<T, C>['last'];
  if (max === 0) return { items, prefixes, truncated: false, next: undefined, last };
  for (;;) {
    const batch = await source.fetch(cursor, Math.min(MAX_KEYS, max - items.length - prefixes.length + 1));
    if (batch.length === 0) return { items, prefixes, truncated: false, next: undefined, last };
    for (const item of batch) {
      const key = source.keyOf(item);
      const cut = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length);
      if (items.length + prefixes.length === max) return { items, prefixes, truncated: true, next: cursor, last };
      if (cut >= 0) {
        const common = key.slice(0, cut + delimiter.length);
        prefixes.push(common);
        last = { prefix: common };
        cursor = source.past(common);
        break;
      }
      items.push(item);
      last = { item };
      cursor = source.cursorOf(item);
    }
  }
}

/** A marker that is a common prefix resumes past everything under it, as S3 does. */
export const resumesPast = (marker: string, prefix: string, delimiter: string) => delimiter !== '' && marker.endsWith(delimiter) && marker.startsWith(prefix);

function objectPage(call: S3Call, prefix: string, delimiter: string, after: string, maxKeys: number): Promise<Page<FileRecord, string>> {
  const source: Listed<FileRecord, string> = {
    fetch: (cursor, limit) => call.deps.store.files.range(call.zone.zoneId, { prefix, after: cursor === '' ? undefined : cursor, limit, filesOnly: true }),
    keyOf: (file) => file.path,
    cursorOf: (file) => file.path,
    past: prefixEnd,
  };
  return listPage(source, prefix, delimiter, after, maxKeys);
}

const lastListed = (page: Page<FileRecord, string>) => (page.last === undefined ? undefined : 'item' in page.last ? page.last.item.path : page.last.prefix);

function contents(file: FileRecord, encode: (s: string) => string, withOwner: string | undefined): string {
  return element('Contents', [
    element('Key', encode(file.path)),
    element('LastModified', isoTime(file.changedAt)),
    element('ETag', etagOf(file)),
    element('Size', file.size),
    element('StorageClass', 'STANDARD'),
    withOwner ?? '',
  ]);
}

export function encoder(call: S3Call): (s: string) => string {
  const type = call.query.get('encoding-type');
  if (type === undefined) return (s) => s;
  if (type !== 'url') throw s3Errors.invalidArgument('Invalid Encoding Method specified in Request', 'encoding-type', type);
  return (s) => uriEncode(s, true);
}

export async function listObjectsV2(call: S3Call): Promise<void> {
  const prefix = call.query.get('prefix') ?? '';
  const delimiter = call.query.get('delimiter') ?? '';
  const maxKeys = maxKeysOf(call, 'max-keys');
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
  const encode = encoder(call);
  const fetchOwner = call.query.get('fetch-owner') === 'true';
  sendXml(
    call.res,
    200,
    rootElement('ListBucketResult', [
      element('Name', call.zone.zoneName),
      element('Prefix', encode(prefix)),
      element('KeyCount', page.items.length + page.prefixes.length),
      element('MaxKeys', maxKeys),
      delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
      element('IsTruncated', page.truncated),
      token === undefined ? '' : element('ContinuationToken', token),
      page.truncated && page.next !== undefined ? element('NextContinuationToken', Buffer.from(`k:${page.next}`).toString('base64url')) : '',
      startAfter === '' ? '' : element('StartAfter', encode(startAfter)),
      call.query.has('encoding-type') ? element('EncodingType', 'url') : '',
      ...page.items.map((f) => contents(f, encode, fetchOwner ? owner(call.zone) : undefined)),
      ...page.prefixes.map((p) => element('CommonPrefixes', [element('Prefix', encode(p))])),
    ]),
  );
}

export async function listObjectsV1(call: S3Call): Promise<void> {
  const prefix = call.query.get('prefix') ?? '';
  const delimiter = call.query.get('delimiter') ?? '';
  const maxKeys = maxKeysOf(call, 'max-keys');
  const marker = call.query.get('marker') ?? '';
  const after = resumesPast(marker, prefix, delimiter) ? prefixEnd(marker) : marker;
  const page = await objectPage(call, prefix, delimiter, after, maxKeys);
  const encode = encoder(call);
  sendXml(
    call.res,
    200,
    rootElement('ListBucketResult', [
      element('Name', call.zone.zoneName),
      element('Prefix', encode(prefix)),
      element('Marker', encode(marker)),
      page.truncated && delimiter !== '' && page.last !== undefined ? element('NextMarker', encode(lastListed(page)!)) : '',
      element('MaxKeys', maxKeys),
      delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
      element('IsTruncated', page.truncated),
      call.query.has('encoding-type') ? element('EncodingType', 'url') : '',
      ...page.items.map((f) => contents(f, encode, owner(call.zone))),
      ...page.prefixes.map((p) => element('CommonPrefixes', [element('Prefix', encode(p))])),
    ]),
  );
}

/** ListObjectVersions: without versioning, every object is its one version, `null`, the latest. */
export async function listObjectVersions(call: S3Call): Promise<void> {
  const prefix = call.query.get('prefix') ?? '';
  const delimiter = call.query.get('delimiter') ?? '';
  const maxKeys = maxKeysOf(call, 'max-keys');
  const keyMarker = call.query.get('key-marker') ?? '';
  const versionIdMarker = call.query.get('version-id-marker') ?? '';
  if (versionIdMarker !== '' && keyMarker === '')
    throw s3Errors.invalidArgument('A version-id marker cannot be specified without a key marker.', 'version-id-marker', versionIdMarker);
  const after = resumesPast(keyMarker, prefix, delimiter) ? prefixEnd(keyMarker) : keyMarker;
  const page = await objectPage(call, prefix, delimiter, after, maxKeys);
  const encode = encoder(call);
  const last = page.truncated ? page.last : undefined;
  sendXml(
    call.res,
    200,
    rootElement('ListVersionsResult', [
      element('Name', call.zone.zoneName),
      element('Prefix', encode(prefix)),
      element('KeyMarker', encode(keyMarker)),
      element('VersionIdMarker', versionIdMarker),
      last === undefined ? '' : element('NextKeyMarker', encode(lastListed(page)!)),
      last !== undefined && 'item' in last ? element('NextVersionIdMarker', 'null') : '',
      element('MaxKeys', maxKeys),
      delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
      element('IsTruncated', page.truncated),
      call.query.has('encoding-type') ? element('EncodingType', 'url') : '',
      ...page.items.map((file) =>
        element('Version', [
          element('Key', encode(file.path)),
          element('VersionId', 'null'),
          element('IsLatest', true),
          element('LastModified', isoTime(file.changedAt)),
          element('ETag', etagOf(file)),
          element('Size', file.size),
          element('StorageClass', 'STANDARD'),
          owner(call.zone),
        ]),
      ),
      ...page.prefixes.map((p) => element('CommonPrefixes', [element('Prefix', encode(p))])),
    ]),
  );
}
