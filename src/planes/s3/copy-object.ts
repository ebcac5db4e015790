/**
 * CopyObject, and the source of a copy (CopyObject, UploadPartCopy): `x-amz-copy-source` in the
 * caller's own zone, its conditions met, its metadata and tags copied or replaced.
 */
import { etagOf } from '../../domain/files/etag.js';
import { keyPath } from '../../domain/files/paths.js';
import { tagsOf, untagged, withTags } from '../../domain/s3/object-tags.js';
import type { Tag } from '../../domain/s3/types.js';
import type { FileRecord } from '../../store/types.js';
import { evaluateConditions } from '../common/conditions.js';
import { header } from '../common/headers.js';
import { requireWrite } from './access.js';
import { isoTime } from './answer-parts.js';
import { S3Error, s3Errors } from './errors.js';
import { objectAt } from './get-object.js';
import { objectMetadata } from './object-metadata.js';
import { sendXml } from './respond.js';
import { checkWriteHeaders } from './settings/acl.js';
import { parseTaggingHeader } from './settings/tagging.js';
import { decodeComponent } from './sigv4.js';
import type { S3Call } from './types.js';
import { element, rootElement } from './xml.js';

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
  // Everything that can refuse the request is checked before the source is opened: a stream
  // opened and then left by a refusal would hold its file until a collection.
  const options = {
    contentType: replace ? header(call.req, 'content-type') : (source.contentType ?? undefined),
    metadata: withTags(replace ? untagged(objectMetadata(call.req)) : source.metadata, copiedTags(call, source)),
  };
  const copied = await call.deps.files.upload(call.zone, target, await call.deps.files.read(source), options);
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
