/**
 * The sub-resources S3 keeps a bucket's or an object's configuration in (`?tagging`, `?cors`,
 * `?policy` …). Those edgeplane has are stored with the zone (see domain/s3/bucket-settings.ts)
 * and applied: tags, CORS, the policy and its public access block, lifecycle rules, versioning
 * suspended. Those that describe what is already so are answered as S3 answers them (ownership
 * enforced, ACLs disabled, no logging, no notifications) and accept a write that changes nothing.
 * Features edgeplane does not have are refused with S3's own answers where S3 has one (Object Lock
 * without versioning, restoring an object that was never archived) and otherwise NotImplemented,
 * each with the reason (see ABSENT).
 */
import { tagsOf, withTags } from '../../domain/s3/object-tags.js';
import type { BucketSettings, PublicAccessBlock } from '../../domain/s3/types.js';
import { header, requireWrite, type S3Call, sendEmpty, sendXml, smallBody } from './call.js';
import { S3Error, s3Errors } from './errors.js';
import { listObjectVersions } from './listing.js';
import { objectAt } from './objects.js';
import { getAcl, OWNERSHIP_XML, putAcl } from './settings/acl.js';
import { corsXml, parseCors } from './settings/cors.js';
import { lifecycleXml, parseLifecycle } from './settings/lifecycle.js';
import { compilePolicy, isPublic } from './settings/policy.js';
import { MAX_BUCKET_TAGS, MAX_OBJECT_TAGS, parseTagging, taggingXml } from './settings/tagging.js';
import { element, parseXml, rootElement, textOf } from './xml.js';

type Operation = () => Promise<void> | void;
/** The IAM actions S3 checks for reading (GET, HEAD), writing (PUT, POST) and deleting a sub-resource (see access.ts). */
export type Actions = [read: string, write: string, remove: string];
/** A sub-resource: what each method does with it, and the actions a bucket policy names them by. */
type SubResource = { actions: Actions } & Partial<Record<'GET' | 'PUT' | 'DELETE' | 'POST', (call: S3Call) => Promise<void> | void>>;

/** S3's limit for a configuration document; a lifecycle configuration of 1,000 rules needs more. */
const CONFIG_BODY_BYTES = 64 * 1024;
const LIFECYCLE_BODY_BYTES = 4 * 1024 * 1024;

/** Features edgeplane does not have, and why: a write that would turn one on is NotImplemented with this reason. */
const ABSENT = {
  versioning: 'every object has exactly one version (null); versioning can be suspended, not enabled',
  mfaDelete: 'MFA delete needs versioning, which is never enabled here',
  encryption: 'edgeplane stores files as they are sent and does not encrypt them at rest; it says so rather than claim it',
  website: 'static sites are served by a pull zone whose origin is the storage zone (the edge plane)',
  replication: 'a storage zone replicates to its ReplicationRegions, set through the management API, not to other buckets',
  logging: 'pull zones keep access logs (EnableLogging); the S3 plane keeps no server access log',
  notification: 'there are no event destinations (SNS topics, SQS queues, Lambda functions) to notify',
  accelerate: 'transfer acceleration is a feature of the AWS network',
  requestPayment: 'there are no other accounts to bill: the zone owner pays',
  analytics: 'storage class analysis is an AWS service; the zone statistics are in the management API',
  metrics: 'request metrics are a CloudWatch service; the zone statistics are in the management API',
  inventory: 'inventory reports are an AWS service; ListObjectsV2 lists the zone',
  'intelligent-tiering': 'every object is kept in the one STANDARD storage class',
  select: 'S3 Select (SQL over an object) is not available',
  torrent: 'objects are not served over BitTorrent',
} as const;

function absent(feature: keyof typeof ABSENT): S3Error {
  return new S3Error('NotImplemented', `Not available in edgeplane: ${ABSENT[feature]}.`, 501);
}

const NO_POLICY: [string, string] = ['NoSuchBucketPolicy', 'The bucket policy does not exist'];
const settingsOf = (call: S3Call): Readonly<BucketSettings> => call.auth.settings;
const saveSetting = <K extends keyof BucketSettings>(call: S3Call, name: K, value: BucketSettings[K] | undefined) =>
  call.deps.buckets.set(call.zone, name, value);

function notConfigured(call: S3Call, code: string, message: string): never {
  throw new S3Error(code, message, 404, { BucketName: call.zone.zoneName });
}

async function configBody(call: S3Call, root: string): Promise<Record<string, unknown>> {
  return parseXml(await smallBody(call, CONFIG_BODY_BYTES), root);
}

/** A write that stores a configuration (or removes it), answered with `status`. */
const writer =
  (status: number, write: (call: S3Call) => Promise<void>) =>
  async (call: S3Call): Promise<void> => {
    requireWrite(call);
    await write(call);
    sendEmpty(call.res, status);
  };

/** A write that changes nothing when the document says what is already so, and refuses anything else. */
const unchanged =
  (root: string, isSo: (doc: Record<string, unknown>) => boolean, refusal: () => S3Error) =>
  async (call: S3Call): Promise<void> => {
    requireWrite(call);
    if (!isSo(await configBody(call, root))) throw refusal();
    sendEmpty(call.res, 200);
  };

const emptyDocument = (doc: Record<string, unknown>) => Object.keys(doc).length === 0;
/** DELETE of a configuration that cannot exist: there is nothing to remove, which S3 answers with 204. */
const nothingToDelete = writer(204, async () => {});

/** GET and DELETE of a configuration kept in the settings: `answer` sends it, or it is S3's "not found" for it. */
function kept<K extends keyof BucketSettings>(
  name: K,
  [code, message]: [code: string, message: string],
  answer: (call: S3Call, value: NonNullable<BucketSettings[K]>) => void,
): Pick<SubResource, 'GET' | 'DELETE'> {
  return {
    GET: (call) => {
      const value = settingsOf(call)[name];
      if (value === undefined) notConfigured(call, code, message);
      answer(call, value as NonNullable<BucketSettings[K]>);
    },
    DELETE: writer(204, (call) => saveSetting(call, name, undefined)),
  };
}

const xmlOf =
  <T>(render: (value: T) => string) =>
  (call: S3Call, value: T) =>
    sendXml(call.res, 200, render(value));

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

/** A configuration of a feature edgeplane does not have: never set (S3's "not found"), refused when put, nothing to delete. */
function unavailable(feature: keyof typeof ABSENT, actions: Actions, [code, message]: [code: string, message: string]): SubResource {
  return {
    actions,
    GET: (call) => notConfigured(call, code, message),
    PUT: () => {
      throw absent(feature);
    },
    DELETE: nothingToDelete,
  };
}

/** Listing configurations of a feature that has none: `?analytics` lists none, `?analytics&id=x` names none. */
function noneOf(feature: keyof typeof ABSENT, listRoot: string, actions: Actions): SubResource {
  return {
    actions,
    GET: (call) => {
      if (call.query.has('id')) throw new S3Error('NoSuchConfiguration', 'The specified configuration does not exist.', 404);
      sendXml(call.res, 200, rootElement(listRoot, [element('IsTruncated', false)]));
    },
    PUT: () => {
      throw absent(feature);
    },
    DELETE: () => {
      throw new S3Error('NoSuchConfiguration', 'The specified configuration does not exist.', 404);
    },
  };
}

const BUCKET: Record<string, SubResource> = {
  acl: {
    actions: ['GetBucketAcl', 'PutBucketAcl', 'PutBucketAcl'],
    GET: getAcl,
    PUT: (call) => {
      requireWrite(call);
      return putAcl(call);
    },
  },
  versions: { actions: ['ListBucketVersions', 'ListBucketVersions', 'ListBucketVersions'], GET: listObjectVersions },
  tagging: {
    actions: ['GetBucketTagging', 'PutBucketTagging', 'PutBucketTagging'],
    ...kept('tags', ['NoSuchTagSet', 'The TagSet does not exist'], xmlOf(taggingXml)),
    PUT: writer(204, async (call) => saveSetting(call, 'tags', parseTagging(await smallBody(call, CONFIG_BODY_BYTES), MAX_BUCKET_TAGS, 'bucket'))),
  },
  cors: {
    actions: ['GetBucketCORS', 'PutBucketCORS', 'PutBucketCORS'],
    ...kept('cors', ['NoSuchCORSConfiguration', 'The CORS configuration does not exist'], xmlOf(corsXml)),
    PUT: writer(200, async (call) => saveSetting(call, 'cors', parseCors(await smallBody(call, CONFIG_BODY_BYTES)))),
  },
  policy: {
    actions: ['GetBucketPolicy', 'PutBucketPolicy', 'DeleteBucketPolicy'],
    ...kept('policy', NO_POLICY, (call, policy) => {
      call.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(policy) });
      call.res.end(policy);
    }),
    PUT: writer(204, async (call) => {
      const text = (await smallBody(call, CONFIG_BODY_BYTES)).toString('utf8');
      const compiled = compilePolicy(text, call.zone.zoneName, call.zone.zoneName);
      if (settingsOf(call).publicAccessBlock?.blockPublicPolicy && isPublic(compiled))
        throw s3Errors.accessDenied('Access Denied: public policies are blocked by the BlockPublicPolicy block public access setting.');
      await saveSetting(call, 'policy', text);
    }),
  },
  policyStatus: {
    actions: ['GetBucketPolicyStatus', 'GetBucketPolicyStatus', 'GetBucketPolicyStatus'],
    GET: kept('policy', NO_POLICY, (call, policy) => {
      const open = isPublic(compilePolicy(policy, call.zone.zoneName, call.zone.zoneName));
      sendXml(call.res, 200, rootElement('PolicyStatus', [element('IsPublic', open)]));
    }).GET,
  },
  publicAccessBlock: {
    actions: ['GetBucketPublicAccessBlock', 'PutBucketPublicAccessBlock', 'PutBucketPublicAccessBlock'],
    ...kept('publicAccessBlock', ['NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found'], xmlOf(publicAccessBlockXml)),
    PUT: writer(200, async (call) => {
      const doc = await configBody(call, 'PublicAccessBlockConfiguration');
      await saveSetting(call, 'publicAccessBlock', {
        blockPublicAcls: parseBoolean(doc.BlockPublicAcls, 'BlockPublicAcls'),
        ignorePublicAcls: parseBoolean(doc.IgnorePublicAcls, 'IgnorePublicAcls'),
        blockPublicPolicy: parseBoolean(doc.BlockPublicPolicy, 'BlockPublicPolicy'),
        restrictPublicBuckets: parseBoolean(doc.RestrictPublicBuckets, 'RestrictPublicBuckets'),
      });
    }),
  },
  lifecycle: {
    actions: ['GetLifecycleConfiguration', 'PutLifecycleConfiguration', 'PutLifecycleConfiguration'],
    ...kept('lifecycle', ['NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist'], xmlOf(lifecycleXml)),
    PUT: writer(200, async (call) => saveSetting(call, 'lifecycle', parseLifecycle(await smallBody(call, LIFECYCLE_BODY_BYTES)))),
  },
  versioning: {
    actions: ['GetBucketVersioning', 'PutBucketVersioning', 'PutBucketVersioning'],
    GET: (call) => {
      const status = settingsOf(call).versioning;
      sendXml(call.res, 200, rootElement('VersioningConfiguration', status === undefined ? [] : [element('Status', status), element('MfaDelete', 'Disabled')]));
    },
    PUT: writer(200, async (call) => {
      const doc = await configBody(call, 'VersioningConfiguration');
      const status = textOf(doc.Status).trim();
      if (textOf(doc.MfaDelete).trim() === 'Enabled') throw absent('mfaDelete');
      if (status === 'Enabled') throw absent('versioning');
      if (status !== 'Suspended') throw s3Errors.malformedXml();
      await saveSetting(call, 'versioning', 'Suspended');
    }),
  },
  ownershipControls: {
    actions: ['GetBucketOwnershipControls', 'PutBucketOwnershipControls', 'PutBucketOwnershipControls'],
    GET: (call) => sendXml(call.res, 200, OWNERSHIP_XML),
    PUT: unchanged(
      'OwnershipControls',
      (doc) => Array.isArray(doc.Rule) && doc.Rule.length === 1 && textOf(doc.Rule[0]?.ObjectOwnership).trim() === 'BucketOwnerEnforced',
      () =>
        new S3Error(
          'InvalidRequest',
          'Buckets here always enforce bucket ownership (ACLs are disabled): ObjectOwnership can only be BucketOwnerEnforced.',
          400,
        ),
    ),
    DELETE: () => {
      throw new S3Error('InvalidRequest', 'Buckets here always enforce bucket ownership (ACLs are disabled): the ownership controls cannot be removed.', 400);
    },
  },
  encryption: unavailable(
    'encryption',
    ['GetEncryptionConfiguration', 'PutEncryptionConfiguration', 'PutEncryptionConfiguration'],
    ['ServerSideEncryptionConfigurationNotFoundError', 'The server side encryption configuration was not found'],
  ),
  website: unavailable(
    'website',
    ['GetBucketWebsite', 'PutBucketWebsite', 'DeleteBucketWebsite'],
    ['NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration'],
  ),
  replication: unavailable(
    'replication',
    ['GetReplicationConfiguration', 'PutReplicationConfiguration', 'PutReplicationConfiguration'],
    ['ReplicationConfigurationNotFoundError', 'The replication configuration was not found'],
  ),
  'object-lock': {
    actions: ['GetBucketObjectLockConfiguration', 'PutBucketObjectLockConfiguration', 'PutBucketObjectLockConfiguration'],
    GET: (call) => notConfigured(call, 'ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket'),
    // S3's own answer for a bucket without versioning, which every bucket here is.
    PUT: () => {
      throw new S3Error('InvalidBucketState', "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration", 409);
    },
  },
  logging: {
    actions: ['GetBucketLogging', 'PutBucketLogging', 'PutBucketLogging'],
    GET: (call) => sendXml(call.res, 200, rootElement('BucketLoggingStatus', [])),
    PUT: unchanged('BucketLoggingStatus', emptyDocument, () => absent('logging')),
  },
  notification: {
    actions: ['GetBucketNotification', 'PutBucketNotification', 'PutBucketNotification'],
    GET: (call) => sendXml(call.res, 200, rootElement('NotificationConfiguration', [])),
    PUT: unchanged('NotificationConfiguration', emptyDocument, () => absent('notification')),
  },
  accelerate: {
    actions: ['GetAccelerateConfiguration', 'PutAccelerateConfiguration', 'PutAccelerateConfiguration'],
    GET: (call) => sendXml(call.res, 200, rootElement('AccelerateConfiguration', [])),
    PUT: unchanged(
      'AccelerateConfiguration',
      (doc) => textOf(doc.Status).trim() === 'Suspended',
      () => absent('accelerate'),
    ),
  },
  requestPayment: {
    actions: ['GetBucketRequestPayment', 'PutBucketRequestPayment', 'PutBucketRequestPayment'],
    GET: (call) => sendXml(call.res, 200, rootElement('RequestPaymentConfiguration', [element('Payer', 'BucketOwner')])),
    PUT: unchanged(
      'RequestPaymentConfiguration',
      (doc) => textOf(doc.Payer).trim() === 'BucketOwner',
      () => absent('requestPayment'),
    ),
  },
  analytics: noneOf('analytics', 'ListBucketAnalyticsConfigurationResult', [
    'GetAnalyticsConfiguration',
    'PutAnalyticsConfiguration',
    'PutAnalyticsConfiguration',
  ]),
  metrics: noneOf('metrics', 'ListMetricsConfigurationsResult', ['GetMetricsConfiguration', 'PutMetricsConfiguration', 'PutMetricsConfiguration']),
  inventory: noneOf('inventory', 'ListInventoryConfigurationsResult', ['GetInventoryConfiguration', 'PutInventoryConfiguration', 'PutInventoryConfiguration']),
  'intelligent-tiering': noneOf('intelligent-tiering', 'ListBucketIntelligentTieringConfigurationsOutput', [
    'GetIntelligentTieringConfiguration',
    'PutIntelligentTieringConfiguration',
    'PutIntelligentTieringConfiguration',
  ]),
};

const noObjectLock = () => {
  throw new S3Error('InvalidRequest', 'Bucket is missing Object Lock Configuration', 400);
};

const OBJECT: Record<string, SubResource> = {
  acl: {
    actions: ['GetObjectAcl', 'PutObjectAcl', 'PutObjectAcl'],
    GET: async (call) => {
      await objectAt(call, call.zone, call.key!);
      getAcl(call);
    },
    PUT: async (call) => {
      requireWrite(call);
      await objectAt(call, call.zone, call.key!);
      await putAcl(call);
    },
  },
  tagging: {
    actions: ['GetObjectTagging', 'PutObjectTagging', 'DeleteObjectTagging'],
    GET: async (call) => {
      const file = await objectAt(call, call.zone, call.key!);
      sendXml(call.res, 200, taggingXml(tagsOf(file.metadata)));
    },
    PUT: writer(200, async (call) => {
      await objectAt(call, call.zone, call.key!);
      const tags = parseTagging(await smallBody(call, CONFIG_BODY_BYTES), MAX_OBJECT_TAGS, 'object');
      await call.deps.files.editMetadata(call.zone, call.key!, (metadata) => withTags(metadata, tags));
    }),
    DELETE: writer(204, async (call) => {
      await objectAt(call, call.zone, call.key!);
      await call.deps.files.editMetadata(call.zone, call.key!, (metadata) => withTags(metadata, []));
    }),
  },
  attributes: { actions: ['GetObjectAttributes', 'GetObjectAttributes', 'GetObjectAttributes'], GET: objectAttributes },
  'legal-hold': { actions: ['GetObjectLegalHold', 'PutObjectLegalHold', 'PutObjectLegalHold'], GET: noObjectLock, PUT: noObjectLock },
  retention: { actions: ['GetObjectRetention', 'PutObjectRetention', 'PutObjectRetention'], GET: noObjectLock, PUT: noObjectLock },
  // S3's answer for an object that is not archived, which no object here is.
  restore: {
    actions: ['RestoreObject', 'RestoreObject', 'RestoreObject'],
    POST: () => {
      throw new S3Error('InvalidObjectState', "Restore is not allowed for the object's current storage class", 403);
    },
  },
  select: {
    actions: ['GetObject', 'GetObject', 'GetObject'],
    POST: () => {
      throw absent('select');
    },
  },
  torrent: {
    actions: ['GetObjectTorrent', 'GetObjectTorrent', 'GetObjectTorrent'],
    GET: () => {
      throw absent('torrent');
    },
  },
};

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

/** The sub-resource the query names (the first the tables list, as the route takes it), undefined when none. */
export function subResourceOf(key: string | undefined, query: Map<string, string>): SubResource | undefined {
  const table = key === undefined ? BUCKET : OBJECT;
  const name = Object.keys(table).find((candidate) => query.has(candidate));
  return name === undefined ? undefined : table[name];
}

/** The operation a configuration sub-resource in the query names, or undefined when it names none. */
export function configurationOperation(call: S3Call, method: string): Operation | undefined {
  const subResource = subResourceOf(call.key, call.query);
  if (subResource === undefined) return undefined;
  const run = subResource[method as 'GET' | 'PUT' | 'DELETE' | 'POST'];
  if (!run) return () => methodNotAllowed();
  return () => run(call);
}

function methodNotAllowed(): never {
  throw new S3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405);
}
