/**
 * The bucket itself, which is the storage zone: HeadBucket and GetBucketLocation answer its
 * region; CreateBucket finds it made already; DeleteBucket is refused (the management API deletes
 * a zone).
 */
import { s3Errors } from './errors.js';
import { sendEmpty, sendXml } from './respond.js';
import type { S3Call } from './types.js';
import { element, S3_NAMESPACE } from './xml.js';

export function headBucket(call: S3Call): void {
  sendEmpty(call.res, 200, { 'x-amz-bucket-region': call.zone.region.toLowerCase() });
}

export function bucketLocation(call: S3Call): void {
  sendXml(call.res, 200, element('LocationConstraint', call.zone.region.toLowerCase(), ` xmlns="${S3_NAMESPACE}"`));
}

/** The zone exists already (it is the bucket): creating it again changes nothing, as in us-east-1. */
export function createBucket(call: S3Call): void {
  if (!call.zone.canWrite) throw s3Errors.accessDenied();
  sendEmpty(call.res, 200, { location: `/${call.zone.zoneName}` });
}

export function deleteBucket(): never {
  throw s3Errors.methodNotAllowed('A storage zone (bucket) is deleted through the management API, not through S3.');
}
