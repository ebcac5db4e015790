/**
 * Whether a request may do what it asks, beyond its signature: the IAM action S3 names for the
 * operation, checked against the bucket's policy (an explicit Deny refuses even the zone's own
 * key; an Allow to `*` opens the operation to unsigned requests) and its public access block.
 */
import type { IncomingMessage } from 'node:http';
import type { BucketSettings } from '../../domain/s3/bucket-settings.js';
import { s3Errors } from './errors.js';
import { type CompiledPolicy, compilePolicy, evaluatePolicy } from './settings/policy.js';

/**
 * Bucket sub-resource → the actions S3 checks for GET, PUT and DELETE of it. In the order the route
 * tries them (bucket-config.ts's BUCKET, then `location` and `uploads`), so a query naming two
 * sub-resources is checked as the one that answers it.
 */
const CONFIGURATION_ACTIONS: Record<string, [get: string, put: string, remove: string]> = {
  acl: ['GetBucketAcl', 'PutBucketAcl', 'PutBucketAcl'],
  versions: ['ListBucketVersions', 'ListBucketVersions', 'ListBucketVersions'],
  tagging: ['GetBucketTagging', 'PutBucketTagging', 'PutBucketTagging'],
  cors: ['GetBucketCORS', 'PutBucketCORS', 'PutBucketCORS'],
  policy: ['GetBucketPolicy', 'PutBucketPolicy', 'DeleteBucketPolicy'],
  policyStatus: ['GetBucketPolicyStatus', 'GetBucketPolicyStatus', 'GetBucketPolicyStatus'],
  publicAccessBlock: ['GetBucketPublicAccessBlock', 'PutBucketPublicAccessBlock', 'PutBucketPublicAccessBlock'],
  lifecycle: ['GetLifecycleConfiguration', 'PutLifecycleConfiguration', 'PutLifecycleConfiguration'],
  versioning: ['GetBucketVersioning', 'PutBucketVersioning', 'PutBucketVersioning'],
  ownershipControls: ['GetBucketOwnershipControls', 'PutBucketOwnershipControls', 'PutBucketOwnershipControls'],
  encryption: ['GetEncryptionConfiguration', 'PutEncryptionConfiguration', 'PutEncryptionConfiguration'],
  website: ['GetBucketWebsite', 'PutBucketWebsite', 'DeleteBucketWebsite'],
  replication: ['GetReplicationConfiguration', 'PutReplicationConfiguration', 'PutReplicationConfiguration'],
  'object-lock': ['GetBucketObjectLockConfiguration', 'PutBucketObjectLockConfiguration', 'PutBucketObjectLockConfiguration'],
  logging: ['GetBucketLogging', 'PutBucketLogging', 'PutBucketLogging'],
  notification: ['GetBucketNotification', 'PutBucketNotification', 'PutBucketNotification'],
  accelerate: ['GetAccelerateConfiguration', 'PutAccelerateConfiguration', 'PutAccelerateConfiguration'],
  requestPayment: ['GetBucketRequestPayment', 'PutBucketRequestPayment', 'PutBucketRequestPayment'],
  analytics: ['GetAnalyticsConfiguration', 'PutAnalyticsConfiguration', 'PutAnalyticsConfiguration'],
  metrics: ['GetMetricsConfiguration', 'PutMetricsConfiguration', 'PutMetricsConfiguration'],
  inventory: ['GetInventoryConfiguration', 'PutInventoryConfiguration', 'PutInventoryConfiguration'],
  'intelligent-tiering': ['GetIntelligentTieringConfiguration', 'PutIntelligentTieringConfiguration', 'PutIntelligentTieringConfiguration'],
  location: ['GetBucketLocation', 'GetBucketLocation', 'GetBucketLocation'],
  uploads: ['ListBucketMultipartUploads', 'PutObject', 'PutObject'],
};

/** Object sub-resources, in the order the route tries them (bucket-config.ts's OBJECT, then `uploadId`). */
const OBJECT_SUBRESOURCE_ACTIONS: Record<string, [get: string, put: string, remove: string]> = {
  acl: ['GetObjectAcl', 'PutObjectAcl', 'PutObjectAcl'],
  tagging: ['GetObjectTagging', 'PutObjectTagging', 'DeleteObjectTagging'],
  attributes: ['GetObjectAttributes', 'GetObjectAttributes', 'GetObjectAttributes'],
  'legal-hold': ['GetObjectLegalHold', 'PutObjectLegalHold', 'PutObjectLegalHold'],
  retention: ['GetObjectRetention', 'PutObjectRetention', 'PutObjectRetention'],
  restore: ['RestoreObject', 'RestoreObject', 'RestoreObject'],
  select: ['GetObject', 'GetObject', 'GetObject'],
  torrent: ['GetObjectTorrent', 'GetObjectTorrent', 'GetObjectTorrent'],
  uploadId: ['ListMultipartUploadParts', 'PutObject', 'AbortMultipartUpload'],
};

function byMethod(actions: [string, string, string], method: string): string {
  return `s3:${method === 'GET' || method === 'HEAD' ? actions[0] : method === 'DELETE' ? actions[2] : actions[1]}`;
}

/** The IAM action S3 checks for a request (`s3:GetObject`, `s3:ListBucket` …). */
export function actionOf(method: string, key: string | undefined, query: Map<string, string>): string {
  if (key === undefined) {
    for (const [name, actions] of Object.entries(CONFIGURATION_ACTIONS)) if (query.has(name)) return byMethod(actions, method);
    // Any other parameter (`prefix=`, `start-after=` … empty or not) is a listing's, as the route takes it.
    if (method === 'GET' || method === 'HEAD') return 's3:ListBucket';
    if (method === 'POST' && query.has('delete')) return 's3:DeleteObject';
    if (method === 'DELETE') return 's3:DeleteBucket';
    return 's3:CreateBucket';
  }
  for (const [name, actions] of Object.entries(OBJECT_SUBRESOURCE_ACTIONS)) if (query.has(name)) return byMethod(actions, method);
  if (method === 'GET' || method === 'HEAD') return 's3:GetObject';
  if (method === 'DELETE') return 's3:DeleteObject';
  return 's3:PutObject';
}

/** Actions an unsigned request may be allowed by a policy: objects and listings, never the bucket's configuration. */
const OPEN_TO_ANYONE = new Set([
  's3:GetObject',
  's3:PutObject',
  's3:DeleteObject',
  's3:ListBucket',
  's3:GetObjectTagging',
  's3:PutObjectTagging',
  's3:DeleteObjectTagging',
  's3:GetObjectAttributes',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
  's3:ListBucketMultipartUploads',
  's3:GetBucketLocation',
]);

export const readsOnly = (action: string) => /^s3:(Get|List)/.test(action);

const compiled = new WeakMap<Readonly<BucketSettings>, CompiledPolicy>();

/** The bucket's policy, compiled once per version of its settings (it was checked when it was put). */
export function policyOf(settings: Readonly<BucketSettings>, bucket: string): CompiledPolicy | undefined {
  if (settings.policy === undefined) return undefined;
  let policy = compiled.get(settings);
  if (!policy) {
    policy = compilePolicy(settings.policy, bucket, bucket);
    compiled.set(settings, policy);
  }
  return policy;
}

/** Checks one action on one key (or the bucket) for a request; throws AccessDenied when refused. */
export type Authorize = (action: string, key?: string) => void;

/**
 * The checks of a request to `bucket`: `signed` is whether the zone's key signed it. An unsigned
 * request needs an Allow (and no public access block that restricts the bucket); any request is
 * refused by a Deny.
 */
export function authorizer(req: IncomingMessage, bucket: string, settings: Readonly<BucketSettings>, signed: boolean, prefix: string | undefined): Authorize {
  const policy = policyOf(settings, bucket);
  const restricted = settings.publicAccessBlock?.restrictPublicBuckets === true;
  return (action, key) => {
    if (!policy) {
      if (signed) return;
      throw s3Errors.accessDenied();
    }
    const verdict = evaluatePolicy(policy, {
      action,
      resource: key === undefined ? `arn:aws:s3:::${bucket}` : `arn:aws:s3:::${bucket}/${key}`,
      signed,
      sourceIp: req.socket.remoteAddress ?? '',
      secure: false,
      headers: { referer: req.headers.referer, 'user-agent': req.headers['user-agent'] },
      prefix: action === 's3:ListBucket' ? (prefix ?? '') : undefined,
    });
    if (verdict === 'deny') throw s3Errors.accessDenied('Access Denied: an explicit Deny in the bucket policy applies.');
    if (signed) return;
    if (verdict !== 'allow' || restricted || !OPEN_TO_ANYONE.has(action)) throw s3Errors.accessDenied();
  };
}
