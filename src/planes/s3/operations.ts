/**
 * The S3 operation table: each request the plane answers is one row, found by its method, what it
 * is addressed to (the service, a bucket, an object), the sub-resource or header that picks it,
 * and giving S3's name for the operation, the permission a bucket policy names it by and what
 * does it. A request is parsed into its operation once (`operationOf`); routing runs it and
 * authorisation checks its permission, the way garage's `Endpoint` carries its authorization type.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { bucketLocation, createBucket, deleteBucket, headBucket } from './bucket.js';
import { BUCKET_CONFIGURATIONS } from './bucket-config.js';
import { copyObject } from './copy-object.js';
import { deleteObject, deleteObjects } from './delete-objects.js';
import { s3Errors } from './errors.js';
import { getObject, headObject } from './get-object.js';
import { listBuckets, listObjectsV1, listObjectsV2 } from './listing.js';
import { abortUpload, completeUpload, createUpload, listParts, listUploads, uploadPart, uploadPartCopy } from './multipart-routes.js';
import { OBJECT_CONFIGURATIONS } from './object-config.js';
import { putObject } from './put-object.js';
import type { Operation, S3Operation, Selector, Target } from './types.js';

const PART = ['uploadId', 'partNumber'];
const COPY = 'x-amz-copy-source';

/**
 * Rows of one method on one target are tried in order, the first whose selector holds taking the
 * request; a configuration sub-resource named in the query (bucket-config.ts, object-config.ts)
 * takes it before any of them.
 */
export const OPERATIONS: readonly S3Operation[] = [
  // The service lists one bucket, the signing key's zone; no bucket policy applies to it.
  { name: 'ListBuckets', target: 'service', method: 'GET', permission: 's3:ListAllMyBuckets', run: listBuckets },

  { name: 'HeadBucket', target: 'bucket', method: 'HEAD', permission: 's3:ListBucket', run: headBucket },
  { name: 'GetBucketLocation', target: 'bucket', method: 'GET', when: { query: 'location' }, permission: 's3:GetBucketLocation', run: bucketLocation },
  { name: 'ListMultipartUploads', target: 'bucket', method: 'GET', when: { query: 'uploads' }, permission: 's3:ListBucketMultipartUploads', run: listUploads },
  { name: 'ListObjectsV2', target: 'bucket', method: 'GET', when: { query: 'list-type', value: '2' }, permission: 's3:ListBucket', run: listObjectsV2 },
  // Any other parameter (`prefix=`, `marker=` … empty or not) is a listing's.
  { name: 'ListObjects', target: 'bucket', method: 'GET', permission: 's3:ListBucket', run: listObjectsV1 },
  // The policy is checked on each key too (delete-objects.ts).
  { name: 'DeleteObjects', target: 'bucket', method: 'POST', when: { query: 'delete' }, permission: 's3:DeleteObject', run: deleteObjects },
  { name: 'CreateBucket', target: 'bucket', method: 'PUT', permission: 's3:CreateBucket', run: createBucket },
  { name: 'DeleteBucket', target: 'bucket', method: 'DELETE', permission: 's3:DeleteBucket', run: deleteBucket },
  ...BUCKET_CONFIGURATIONS,

  { name: 'ListParts', target: 'object', method: 'GET', when: { query: 'uploadId' }, permission: 's3:ListMultipartUploadParts', run: listParts },
  { name: 'GetObject', target: 'object', method: 'GET', permission: 's3:GetObject', run: getObject },
  { name: 'HeadObject', target: 'object', method: 'HEAD', permission: 's3:GetObject', run: headObject },
  { name: 'UploadPartCopy', target: 'object', method: 'PUT', when: { query: PART, header: COPY }, permission: 's3:PutObject', run: uploadPartCopy },
  { name: 'UploadPart', target: 'object', method: 'PUT', when: { query: PART }, permission: 's3:PutObject', run: uploadPart },
  // The source is checked for s3:GetObject too (copy-object.ts).
  { name: 'CopyObject', target: 'object', method: 'PUT', when: { header: COPY }, permission: 's3:PutObject', run: copyObject },
  { name: 'PutObject', target: 'object', method: 'PUT', permission: 's3:PutObject', run: putObject },
  { name: 'AbortMultipartUpload', target: 'object', method: 'DELETE', when: { query: 'uploadId' }, permission: 's3:AbortMultipartUpload', run: abortUpload },
  { name: 'DeleteObject', target: 'object', method: 'DELETE', permission: 's3:DeleteObject', run: deleteObject },
  { name: 'CreateMultipartUpload', target: 'object', method: 'POST', when: { query: 'uploads' }, permission: 's3:PutObject', run: createUpload },
  { name: 'CompleteMultipartUpload', target: 'object', method: 'POST', when: { query: 'uploadId' }, permission: 's3:PutObject', run: completeUpload },
  ...OBJECT_CONFIGURATIONS,
];

const indexKey = (target: Target, configuration: string | undefined, method: string) => `${target} ${configuration ?? ''} ${method}`;

/** The rows of each target, configuration sub-resource and method, in table order. */
const ROWS = new Map<string, S3Operation[]>();
/** Each target's configuration sub-resources, by their rank in the table: a query naming several is taken by the first. */
const CONFIGURATIONS = new Map<Target, Map<string, number>>([
  ['bucket', new Map()],
  ['object', new Map()],
]);
for (const operation of OPERATIONS) {
  const key = indexKey(operation.target, operation.configuration, operation.method);
  ROWS.set(key, [...(ROWS.get(key) ?? []), operation]);
  const ranks = CONFIGURATIONS.get(operation.target);
  if (operation.configuration !== undefined && ranks && !ranks.has(operation.configuration)) ranks.set(operation.configuration, ranks.size);
}

function configurationIn(target: Target, query: Map<string, string>): string | undefined {
  const ranks = CONFIGURATIONS.get(target);
  if (!ranks) return undefined;
  let first: string | undefined;
  for (const name of query.keys()) {
    const rank = ranks.get(name);
    if (rank !== undefined && (first === undefined || rank < ranks.get(first)!)) first = name;
  }
  return first;
}

function holds(when: Selector | undefined, query: Map<string, string>, headers: IncomingHttpHeaders): boolean {
  if (when === undefined) return true;
  if (when.query !== undefined) {
    const names = typeof when.query === 'string' ? [when.query] : when.query;
    if (!names.some((name) => query.has(name) && (when.value === undefined || query.get(name) === when.value))) return false;
  }
  return when.header === undefined || headers[when.header] !== undefined;
}

/** The operation a request is: the first row that takes it, or the refusal of its method there. */
export function operationOf(method: string, target: Target, query: Map<string, string>, headers: IncomingHttpHeaders): Operation {
  const configuration = configurationIn(target, query);
  const row = ROWS.get(indexKey(target, configuration, method))?.find((operation) => holds(operation.when, query, headers));
  return row ?? refusal(target, configuration, method);
}

type Kind = 'read' | 'write' | 'remove';
const kindOf = (method: string): Kind => (method === 'GET' || method === 'HEAD' ? 'read' : method === 'DELETE' ? 'remove' : 'write');

/**
 * A method the target (or its configuration sub-resource) has no operation for: MethodNotAllowed,
 * once the request has passed the checks of the operations of its kind there (reading, writing,
 * removing; a kind with none, those that write, else any), so that what a policy refuses or an
 * unsigned request may not do is refused as such first.
 */
function refusal(target: Target, configuration: string | undefined, method: string): Operation {
  const rows = OPERATIONS.filter(
    (operation) => operation.target === target && operation.configuration === configuration && (configuration !== undefined || !operation.when),
  );
  const kind = kindOf(method);
  const like = rows.find((operation) => kindOf(operation.method) === kind) ?? rows.find((operation) => kindOf(operation.method) === 'write') ?? rows[0]!;
  return {
    name: 'MethodNotAllowed',
    permission: like.permission,
    configuration,
    run: () => {
      throw s3Errors.methodNotAllowed();
    },
  };
}
