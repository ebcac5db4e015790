/** Object operations: PutObject, GetObject, HeadObject, DeleteObject, DeleteObjects, CopyObject. */
import { Transform, type Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { keyPath } from '../../domain/files/paths.js';
import type { ZoneAccess } from '../../domain/files/zone-keys.js';
import type { Tag } from '../../domain/s3/types.js';
import { bareEtag } from '../../domain/s3/etag.js';
import { TAG_PREFIX, tagsOf, untagged, withTags } from '../../domain/s3/object-tags.js';
import { EGRESS_METRICS } from '../../domain/storage-zones/statistics.js';
import type { ByteRange } from '../../files/types.js';
import type { FileRecord } from '../../store/types.js';
import { contentTypeOf } from '../common/content-types.js';
import { evaluateConditions, rangeStillApplies, type Validators } from '../common/conditions.js';
import { chooseRange, contentRange } from '../common/ranges.js';
import {
  declaredLength,
  header,
  objectBody,
  objectMetadata,
  partNumberOf,
  requireWrite,
  type S3Call,
  sendEmpty,
  sendXml,
  smallBody,
  STORED_HEADERS,
  SYSTEM_PREFIX,
} from './call.js';
import { asS3Error, S3Error, s3Errors } from './errors.js';
import { checkWriteHeaders } from './settings/acl.js';
import { parseTaggingHeader } from './settings/tagging.js';
import { decodeComponent } from './sigv4.js';
import { element, parseXml, rootElement, textOf } from './xml.js';

/** Reads up to this size are answered from one buffer; larger ones stream. */
const SMALL_READ_BYTES = 64 * 1024;
const MAX_DELETE_KEYS = 1000;

export const etagOf = (file: FileRecord) => `"${file.md5 ?? file.guid}"`;
export const isoTime = (iso: string) => new Date(iso).toISOString();

/** The file at `key`, or NoSuchKey (directories are not objects). */
export async function objectAt(call: Pick<S3Call, 'deps'>, zone: Pick<ZoneAccess, 'zoneId'>, key: string): Promise<FileRecord> {
  const target = keyPath(key);
  const file = target.isDirectory ? undefined : await call.deps.files.find(zone, target.path);
  if (!file || file.isDirectory) throw s3Errors.noSuchKey(key);
  return file;
}

/** Fails the stream when its MD5 is not the one the client gave in Content-MD5 (base64). */
function md5Check(expected: string): Transform {
  const md5 = createHash('md5');
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      callback(md5.digest('base64') === expected ? null : s3Errors.badDigest());
    },
  });
}

export function checkContentMd5(call: S3Call): string | undefined {
  const value = header(call.req, 'content-md5');
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9+/]{22}==$/.test(value)) throw new S3Error('InvalidDigest', 'The Content-MD5 you specified is not valid.', 400);
  return value;
}

function objectHeaders(file: FileRecord): Record<string, string> {
  const headers: Record<string, string> = {
    etag: etagOf(file),
    'last-modified': new Date(file.changedAt).toUTCString(),
    'content-type': file.contentType ?? contentTypeOf(file.path),
    'accept-ranges': 'bytes',
  };
  let tags = 0;
  for (const [name, value] of Object.entries(file.metadata ?? {})) {
    if (name.startsWith(SYSTEM_PREFIX)) headers[name.slice(SYSTEM_PREFIX.length)] = value;
    else if (name.startsWith(TAG_PREFIX)) tags++;
    else headers[`x-amz-meta-${name}`] = value;
  }
  if (tags > 0) headers['x-amz-tagging-count'] = String(tags);
  return headers;
}

/**
 * The parts a completed multipart upload left, as byte ranges of the object: its segments are the
 * parts as they were uploaded (see domain/s3/multipart.ts), and its ETag ends in `-<count>`. An
 * object uploaded whole (or copied) has none.
 */
function partsOf(file: FileRecord): { start: number; size: number }[] | undefined {
  const count = /-(\d+)$/.exec(file.md5 ?? '')?.[1];
  if (count === undefined || Number(count) !== file.blobs.length) return undefined;
  let start = 0;
  return file.blobs.map((blob) => {
    const part = { start, size: blob.size };
    start += blob.size;
    return part;
  });
}

/**
 * `?partNumber=N`: the bytes of part N, and how many parts there are. An object uploaded whole is
 * its own part 1, answered without a parts count, as S3 answers it.
 */
function selectPart(call: S3Call, file: FileRecord, headers: Record<string, string | number>): { start: number; size: number } {
  const partNumber = partNumberOf(call);
  if (header(call.req, 'range') !== undefined) throw s3Errors.invalidRequest('Cannot specify both Range header and partNumber query parameter');
  const parts = partsOf(file);
  const count = parts?.length ?? 1;
  if (partNumber > count)
    throw new S3Error(
      'InvalidPartNumber',
      'The requested partnumber is not satisfiable',
      416,
      { PartNumberRequested: String(partNumber), ActualPartCount: String(count) },
      { 'content-range': `bytes */${file.size}` },
    );
  if (parts) headers['x-amz-mp-parts-count'] = String(count);
  return parts?.[partNumber - 1] ?? { start: 0, size: file.size };
}

/** `response-content-type` and its kin override the headers of a GET's answer. */
const OVERRIDES = ['content-type', 'content-language', 'expires', 'cache-control', 'content-disposition', 'content-encoding'];

export async function putObject(call: S3Call): Promise<void> {
  requireWrite(call);
  checkWriteHeaders(call.req);
  const key = call.key!;
  const target = keyPath(key);
  const declared = declaredLength(call);
  const max = call.deps.files.maxFileBytes;
  if (declared !== undefined && declared > max) throw s3Errors.entityTooLarge(max);
  const ifNoneMatch = header(call.req, 'if-none-match');
  const ifMatch = header(call.req, 'if-match');
  if (ifNoneMatch !== undefined || ifMatch !== undefined) {
    const existing = target.isDirectory ? undefined : await call.deps.files.find(call.zone, target.path);
    if (ifNoneMatch?.trim() === '*' && existing)
      throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, { Condition: 'If-None-Match' });
    if (ifMatch !== undefined && (!existing || bareEtag(ifMatch) !== bareEtag(etagOf(existing))))
      throw new S3Error(existing ? 'PreconditionFailed' : 'NoSuchKey', 'At least one of the pre-conditions you specified did not hold', existing ? 412 : 404, {
        Condition: 'If-Match',
      });
  }
  const md5 = checkContentMd5(call);
  const { body, expectedSha256 } = objectBody(call);
  if (target.isDirectory) {
    // A key ending in `/` is a folder: an empty one is created, as the file API's folders are.
    const bytes = await smallBody({ ...call }, 0).catch((error: unknown) => {
      throw asS3Error(error)?.code === 'MaxMessageLengthExceeded'
        ? s3Errors.invalidArgument('An object whose key ends in "/" is a folder and holds no bytes.', 'key', key)
        : error;
    });
    void bytes;
    await call.deps.files.createDirectory(call.zone, target);
    sendEmpty(call.res, 200, { etag: '"d41d8cd98f00b204e9800998ecf8427e"' });
    return;
  }
  const source: Readable = md5 === undefined ? body : body.pipe(md5Check(md5));
  if (md5 !== undefined) body.once('error', (error) => source.destroy(error));
  const file = await call.deps.files.upload(call.zone, target, source, {
    checksum: expectedSha256,
    contentType: header(call.req, 'content-type'),
    metadata: objectMetadata(call.req),
  });
  sendEmpty(call.res, 200, { etag: etagOf(file) });
}

export async function getObject(call: S3Call, method: 'GET' | 'HEAD'): Promise<void> {
  const { req, res, deps, zone } = call;
  const file = await objectAt(call, zone, call.key!);
  const validators: Validators = { etag: etagOf(file), lastModified: new Date(file.changedAt) };
  const headers: Record<string, string | number> = objectHeaders(file);
  for (const name of OVERRIDES) {
    const value = call.query.get(`response-${name}`);
    if (value !== undefined) headers[name] = value;
  }
  const outcome = evaluateConditions(method, req.headers, validators);
  if (outcome === 'not-modified') {
    res.writeHead(304, { etag: validators.etag, 'last-modified': String(headers['last-modified']) });
    res.end();
    return;
  }
  if (outcome === 'precondition-failed') throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412);
  let range: ByteRange | undefined;
  let length: number;
  if (call.query.has('partNumber')) {
    // A part is read as a range of the object; an empty one (a last part of no bytes) is answered 200, empty.
    const part = selectPart(call, file, headers);
    range = part.size > 0 ? { start: part.start, end: part.start + part.size - 1 } : undefined;
    length = part.size;
  } else {
    const choice = rangeStillApplies(req.headers, validators) ? chooseRange(header(req, 'range'), file.size) : ({ kind: 'whole' } as const);
    if (choice.kind === 'unsatisfiable')
      throw new S3Error(
        'InvalidRange',
        'The requested range is not satisfiable',
        416,
        { RangeRequested: header(req, 'range') ?? '', ActualObjectSize: String(file.size) },
        { 'content-range': `bytes */${file.size}` },
      );
    range = choice.kind === 'range' ? choice.range : undefined;
    length = range ? range.end - range.start + 1 : file.size;
  }
  headers['content-length'] = length;
  if (range) headers['content-range'] = contentRange(range, file.size);
  const status = range ? 206 : 200;
  if (method === 'HEAD') {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const subject = `storageZone:${zone.zoneId}`;
  // The zone's egress statistics tell S3 downloads, and those through presigned URLs, apart.
  const metric = call.auth.presigned ? EGRESS_METRICS.s3Presigned : EGRESS_METRICS.s3;
  if (length <= SMALL_READ_BYTES) {
    const bytes = length === 0 ? Buffer.alloc(0) : await deps.files.readBytes(file, range);
    res.writeHead(status, headers);
    res.end(bytes);
    deps.usage.add(subject, metric, length);
    return;
  }
  const body = await deps.files.read(file, range);
  if (res.destroyed) {
    body.destroy();
    return;
  }
  res.writeHead(status, headers);
  res.once('finish', () => deps.usage.add(subject, metric, length));
  body.once('error', (error) => {
    deps.logError(error);
    res.destroy(error);
  });
  res.once('close', () => body.destroy());
  body.pipe(res);
}

/** Deletes a file; a folder key (`a/`) only when the folder is empty, as S3 would delete a marker object only. */
async function deleteKey(call: S3Call, key: string): Promise<void> {
  const target = keyPath(key);
  try {
    if (target.isDirectory) {
      if ((await call.deps.files.list(call.zone, target.path)).length > 0) return;
      if (!(await call.deps.files.find(call.zone, target.path))) return;
    }
    await call.deps.files.remove(call.zone, target);
  } catch (error) {
    // Deleting what is not there succeeds in S3.
    if (asS3Error(error)?.status === 404) return;
    throw error;
  }
}

export async function deleteObject(call: S3Call): Promise<void> {
  requireWrite(call);
  await deleteKey(call, call.key!);
  sendEmpty(call.res, 204);
}

export async function deleteObjects(call: S3Call): Promise<void> {
  requireWrite(call);
  const doc = parseXml(await smallBody(call, 2 * 1024 * 1024), 'Delete');
  const objects = (doc.Object as Record<string, unknown>[] | undefined) ?? [];
  if (objects.length === 0 || objects.length > MAX_DELETE_KEYS) throw s3Errors.malformedXml();
  const quiet = textOf(doc.Quiet).trim() === 'true';
  const results: string[] = [];
  for (const object of objects) {
    const key = textOf(object?.Key);
    try {
      call.authorize('s3:DeleteObject', key);
      await deleteKey(call, key);
      if (!quiet) results.push(element('Deleted', [element('Key', key)]));
    } catch (error) {
      const s3 = asS3Error(error);
      if (!s3) throw error;
      results.push(element('Error', [element('Key', key), element('Code', s3.code), element('Message', s3.message)]));
    }
  }
  sendXml(call.res, 200, rootElement('DeleteResult', results));
}

/** `x-amz-copy-source`: `/bucket/key` or `bucket/key`, URL-encoded; a version id is refused (there are no versions). */
export function copySource(call: S3Call): { bucket: string; key: string } {
  const raw = header(call.req, 'x-amz-copy-source')!;
  const [path = '', version] = raw.split('?');
  if (version?.startsWith('versionId=') && version !== 'versionId=null')
    throw s3Errors.invalidArgument('Versions are not supported.', 'x-amz-copy-source', raw);
  const trimmed = decodeComponent(path).replace(/^\//, '');
  const slash = trimmed.indexOf('/');
  if (slash <= 0 || slash === trimmed.length - 1)
    throw s3Errors.invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey', 'x-amz-copy-source', raw);
  return { bucket: trimmed.slice(0, slash), key: trimmed.slice(slash + 1) };
}

/** The source of a copy, in the caller's own zone, its `x-amz-copy-source-if-*` conditions met. */
export async function copySourceFile(call: S3Call): Promise<FileRecord> {
  const source = copySource(call);
  if (source.bucket.toLowerCase() !== call.zone.zoneName.toLowerCase()) throw s3Errors.accessDenied('Access Denied: copies are made within one storage zone.');
  call.authorize('s3:GetObject', source.key);
  const file = await objectAt(call, call.zone, source.key);
  const conditions: Record<string, string | undefined> = {
    'if-match': header(call.req, 'x-amz-copy-source-if-match'),
    'if-none-match': header(call.req, 'x-amz-copy-source-if-none-match'),
    'if-modified-since': header(call.req, 'x-amz-copy-source-if-modified-since'),
    'if-unmodified-since': header(call.req, 'x-amz-copy-source-if-unmodified-since'),
  };
  if (evaluateConditions('GET', conditions, { etag: etagOf(file), lastModified: new Date(file.changedAt) }) !== 'proceed')
    throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412);
  return file;
}

export async function copyObject(call: S3Call): Promise<void> {
  requireWrite(call);
  checkWriteHeaders(call.req);
  const source = await copySourceFile(call);
  const target = keyPath(call.key!);
  if (target.isDirectory) throw s3Errors.invalidArgument('An object whose key ends in "/" is a folder and holds no bytes.', 'key', call.key);
  const directive = (header(call.req, 'x-amz-metadata-directive') ?? 'COPY').toUpperCase();
  if (directive !== 'COPY' && directive !== 'REPLACE') throw s3Errors.invalidArgument('Unknown metadata directive.', 'x-amz-metadata-directive', directive);
  if (source.path === target.path && directive === 'COPY')
    throw s3Errors.invalidRequest(
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  const replace = directive === 'REPLACE';
  const copied = await call.deps.files.upload(call.zone, target, await call.deps.files.read(source), {
    contentType: replace ? header(call.req, 'content-type') : (source.contentType ?? undefined),
    metadata: withTags(replace ? untagged(objectMetadata(call.req)) : source.metadata, copiedTags(call, source)),
  });
  sendXml(call.res, 200, rootElement('CopyObjectResult', [element('LastModified', isoTime(copied.changedAt)), element('ETag', etagOf(copied))]));
}

/** `x-amz-tagging-directive`: the source's tags (COPY, the default) or those of the `x-amz-tagging` header (REPLACE). */
function copiedTags(call: S3Call, source: FileRecord): Tag[] {
  const directive = (header(call.req, 'x-amz-tagging-directive') ?? 'COPY').toUpperCase();
  if (directive === 'COPY') return tagsOf(source.metadata);
  if (directive !== 'REPLACE') throw s3Errors.invalidArgument('Unknown tagging directive.', 'x-amz-tagging-directive', directive);
  const tagging = header(call.req, 'x-amz-tagging');
  return tagging === undefined ? [] : parseTaggingHeader(tagging);
}

export { STORED_HEADERS };
