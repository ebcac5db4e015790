/**
 * Listings: ListBuckets (the zone itself), ListObjectsV2 and ListObjects (v1), ListObjectVersions.
 * Keys come from the file service in byte order, as S3 lists them, a page at a time (list-page.ts).
 */
import { etagOf } from '../../domain/files/etag.js';
import type { FileRecord } from '../../store/types.js';
import { prefixEnd } from '../../store/file-paths.js';
import { isoTime, owner } from './answer-parts.js';
import { S3Error, s3Errors } from './errors.js';
import { type Listed, listPage, MAX_KEYS, type Page, resumesPast } from './list-page.js';
import { countOf, encoder } from './query-params.js';
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

function objectPage(call: S3Call, prefix: string, delimiter: string, after: string, maxKeys: number): Promise<Page<FileRecord, string>> {
  const source: Listed<FileRecord, string> = {
    fetch: (cursor, limit) => call.deps.files.listInKeyOrder(call.zone, prefix, cursor === '' ? undefined : cursor, limit),
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

export async function listObjectsV2(call: S3Call): Promise<void> {
  const prefix = call.query.get('prefix') ?? '';
  const delimiter = call.query.get('delimiter') ?? '';
  const maxKeys = countOf(call.query, 'max-keys', MAX_KEYS);
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
  const maxKeys = countOf(call.query, 'max-keys', MAX_KEYS);
  const marker = call.query.get('marker') ?? '';
  const after = resumesPast(marker, prefix, delimiter) ? prefixEnd(marker) : marker;
  const page = await objectPage(call, prefix, delimiter, after, maxKeys);
  const encode = encoder(call.query);
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
  const maxKeys = countOf(call.query, 'max-keys', MAX_KEYS);
  const keyMarker = call.query.get('key-marker') ?? '';
  const versionIdMarker = call.query.get('version-id-marker') ?? '';
  if (versionIdMarker !== '' && keyMarker === '')
    throw s3Errors.invalidArgument('A version-id marker cannot be specified without a key marker.', 'version-id-marker', versionIdMarker);
  const after = resumesPast(keyMarker, prefix, delimiter) ? prefixEnd(keyMarker) : keyMarker;
  const page = await objectPage(call, prefix, delimiter, after, maxKeys);
  const encode = encoder(call.query);
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
