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

interface Page {
  objects: FileRecord[];
  prefixes: string[];
  truncated: boolean;
  /** Where the next page starts (exclusive): the last key, or past the last common prefix. */
  next: string | undefined;
  /** The last key or common prefix listed (v1's NextMarker). */
  lastListed: string | undefined;
}

async function listPage(call: S3Call, prefix: string, delimiter: string, after: string, maxKeys: number): Promise<Page> {
  const objects: FileRecord[] = [];
  const prefixes: string[] = [];
  let cursor = after;
  let lastListed: string | undefined;
  if (maxKeys === 0) return { objects, prefixes, truncated: false, next: undefined, lastListed };
  for (;;) {
    const batch = await call.deps.store.files.range(call.zone.zoneId, {
      prefix,
      after: cursor === '' ? undefined : cursor,
      limit: Math.min(MAX_KEYS, maxKeys - objects.length - prefixes.length + 1),
      filesOnly: true,
    });
    if (batch.length === 0) return { objects, prefixes, truncated: false, next: undefined, lastListed };
    for (const file of batch) {
      const cut = delimiter === '' ? -1 : file.path.indexOf(delimiter, prefix.length);
      if (objects.length + prefixes.length === maxKeys) return { objects, prefixes, truncated: true, next: cursor, lastListed };
      if (cut >= 0) {
        const common = file.path.slice(0, cut + delimiter.length);
        prefixes.push(common);
        lastListed = common;
        cursor = prefixEnd(common);
        break;
      }
      objects.push(file);
      lastListed = file.path;
      cursor = file.path;
    }
  }
}

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

function encoder(call: S3Call): (s: string) => string {
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
  const page = await listPage(call, prefix, delimiter, after, maxKeys);
  const encode = encoder(call);
  const fetchOwner = call.query.get('fetch-owner') === 'true';
  sendXml(
    call.res,
    200,
    rootElement('ListBucketResult', [
      element('Name', call.zone.zoneName),
      element('Prefix', encode(prefix)),
      element('KeyCount', page.objects.length + page.prefixes.length),
      element('MaxKeys', maxKeys),
      delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
      element('IsTruncated', page.truncated),
      token === undefined ? '' : element('ContinuationToken', token),
      page.truncated && page.next !== undefined ? element('NextContinuationToken', Buffer.from(`k:${page.next}`).toString('base64url')) : '',
      startAfter === '' ? '' : element('StartAfter', encode(startAfter)),
      call.query.has('encoding-type') ? element('EncodingType', 'url') : '',
      ...page.objects.map((f) => contents(f, encode, fetchOwner ? owner(call.zone) : undefined)),
      ...page.prefixes.map((p) => element('CommonPrefixes', [element('Prefix', encode(p))])),
    ]),
  );
}

export async function listObjectsV1(call: S3Call): Promise<void> {
  const prefix = call.query.get('prefix') ?? '';
  const delimiter = call.query.get('delimiter') ?? '';
  const maxKeys = maxKeysOf(call, 'max-keys');
  const marker = call.query.get('marker') ?? '';
  // A marker that is a common prefix resumes past everything under it, as S3 does.
  const after = delimiter !== '' && marker.endsWith(delimiter) && marker.startsWith(prefix) ? prefixEnd(marker) : marker;
  const page = await listPage(call, prefix, delimiter, after, maxKeys);
  const encode = encoder(call);
  sendXml(
    call.res,
    200,
    rootElement('ListBucketResult', [
      element('Name', call.zone.zoneName),
      element('Prefix', encode(prefix)),
      element('Marker', encode(marker)),
      page.truncated && delimiter !== '' && page.lastListed !== undefined ? element('NextMarker', encode(page.lastListed)) : '',
      element('MaxKeys', maxKeys),
      delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
      element('IsTruncated', page.truncated),
      call.query.has('encoding-type') ? element('EncodingType', 'url') : '',
      ...page.objects.map((f) => contents(f, encode, owner(call.zone))),
      ...page.prefixes.map((p) => element('CommonPrefixes', [element('Prefix', encode(p))])),
    ]),
  );
}
