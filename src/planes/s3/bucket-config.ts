/**
 * The sub-resources S3 keeps a bucket's or an object's configuration in (`?acl`, `?policy`,
 * `?cors`, `?tagging` …). Edgeplane has none of those features: reads answer what S3 answers for
 * a bucket that has none of them configured, so the clients and tools that read them on their way
 * (the AWS CLI, Terraform, backup tools) carry on; a write that would configure one is
 * NotImplemented (501), as S3-compatible services answer, except the one it already is (the
 * canned ACL `private`); deleting a configuration that is not there succeeds, as in S3.
 */
import { header, requireWrite, type S3Call, sendEmpty, sendXml, smallBody } from './call.js';
import { S3Error, s3Errors } from './errors.js';
import { listObjectVersions, owner } from './listing.js';
import { objectAt } from './objects.js';
import { element, rootElement } from './xml.js';

/** Bucket configurations that S3 reports absent with an error of their own. */
const ABSENT: Record<string, [code: string, message: string]> = {
  cors: ['NoSuchCORSConfiguration', 'The CORS configuration does not exist'],
  policy: ['NoSuchBucketPolicy', 'The bucket policy does not exist'],
  policyStatus: ['NoSuchBucketPolicy', 'The bucket policy does not exist'],
  lifecycle: ['NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist'],
  tagging: ['NoSuchTagSet', 'The TagSet does not exist'],
  website: ['NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration'],
  encryption: ['ServerSideEncryptionConfigurationNotFoundError', 'The server side encryption configuration was not found'],
  'object-lock': ['ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket'],
  ownershipControls: ['OwnershipControlsNotFoundError', 'The bucket ownership controls were not found'],
  publicAccessBlock: ['NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found'],
  replication: ['ReplicationConfigurationNotFoundError', 'The replication configuration was not found'],
};

/** Bucket configurations that S3 reports, unset, as an empty document. */
const EMPTY: Record<string, () => string> = {
  versioning: () => rootElement('VersioningConfiguration', []),
  logging: () => rootElement('BucketLoggingStatus', []),
  notification: () => rootElement('NotificationConfiguration', []),
  accelerate: () => rootElement('AccelerateConfiguration', []),
  requestPayment: () => rootElement('RequestPaymentConfiguration', [element('Payer', 'BucketOwner')]),
};

/** Configurations S3 deletes with a 204 whether or not one was set. */
const DELETABLE = new Set(['cors', 'policy', 'lifecycle', 'tagging', 'website', 'encryption', 'publicAccessBlock', 'replication']);

/** Sub-resources of features edgeplane does not have at all: NotImplemented, never mistaken for a listing or a read. */
const UNSUPPORTED = ['legal-hold', 'retention', 'analytics', 'metrics', 'inventory', 'intelligent-tiering', 'restore', 'select', 'torrent', 'attributes'];

const CONFIGURATIONS = ['acl', 'versions', ...Object.keys(ABSENT), ...Object.keys(EMPTY), ...UNSUPPORTED];

/** The owner, the zone, with full control, and no one else: every bucket's and object's ACL here. */
function ownerOnlyAcl(call: S3Call): string {
  const grantee = element('Grantee', [element('ID', call.zone.userId), element('DisplayName', call.zone.zoneName)], XSI_CANONICAL_USER);
  return rootElement('AccessControlPolicy', [
    owner(call.zone),
    element('AccessControlList', [element('Grant', [grantee, element('Permission', 'FULL_CONTROL')])]),
  ]);
}
const XSI_CANONICAL_USER = ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser"';

/** PutBucketAcl / PutObjectAcl: the canned `private` (what there is already) is accepted; any other grant is not implemented. */
async function putAcl(call: S3Call): Promise<void> {
  requireWrite(call);
  const granted = Object.keys(call.req.headers).some((name) => name.startsWith('x-amz-grant-'));
  const length = header(call.req, 'content-length');
  if (header(call.req, 'x-amz-acl') !== 'private' || granted || (length !== undefined && length !== '0'))
    throw s3Errors.notImplemented('access control lists other than the canned ACL "private"');
  await smallBody(call, 0);
  sendEmpty(call.res, 200);
}

function bucketOperation(call: S3Call, method: string, name: string): () => Promise<void> | void {
  if (name === 'acl') {
    if (method === 'GET') return () => sendXml(call.res, 200, ownerOnlyAcl(call));
    if (method === 'PUT') return () => putAcl(call);
  }
  if (name === 'versions' && method === 'GET') return () => listObjectVersions(call);
  const absent = ABSENT[name];
  if (absent && method === 'GET') return () => notConfigured(call, absent);
  const empty = EMPTY[name];
  if (empty && method === 'GET') return () => sendXml(call.res, 200, empty());
  if (DELETABLE.has(name) && method === 'DELETE')
    return () => {
      requireWrite(call);
      sendEmpty(call.res, 204);
    };
  return () => {
    throw s3Errors.notImplemented(`${method} of the bucket's ${name} configuration`);
  };
}

function objectOperation(call: S3Call, method: string, name: string): () => Promise<void> | void {
  const existing = () => objectAt(call, call.zone, call.key!);
  if (name === 'acl' && method === 'GET')
    return async () => {
      await existing();
      sendXml(call.res, 200, ownerOnlyAcl(call));
    };
  if (name === 'acl' && method === 'PUT')
    return async () => {
      await existing();
      await putAcl(call);
    };
  if (name === 'tagging' && method === 'GET')
    return async () => {
      await existing();
      sendXml(call.res, 200, rootElement('Tagging', [element('TagSet', [])]));
    };
  if (name === 'tagging' && method === 'DELETE')
    return async () => {
      requireWrite(call);
      await existing();
      sendEmpty(call.res, 204);
    };
  return () => {
    throw s3Errors.notImplemented(`${method} of the object's ${name}`);
  };
}

function notConfigured(call: S3Call, [code, message]: [string, string]): never {
  throw new S3Error(code, message, 404, { BucketName: call.zone.zoneName });
}

/** The operation a configuration sub-resource in the query names, or undefined when it names none. */
export function configurationOperation(call: S3Call, method: string): (() => Promise<void> | void) | undefined {
  const name = CONFIGURATIONS.find((candidate) => call.query.has(candidate));
  if (name === undefined) return undefined;
  return call.key === undefined ? bucketOperation(call, method, name) : objectOperation(call, method, name);
}
