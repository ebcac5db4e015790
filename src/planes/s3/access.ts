/**
 * Whether a request may do what it asks, beyond its signature: the permission of its operation
 * (operations.ts), checked against the bucket's policy (an explicit Deny refuses even the zone's own
 * key; an Allow to `*` opens the operation to unsigned requests) and its public access block; and
 * whether the key it was signed with may write at all.
 */
import type { IncomingMessage } from 'node:http';
import type { BucketSettings } from '../../domain/s3/types.js';
import { s3Errors } from './errors.js';
import { type CompiledPolicy, compilePolicy, evaluatePolicy, isPublic } from './settings/policy.js';
import type { Authorize, Permission, S3Call } from './types.js';

/** Actions an unsigned request may be allowed by a policy: objects and listings, never the bucket's configuration. */
const OPEN_TO_ANYONE = new Set<Permission>([
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

/** Whether an operation of this permission only reads: an unsigned request a policy lets in gets write access only for one that does not. */
export const readsOnly = (permission: Permission) => /^s3:(Get|List)/.test(permission);

/** The read-only password signs reads only. */
export function requireWrite(call: S3Call): void {
  if (!call.zone.canWrite) throw s3Errors.accessDenied('Access Denied: the read-only password grants reads only.');
}

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

/**
 * What no Deny keeps from the bucket's owner (the zone's own key), as S3 keeps none of them from
 * the owning account's root: a policy that denies everything can still be read, replaced, removed.
 */
const OWNER_ALWAYS = new Set<Permission>(['s3:GetBucketPolicy', 's3:PutBucketPolicy', 's3:DeleteBucketPolicy']);

/**
 * The checks of a request to `bucket`: `signed` is whether the zone's key signed it. An unsigned
 * request needs an Allow (and, when the policy is public, no RestrictPublicBuckets); any request is
 * refused by a Deny, but for the owner's hold on the policy itself.
 */
export function authorizer(req: IncomingMessage, bucket: string, settings: Readonly<BucketSettings>, signed: boolean, prefix: string | undefined): Authorize {
  let policy: CompiledPolicy | undefined;
  try {
    policy = policyOf(settings, bucket);
  } catch {
    // A policy stored under rules it no longer passes: refuse all but the owner's hold on the policy,
    // so the owner can replace it, rather than apply part of it.
    return (action) => {
      if (signed && OWNER_ALWAYS.has(action)) return;
      throw s3Errors.accessDenied('Access Denied: the stored bucket policy can no longer be applied; put a new one or delete it.');
    };
  }
  // As S3: RestrictPublicBuckets shuts what a public policy opens; a policy limited to addresses stays open to them.
  const restricted = settings.publicAccessBlock?.restrictPublicBuckets === true && policy !== undefined && isPublic(policy);
  return (action, key) => {
    if (!policy) {
      if (signed) return;
      throw s3Errors.accessDenied();
    }
    // DeleteObjects names no object itself: S3 checks s3:DeleteObject on each of its keys, which the operation does.
    if (action === 's3:DeleteObject' && key === undefined && (signed || !restricted)) return;
    const verdict = evaluatePolicy(policy, {
      action,
      resource: key === undefined ? `arn:aws:s3:::${bucket}` : `arn:aws:s3:::${bucket}/${key}`,
      signed,
      sourceIp: req.socket.remoteAddress ?? '',
      secure: false,
      headers: { referer: req.headers.referer, 'user-agent': req.headers['user-agent'] },
      prefix: action === 's3:ListBucket' ? (prefix ?? '') : undefined,
    });
    if (signed) {
      if (verdict === 'deny' && !OWNER_ALWAYS.has(action)) throw s3Errors.accessDenied('Access Denied: an explicit Deny in the bucket policy applies.');
      return;
    }
    if (verdict !== 'allow' || restricted || !OPEN_TO_ANYONE.has(action)) throw s3Errors.accessDenied();
  };
}
