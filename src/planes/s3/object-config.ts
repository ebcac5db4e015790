/**
 * An object's configuration sub-resources (`?tagging`, `?acl`, `?attributes` …), operation by
 * operation, as rows of the operation table (operations.ts): tags kept in the object's metadata,
 * the ACL as ownership enforced has it, its attributes; Object Lock, archives, S3 Select and
 * torrents refused with S3's own answer or NotImplemented and the reason (see config-kinds.ts).
 */
import { tagsOf, withTags } from '../../domain/s3/object-tags.js';
import { header } from '../common/headers.js';
import { requireWrite } from './access.js';
import { absent, CONFIG_BODY_BYTES, configuration, writer } from './config-kinds.js';
import { S3Error, s3Errors } from './errors.js';
import { objectAt } from './get-object.js';
import { smallBody } from './request-body.js';
import { sendXml } from './respond.js';
import { getAcl, putAcl } from './settings/acl.js';
import { MAX_OBJECT_TAGS, parseTagging, taggingXml } from './settings/tagging.js';
import type { S3Call, S3Operation } from './types.js';
import { element, rootElement } from './xml.js';

async function getObjectAcl(call: S3Call): Promise<void> {
  await objectAt(call, call.zone, call.key!);
  getAcl(call);
}

async function putObjectAcl(call: S3Call): Promise<void> {
  requireWrite(call);
  await objectAt(call, call.zone, call.key!);
  await putAcl(call);
}

async function getTagging(call: S3Call): Promise<void> {
  const file = await objectAt(call, call.zone, call.key!);
  sendXml(call.res, 200, taggingXml(tagsOf(file.metadata)));
}

const putTagging = writer(200, async (call) => {
  await objectAt(call, call.zone, call.key!);
  const tags = parseTagging(await smallBody(call, CONFIG_BODY_BYTES), MAX_OBJECT_TAGS, 'object');
  await call.deps.files.editMetadata(call.zone, call.key!, (metadata) => withTags(metadata, tags));
});

const deleteTagging = writer(204, async (call) => {
  await objectAt(call, call.zone, call.key!);
  await call.deps.files.editMetadata(call.zone, call.key!, (metadata) => withTags(metadata, []));
});

/** GetObjectAttributes: what `x-amz-object-attributes` asks for of ETag, ObjectSize, StorageClass and ObjectParts. */
async function objectAttributes(call: S3Call): Promise<void> {
  const file = await objectAt(call, call.zone, call.key!);
  const wanted = new Set(
    (header(call.req, 'x-amz-object-attributes') ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== ''),
  );
  if (wanted.size === 0)
    throw s3Errors.invalidArgument(
      'The x-amz-object-attributes header specifying the attributes to be retrieved is either missing or empty',
      'x-amz-object-attributes',
    );
  const parts = /-(\d+)$/.exec(file.md5 ?? '')?.[1];
  sendXml(
    call.res,
    200,
    rootElement('GetObjectAttributesResponse', [
      wanted.has('ETag') ? element('ETag', file.md5 ?? file.guid) : '',
      wanted.has('ObjectParts') && parts !== undefined ? element('ObjectParts', [element('TotalPartsCount', parts)]) : '',
      wanted.has('StorageClass') ? element('StorageClass', 'STANDARD') : '',
      wanted.has('ObjectSize') ? element('ObjectSize', file.size) : '',
    ]),
    { 'last-modified': new Date(file.changedAt).toUTCString() },
  );
}

function noObjectLock(): never {
  throw new S3Error('InvalidRequest', 'Bucket is missing Object Lock Configuration', 400);
}

/** S3's answer for an object that is not archived, which no object here is. */
function notArchived(): never {
  throw new S3Error('InvalidObjectState', "Restore is not allowed for the object's current storage class", 403);
}

/** A query that names several configuration sub-resources is taken by the first in this order. */
export const OBJECT_CONFIGURATIONS: S3Operation[] = [
  ...configuration('object', 'acl', [
    ['GET', 'GetObjectAcl', 's3:GetObjectAcl', getObjectAcl],
    ['PUT', 'PutObjectAcl', 's3:PutObjectAcl', putObjectAcl],
  ]),
  ...configuration('object', 'tagging', [
    ['GET', 'GetObjectTagging', 's3:GetObjectTagging', getTagging],
    ['PUT', 'PutObjectTagging', 's3:PutObjectTagging', putTagging],
    ['DELETE', 'DeleteObjectTagging', 's3:DeleteObjectTagging', deleteTagging],
  ]),
  ...configuration('object', 'attributes', [['GET', 'GetObjectAttributes', 's3:GetObjectAttributes', objectAttributes]]),
  ...configuration('object', 'legal-hold', [
    ['GET', 'GetObjectLegalHold', 's3:GetObjectLegalHold', noObjectLock],
    ['PUT', 'PutObjectLegalHold', 's3:PutObjectLegalHold', noObjectLock],
  ]),
  ...configuration('object', 'retention', [
    ['GET', 'GetObjectRetention', 's3:GetObjectRetention', noObjectLock],
    ['PUT', 'PutObjectRetention', 's3:PutObjectRetention', noObjectLock],
  ]),
  ...configuration('object', 'restore', [['POST', 'RestoreObject', 's3:RestoreObject', notArchived]]),
  ...configuration('object', 'select', [
    [
      'POST',
      'SelectObjectContent',
      's3:GetObject',
      () => {
        throw absent('select');
      },
    ],
  ]),
  ...configuration('object', 'torrent', [
    [
      'GET',
      'GetObjectTorrent',
      's3:GetObjectTorrent',
      () => {
        throw absent('torrent');
      },
    ],
  ]),
];
