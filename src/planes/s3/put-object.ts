/** PutObject: an object's bytes stored whole (or an empty folder, for a key ending in `/`), under the write's conditions. */
import type { Readable } from 'node:stream';
import { etagOf } from '../../domain/files/etag.js';
import { keyPath } from '../../domain/files/paths.js';
import { bareEtag } from '../../domain/s3/etag.js';
import { header } from '../common/headers.js';
import { requireWrite } from './access.js';
import { asS3Error, S3Error, s3Errors } from './errors.js';
import { objectMetadata } from './object-metadata.js';
import { checkContentMd5, declaredLength, md5Check, objectBody, smallBody } from './request-body.js';
import { sendEmpty } from './respond.js';
import { checkWriteHeaders } from './settings/acl.js';
import type { S3Call } from './types.js';

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
