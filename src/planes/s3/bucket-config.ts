/**
 * A bucket's configuration sub-resources (`?tagging`, `?cors`, `?policy` …), operation by
 * operation, as rows of the operation table (operations.ts). Those edgeplane has are stored with
 * the zone (see domain/s3/bucket-settings.ts) and applied: tags, CORS, the policy and its public
 * access block, lifecycle rules, versioning suspended. Those that describe what is already so are
 * answered as S3 answers them (ownership enforced, ACLs disabled, no logging, no notifications)
 * and accept a write that changes nothing. Features edgeplane does not have are refused with S3's
 * own answers where S3 has one (Object Lock without versioning) and otherwise NotImplemented, each
 * with the reason (see config-kinds.ts).
 */
import type { PublicAccessBlock } from '../../domain/s3/types.js';
import { requireWrite } from './access.js';
import {
  absent,
  CONFIG_BODY_BYTES,
  configBody,
  configuration,
  emptyDocument,
  kept,
  LIFECYCLE_BODY_BYTES,
  type NotFound,
  noneOf,
  notConfigured,
  removed,
  saveSetting,
  settingsOf,
  unavailable,
  unchanged,
  writer,
  xmlOf,
} from './config-kinds.js';
import { S3Error, s3Errors } from './errors.js';
import { listObjectVersions } from './listing.js';
import { smallBody } from './request-body.js';
import { sendXml } from './respond.js';
import { getAcl, OWNERSHIP_XML, putAcl } from './settings/acl.js';
import { corsXml, parseCors } from './settings/cors.js';
import { lifecycleXml, parseLifecycle } from './settings/lifecycle.js';
import { compilePolicy, isPublic } from './settings/policy.js';
import { MAX_BUCKET_TAGS, parseTagging, taggingXml } from './settings/tagging.js';
import type { S3Call, S3Operation } from './types.js';
import { element, rootElement, textOf } from './xml.js';

const NO_TAG_SET: NotFound = ['NoSuchTagSet', 'The TagSet does not exist'];
const NO_CORS: NotFound = ['NoSuchCORSConfiguration', 'The CORS configuration does not exist'];
const NO_POLICY: NotFound = ['NoSuchBucketPolicy', 'The bucket policy does not exist'];
const NO_PUBLIC_ACCESS_BLOCK: NotFound = ['NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found'];
const NO_LIFECYCLE: NotFound = ['NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist'];

function publicAccessBlockXml(block: PublicAccessBlock): string {
  return rootElement('PublicAccessBlockConfiguration', [
    element('BlockPublicAcls', block.blockPublicAcls),
    element('IgnorePublicAcls', block.ignorePublicAcls),
    element('BlockPublicPolicy', block.blockPublicPolicy),
    element('RestrictPublicBuckets', block.restrictPublicBuckets),
  ]);
}

function parseBoolean(value: unknown, name: string): boolean {
  const text = textOf(value).trim().toLowerCase();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  throw s3Errors.invalidArgument(`${name} must be true or false.`, name, text);
}

function putBucketAcl(call: S3Call): Promise<void> {
  requireWrite(call);
  return putAcl(call);
}

const putTagging = writer(204, async (call) => saveSetting(call, 'tags', parseTagging(await smallBody(call, CONFIG_BODY_BYTES), MAX_BUCKET_TAGS, 'bucket')));
const putCors = writer(200, async (call) => saveSetting(call, 'cors', parseCors(await smallBody(call, CONFIG_BODY_BYTES))));

const getPolicy = kept('policy', NO_POLICY, (call, policy) => {
  call.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(policy) });
  call.res.end(policy);
});

const putPolicy = writer(204, async (call) => {
  const text = (await smallBody(call, CONFIG_BODY_BYTES)).toString('utf8');
  const compiled = compilePolicy(text, call.zone.zoneName, call.zone.zoneName);
  if (settingsOf(call).publicAccessBlock?.blockPublicPolicy && isPublic(compiled))
    throw s3Errors.accessDenied('Access Denied: public policies are blocked by the BlockPublicPolicy block public access setting.');
  await saveSetting(call, 'policy', text);
});

const getPolicyStatus = kept('policy', NO_POLICY, (call, policy) => {
  const open = isPublic(compilePolicy(policy, call.zone.zoneName, call.zone.zoneName));
  sendXml(call.res, 200, rootElement('PolicyStatus', [element('IsPublic', open)]));
});

const putPublicAccessBlock = writer(200, async (call) => {
  const doc = await configBody(call, 'PublicAccessBlockConfiguration');
  await saveSetting(call, 'publicAccessBlock', {
    blockPublicAcls: parseBoolean(doc.BlockPublicAcls, 'BlockPublicAcls'),
    ignorePublicAcls: parseBoolean(doc.IgnorePublicAcls, 'IgnorePublicAcls'),
    blockPublicPolicy: parseBoolean(doc.BlockPublicPolicy, 'BlockPublicPolicy'),
    restrictPublicBuckets: parseBoolean(doc.RestrictPublicBuckets, 'RestrictPublicBuckets'),
  });
});

const putLifecycle = writer(200, async (call) => saveSetting(call, 'lifecycle', parseLifecycle(await smallBody(call, LIFECYCLE_BODY_BYTES))));

function getVersioning(call: S3Call): void {
  const status = settingsOf(call).versioning;
  sendXml(call.res, 200, rootElement('VersioningConfiguration', status === undefined ? [] : [element('Status', status), element('MfaDelete', 'Disabled')]));
}

const putVersioning = writer(200, async (call) => {
  const doc = await configBody(call, 'VersioningConfiguration');
  const status = textOf(doc.Status).trim();
  if (textOf(doc.MfaDelete).trim() === 'Enabled') throw absent('mfaDelete');
  if (status === 'Enabled') throw absent('versioning');
  if (status !== 'Suspended') throw s3Errors.malformedXml();
  await saveSetting(call, 'versioning', 'Suspended');
});

const putOwnershipControls = unchanged(
  'OwnershipControls',
  (doc) => Array.isArray(doc.Rule) && doc.Rule.length === 1 && textOf(doc.Rule[0]?.ObjectOwnership).trim() === 'BucketOwnerEnforced',
  () =>
    new S3Error('InvalidRequest', 'Buckets here always enforce bucket ownership (ACLs are disabled): ObjectOwnership can only be BucketOwnerEnforced.', 400),
);

function deleteOwnershipControls(): never {
  throw new S3Error('InvalidRequest', 'Buckets here always enforce bucket ownership (ACLs are disabled): the ownership controls cannot be removed.', 400);
}

const getObjectLock = (call: S3Call) =>
  notConfigured(call, ['ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket']);

/** S3's own answer for a bucket without versioning, which every bucket here is. */
function putObjectLock(): never {
  throw new S3Error('InvalidBucketState', "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration", 409);
}

/** An empty document answered as it is: what is so of a feature that is off. */
const answer =
  (root: string, children: string[] = []) =>
  (call: S3Call) =>
    sendXml(call.res, 200, rootElement(root, children));

/** A query that names several configuration sub-resources is taken by the first in this order. */
export const BUCKET_CONFIGURATIONS: S3Operation[] = [
  ...configuration('bucket', 'acl', [
    ['GET', 'GetBucketAcl', 's3:GetBucketAcl', getAcl],
    ['PUT', 'PutBucketAcl', 's3:PutBucketAcl', putBucketAcl],
  ]),
  ...configuration('bucket', 'versions', [['GET', 'ListObjectVersions', 's3:ListBucketVersions', listObjectVersions]]),
  ...configuration('bucket', 'tagging', [
    ['GET', 'GetBucketTagging', 's3:GetBucketTagging', kept('tags', NO_TAG_SET, xmlOf(taggingXml))],
    ['PUT', 'PutBucketTagging', 's3:PutBucketTagging', putTagging],
    ['DELETE', 'DeleteBucketTagging', 's3:PutBucketTagging', removed('tags')],
  ]),
  ...configuration('bucket', 'cors', [
    ['GET', 'GetBucketCors', 's3:GetBucketCORS', kept('cors', NO_CORS, xmlOf(corsXml))],
    ['PUT', 'PutBucketCors', 's3:PutBucketCORS', putCors],
    ['DELETE', 'DeleteBucketCors', 's3:PutBucketCORS', removed('cors')],
  ]),
  ...configuration('bucket', 'policy', [
    ['GET', 'GetBucketPolicy', 's3:GetBucketPolicy', getPolicy],
    ['PUT', 'PutBucketPolicy', 's3:PutBucketPolicy', putPolicy],
    ['DELETE', 'DeleteBucketPolicy', 's3:DeleteBucketPolicy', removed('policy')],
  ]),
  ...configuration('bucket', 'policyStatus', [['GET', 'GetBucketPolicyStatus', 's3:GetBucketPolicyStatus', getPolicyStatus]]),
  ...configuration('bucket', 'publicAccessBlock', [
    ['GET', 'GetPublicAccessBlock', 's3:GetBucketPublicAccessBlock', kept('publicAccessBlock', NO_PUBLIC_ACCESS_BLOCK, xmlOf(publicAccessBlockXml))],
    ['PUT', 'PutPublicAccessBlock', 's3:PutBucketPublicAccessBlock', putPublicAccessBlock],
    ['DELETE', 'DeletePublicAccessBlock', 's3:PutBucketPublicAccessBlock', removed('publicAccessBlock')],
  ]),
  ...configuration('bucket', 'lifecycle', [
    ['GET', 'GetBucketLifecycleConfiguration', 's3:GetLifecycleConfiguration', kept('lifecycle', NO_LIFECYCLE, xmlOf(lifecycleXml))],
    ['PUT', 'PutBucketLifecycleConfiguration', 's3:PutLifecycleConfiguration', putLifecycle],
    ['DELETE', 'DeleteBucketLifecycle', 's3:PutLifecycleConfiguration', removed('lifecycle')],
  ]),
  ...configuration('bucket', 'versioning', [
    ['GET', 'GetBucketVersioning', 's3:GetBucketVersioning', getVersioning],
    ['PUT', 'PutBucketVersioning', 's3:PutBucketVersioning', putVersioning],
  ]),
  ...configuration('bucket', 'ownershipControls', [
    ['GET', 'GetBucketOwnershipControls', 's3:GetBucketOwnershipControls', (call) => sendXml(call.res, 200, OWNERSHIP_XML)],
    ['PUT', 'PutBucketOwnershipControls', 's3:PutBucketOwnershipControls', putOwnershipControls],
    ['DELETE', 'DeleteBucketOwnershipControls', 's3:PutBucketOwnershipControls', deleteOwnershipControls],
  ]),
  ...configuration(
    'bucket',
    'encryption',
    unavailable(
      'encryption',
      ['GetBucketEncryption', 'PutBucketEncryption', 'DeleteBucketEncryption'],
      ['s3:GetEncryptionConfiguration', 's3:PutEncryptionConfiguration', 's3:PutEncryptionConfiguration'],
      ['ServerSideEncryptionConfigurationNotFoundError', 'The server side encryption configuration was not found'],
    ),
  ),
  ...configuration(
    'bucket',
    'website',
    unavailable(
      'website',
      ['GetBucketWebsite', 'PutBucketWebsite', 'DeleteBucketWebsite'],
      ['s3:GetBucketWebsite', 's3:PutBucketWebsite', 's3:DeleteBucketWebsite'],
      ['NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration'],
    ),
  ),
  ...configuration(
    'bucket',
    'replication',
    unavailable(
      'replication',
      ['GetBucketReplication', 'PutBucketReplication', 'DeleteBucketReplication'],
      ['s3:GetReplicationConfiguration', 's3:PutReplicationConfiguration', 's3:PutReplicationConfiguration'],
      ['ReplicationConfigurationNotFoundError', 'The replication configuration was not found'],
    ),
  ),
  ...configuration('bucket', 'object-lock', [
    ['GET', 'GetObjectLockConfiguration', 's3:GetBucketObjectLockConfiguration', getObjectLock],
    ['PUT', 'PutObjectLockConfiguration', 's3:PutBucketObjectLockConfiguration', putObjectLock],
  ]),
  ...configuration('bucket', 'logging', [
    ['GET', 'GetBucketLogging', 's3:GetBucketLogging', answer('BucketLoggingStatus')],
    ['PUT', 'PutBucketLogging', 's3:PutBucketLogging', unchanged('BucketLoggingStatus', emptyDocument, () => absent('logging'))],
  ]),
  ...configuration('bucket', 'notification', [
    ['GET', 'GetBucketNotificationConfiguration', 's3:GetBucketNotification', answer('NotificationConfiguration')],
    [
      'PUT',
      'PutBucketNotificationConfiguration',
      's3:PutBucketNotification',
      unchanged('NotificationConfiguration', emptyDocument, () => absent('notification')),
    ],
  ]),
  ...configuration('bucket', 'accelerate', [
    ['GET', 'GetBucketAccelerateConfiguration', 's3:GetAccelerateConfiguration', answer('AccelerateConfiguration')],
    [
      'PUT',
      'PutBucketAccelerateConfiguration',
      's3:PutAccelerateConfiguration',
      unchanged(
        'AccelerateConfiguration',
        (doc) => textOf(doc.Status).trim() === 'Suspended',
        () => absent('accelerate'),
      ),
    ],
  ]),
  ...configuration('bucket', 'requestPayment', [
    ['GET', 'GetBucketRequestPayment', 's3:GetBucketRequestPayment', answer('RequestPaymentConfiguration', [element('Payer', 'BucketOwner')])],
    [
      'PUT',
      'PutBucketRequestPayment',
      's3:PutBucketRequestPayment',
      unchanged(
        'RequestPaymentConfiguration',
        (doc) => textOf(doc.Payer).trim() === 'BucketOwner',
        () => absent('requestPayment'),
      ),
    ],
  ]),
  ...configuration(
    'bucket',
    'analytics',
    noneOf(
      'analytics',
      'ListBucketAnalyticsConfigurationResult',
      ['ListBucketAnalyticsConfigurations', 'GetBucketAnalyticsConfiguration', 'PutBucketAnalyticsConfiguration', 'DeleteBucketAnalyticsConfiguration'],
      ['s3:GetAnalyticsConfiguration', 's3:PutAnalyticsConfiguration'],
    ),
  ),
  ...configuration(
    'bucket',
    'metrics',
    noneOf(
      'metrics',
      'ListMetricsConfigurationsResult',
      ['ListBucketMetricsConfigurations', 'GetBucketMetricsConfiguration', 'PutBucketMetricsConfiguration', 'DeleteBucketMetricsConfiguration'],
      ['s3:GetMetricsConfiguration', 's3:PutMetricsConfiguration'],
    ),
  ),
  ...configuration(
    'bucket',
    'inventory',
    noneOf(
      'inventory',
      'ListInventoryConfigurationsResult',
      ['ListBucketInventoryConfigurations', 'GetBucketInventoryConfiguration', 'PutBucketInventoryConfiguration', 'DeleteBucketInventoryConfiguration'],
      ['s3:GetInventoryConfiguration', 's3:PutInventoryConfiguration'],
    ),
  ),
  ...configuration(
    'bucket',
    'intelligent-tiering',
    noneOf(
      'intelligent-tiering',
      'ListBucketIntelligentTieringConfigurationsOutput',
      [
        'ListBucketIntelligentTieringConfigurations',
        'GetBucketIntelligentTieringConfiguration',
        'PutBucketIntelligentTieringConfiguration',
        'DeleteBucketIntelligentTieringConfiguration',
      ],
      ['s3:GetIntelligentTieringConfiguration', 's3:PutIntelligentTieringConfiguration'],
    ),
  ),
];
