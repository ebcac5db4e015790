/** Multipart uploads: Create, UploadPart, UploadPartCopy, Complete, Abort, ListParts, ListMultipartUploads. */
import { etagOf } from '../../domain/files/etag.js';
import { keyPath } from '../../domain/files/paths.js';
import { prefixEnd } from '../../store/file-paths.js';
import type { S3Upload } from '../../store/types.js';
import { header } from '../common/headers.js';
import { chooseRange } from '../common/ranges.js';
import { requireWrite } from './access.js';
import { isoTime, owner } from './answer-parts.js';
import { copySourceFile } from './copy-object.js';
import { S3Error, s3Errors } from './errors.js';
import { type Listed, lastKey, listingEnd, listingQuery, listPage, MAX_KEYS, resumesPast } from './list-page.js';
import { objectMetadata } from './object-metadata.js';
import { countOf, encoder, numberOf, partNumberOf } from './query-params.js';
import { checkContentMd5, declaredLength, objectBody, smallBody } from './request-body.js';
import { sendEmpty, sendXml } from './respond.js';
import { checkWriteHeaders } from './settings/acl.js';
import type { S3Call } from './types.js';
import { element, parseXml, rootElement, textOf } from './xml.js';

type UploadCursor = { key: string; uploadId: string };

async function uploadOf(call: S3Call): Promise<S3Upload> {
  return call.deps.multipart.get(call.zone, call.query.get('uploadId') ?? '', keyPath(call.key!).path);
}

export async function createUpload(call: S3Call): Promise<void> {
  requireWrite(call);
  checkWriteHeaders(call.req);
  const target = keyPath(call.key!);
  if (target.isDirectory) throw s3Errors.invalidArgument('An object whose key ends in "/" is a folder and holds no bytes.', 'key', call.key);
  const upload = await call.deps.multipart.create(call.zone, call.key!, {
    contentType: header(call.req, 'content-type') ?? null,
    metadata: objectMetadata(call.req),
  });
  sendXml(
    call.res,
    200,
    rootElement('InitiateMultipartUploadResult', [element('Bucket', call.zone.zoneName), element('Key', call.key), element('UploadId', upload.uploadId)]),
  );
}

/** The upload and part number an UploadPart or UploadPartCopy names, once the key may write. */
async function partOf(call: S3Call): Promise<{ upload: S3Upload; partNumber: number }> {
  requireWrite(call);
  const partNumber = partNumberOf(call.query);
  return { upload: await uploadOf(call), partNumber };
}

export async function uploadPart(call: S3Call): Promise<void> {
  const { upload, partNumber } = await partOf(call);
  const max = call.deps.multipart.maxPartBytes;
  const declared = declaredLength(call);
  if (declared !== undefined && declared > max) throw s3Errors.entityTooLarge(max);
  const md5 = checkContentMd5(call);
  const { body, expectedSha256 } = objectBody(call);
  const part = await call.deps.multipart.putPart(call.zone, upload, partNumber, body, {
    check: (written) => {
      if (expectedSha256 !== undefined && written.sha256 !== expectedSha256) throw s3Errors.sha256Mismatch();
      if (md5 !== undefined && Buffer.from(written.md5, 'hex').toString('base64') !== md5) throw s3Errors.badDigest();
    },
  });
  sendEmpty(call.res, 200, { etag: `"${part.md5}"` });
}

export async function uploadPartCopy(call: S3Call): Promise<void> {
  const { upload, partNumber } = await partOf(call);
  const source = await copySourceFile(call);
  const rangeHeader = header(call.req, 'x-amz-copy-source-range');
  let range: { start: number; end: number } | undefined;
  if (rangeHeader !== undefined) {
    const m = /^bytes=(\d+)-(\d+)$/.exec(rangeHeader.trim());
    const choice = m ? chooseRange(rangeHeader.trim(), source.size) : undefined;
    if (!m || Number(m[2]) >= source.size || Number(m[1]) > Number(m[2]) || choice?.kind !== 'range')
      throw new S3Error(
        'InvalidArgument',
        'The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy',
        400,
        {
          ArgumentName: 'x-amz-copy-source-range',
          ArgumentValue: rangeHeader,
        },
      );
    range = choice.range;
  }
  const body = await call.deps.files.read(source, range);
  const part = await call.deps.multipart.putPart(call.zone, upload, partNumber, body, {});
  sendXml(call.res, 200, rootElement('CopyPartResult', [element('LastModified', isoTime(part.uploadedAt)), element('ETag', `"${part.md5}"`)]));
}

export async function completeUpload(call: S3Call): Promise<void> {
  requireWrite(call);
  const upload = await uploadOf(call);
  const doc = parseXml(await smallBody(call, 4 * 1024 * 1024), 'CompleteMultipartUpload');
  const parts = ((doc.Part as Record<string, unknown>[] | undefined) ?? []).map((p) => {
    const number = textOf(p?.PartNumber).trim();
    if (!/^\d+$/.test(number)) throw s3Errors.malformedXml();
    return { partNumber: Number(number), etag: textOf(p?.ETag) };
  });
  if (parts.length === 0) throw s3Errors.malformedXml();
  // S3 answers 200 at once and the outcome in the body; the answer is only sent once the file is committed.
  const file = await call.deps.multipart.complete(call.zone, upload, parts);
  const host = header(call.req, 'host') ?? '';
  sendXml(
    call.res,
    200,
    rootElement('CompleteMultipartUploadResult', [
      element('Location', `http://${host}/${call.zone.zoneName}/${encodeURI(file.path)}`),
      element('Bucket', call.zone.zoneName),
      element('Key', call.key),
      element('ETag', etagOf(file)),
    ]),
  );
}

export async function abortUpload(call: S3Call): Promise<void> {
  requireWrite(call);
  const upload = await uploadOf(call);
  await call.deps.multipart.abort(call.zone, upload);
  sendEmpty(call.res, 204);
}

export async function listParts(call: S3Call): Promise<void> {
  const upload = await uploadOf(call);
  const marker = numberOf(call.query, 'part-number-marker', 0);
  const maxParts = countOf(call.query, 'max-parts', MAX_KEYS);
  const parts = await call.deps.multipart.parts(upload, marker, maxParts + 1);
  const truncated = parts.length > maxParts;
  const shown = parts.slice(0, maxParts);
  sendXml(
    call.res,
    200,
    rootElement('ListPartsResult', [
      element('Bucket', call.zone.zoneName),
      element('Key', upload.key),
      element('UploadId', upload.uploadId),
      owner(call.zone, 'Initiator'),
      owner(call.zone),
      element('StorageClass', 'STANDARD'),
      element('PartNumberMarker', marker),
      element('NextPartNumberMarker', shown.at(-1)?.partNumber ?? marker),
      element('MaxParts', maxParts),
      element('IsTruncated', truncated),
      ...shown.map((p) =>
        element('Part', [
          element('PartNumber', p.partNumber),
          element('LastModified', isoTime(p.uploadedAt)),
          element('ETag', `"${p.md5}"`),
          element('Size', p.size),
        ]),
      ),
    ]),
  );
}

export async function listUploads(call: S3Call): Promise<void> {
  const { prefix, delimiter, max: maxUploads } = listingQuery(call, 'max-uploads');
  const keyMarker = call.query.get('key-marker') ?? '';
  const uploadIdMarker = call.query.get('upload-id-marker') ?? '';
  const encode = encoder(call.query);
  const source: Listed<S3Upload, UploadCursor> = {
    fetch: (after, limit) => call.deps.multipart.list(call.zone, { prefix, after, limit }),
    keyOf: (upload) => upload.key,
    cursorOf: (upload) => ({ key: upload.key, uploadId: upload.uploadId }),
    past: (common) => ({ key: prefixEnd(common), uploadId: '' }),
  };
  // Without an upload id marker, every upload of the marker key is past; a marker that is a common prefix passes all under it.
  const after =
    keyMarker === ''
      ? undefined
      : resumesPast(keyMarker, prefix, delimiter)
        ? source.past(keyMarker)
        : { key: keyMarker, uploadId: uploadIdMarker === '' ? '\u{10FFFF}' : uploadIdMarker };
  const page = await listPage(source, prefix, delimiter, after, maxUploads);
  const last = page.truncated ? page.last : undefined;
  sendXml(
    call.res,
    200,
    rootElement('ListMultipartUploadsResult', [
      element('Bucket', call.zone.zoneName),
      element('KeyMarker', encode(keyMarker)),
      element('UploadIdMarker', uploadIdMarker),
      last === undefined ? '' : element('NextKeyMarker', encode(lastKey(page, source.keyOf)!)),
      last !== undefined && 'item' in last ? element('NextUploadIdMarker', last.item.uploadId) : '',
      element('Prefix', encode(prefix)),
      delimiter === '' ? '' : element('Delimiter', encode(delimiter)),
      element('MaxUploads', maxUploads),
      element('IsTruncated', page.truncated),
      ...listingEnd(
        call,
        encode,
        page.items.map((u) =>
          element('Upload', [
            element('Key', encode(u.key)),
            element('UploadId', u.uploadId),
            owner(call.zone, 'Initiator'),
            owner(call.zone),
            element('StorageClass', 'STANDARD'),
            element('Initiated', isoTime(u.createdAt)),
          ]),
        ),
        page.prefixes,
      ),
    ]),
  );
}
