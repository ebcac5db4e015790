/**
 * Access control lists, as S3 has them in a bucket whose ownership controls are
 * `BucketOwnerEnforced` (the default of every bucket S3 has created since 2023, and the one
 * setting here): ACLs are disabled, the owner has full control of everything, and a request that
 * would grant anything else is refused with `AccessControlListNotSupported`. Who else may do what
 * is the bucket policy's business.
 */
import type { IncomingMessage } from 'node:http';
import { header } from '../../common/headers.js';
import { owner } from '../answer-parts.js';
import { S3Error } from '../errors.js';
import { smallBody } from '../request-body.js';
import { sendEmpty, sendXml } from '../respond.js';
import type { S3Call } from '../types.js';
import { element, rootElement } from '../xml.js';

/** The canned ACLs that grant the owner full control and no one else: what every ACL here is. */
const OWNER_ONLY = new Set(['private', 'bucket-owner-full-control']);

const notSupported = () => new S3Error('AccessControlListNotSupported', 'The bucket does not allow ACLs', 400);

/**
 * Refuses what a write (PutObject, CopyObject, CreateMultipartUpload) asks that cannot be so here:
 * ACL headers that would grant anyone else anything, and a storage class other than the one there
 * is (an object asked for in GLACIER must not quietly land in STANDARD).
 */
export function checkWriteHeaders(req: IncomingMessage): void {
  const storageClass = header(req, 'x-amz-storage-class');
  if (storageClass !== undefined && storageClass !== 'STANDARD')
    throw new S3Error(
      'InvalidStorageClass',
      `The storage class you specified is not valid: edgeplane keeps every object in STANDARD, not ${storageClass}.`,
      400,
      {
        StorageClassRequested: storageClass,
      },
    );
  checkAclHeaders(req);
}

function checkAclHeaders(req: IncomingMessage): void {
  const canned = header(req, 'x-amz-acl');
  if (canned !== undefined && !OWNER_ONLY.has(canned)) throw notSupported();
  if (Object.keys(req.headers).some((name) => name.startsWith('x-amz-grant-'))) throw notSupported();
}

export function ownerOnlyAcl(call: S3Call): string {
  const grantee = element('Grantee', [element('ID', call.zone.userId), element('DisplayName', call.zone.zoneName)], XSI_CANONICAL_USER);
  return rootElement('AccessControlPolicy', [
    owner(call.zone),
    element('AccessControlList', [element('Grant', [grantee, element('Permission', 'FULL_CONTROL')])]),
  ]);
}
const XSI_CANONICAL_USER = ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser"';

export const getAcl = (call: S3Call) => sendXml(call.res, 200, ownerOnlyAcl(call));

/** PutBucketAcl / PutObjectAcl: an owner-only canned ACL changes nothing and succeeds; an ACL document or any grant is refused. */
export async function putAcl(call: S3Call): Promise<void> {
  checkAclHeaders(call.req);
  const length = header(call.req, 'content-length');
  if ((length !== undefined && length !== '0') || header(call.req, 'x-amz-acl') === undefined) throw notSupported();
  await smallBody(call, 0);
  sendEmpty(call.res, 200);
}

export const OWNERSHIP_XML = rootElement('OwnershipControls', [element('Rule', [element('ObjectOwnership', 'BucketOwnerEnforced')])]);
