/**
 * The S3 operation table (src/planes/s3/operations.ts), walked: every operation has S3's name (no
 * two the same), a permission and a handler, and a request made for it is parsed into it; then,
 * over a real socket on both stores, what a request no operation takes is answered: the S3 error
 * it always was, after the checks of its kind (an unsigned one refused unless the policy allows
 * what it would be, a version id refused before the method, a configuration sub-resource before
 * either).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { PutBucketPolicyCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, operationOf } from '../../../src/planes/s3/operations.js';
import type { S3Operation } from '../../../src/planes/s3/types.js';
import { errorCode, errorMessage, rawRequest, signedRequest } from '../../helpers/s3-raw.js';
import { type S3Env, useS3Env } from '../../helpers/s3-plane.js';

/** A request that names exactly what the row's selector and configuration ask for. */
function requestFor(operation: S3Operation): { query: Map<string, string>; headers: IncomingHttpHeaders } {
  const query = new Map<string, string>();
  const headers: IncomingHttpHeaders = {};
  if (operation.configuration !== undefined) query.set(operation.configuration, '');
  const names = operation.when?.query;
  if (names !== undefined) query.set(typeof names === 'string' ? names : names[0]!, operation.when?.value ?? 'x');
  if (operation.when?.header !== undefined) headers[operation.when.header] = 'x';
  return { query, headers };
}

describe('S3 operation table', () => {
  it('gives every operation a unique S3 name, a permission and a handler', () => {
    const names = OPERATIONS.map((operation) => operation.name);
    expect(new Set(names).size).toBe(names.length);
    for (const operation of OPERATIONS) {
      expect(operation.name, JSON.stringify(operation)).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(operation.permission, operation.name).toMatch(/^s3:[A-Z][A-Za-z]+$/);
      expect(operation.run, operation.name).toBeTypeOf('function');
    }
    // The plane's whole vocabulary is there, objects, multipart and configurations alike.
    for (const name of ['ListBuckets', 'ListObjectsV2', 'GetObject', 'PutObject', 'CopyObject', 'UploadPartCopy', 'CreateMultipartUpload', 'PutBucketPolicy'])
      expect(names).toContain(name);
  });

  it('parses a request made for each operation into that operation', () => {
    for (const operation of OPERATIONS) {
      const { query, headers } = requestFor(operation);
      expect(operationOf(operation.method, operation.target, query, headers), operation.name).toBe(operation);
    }
  });

  it('checks the permission S3 names for the multipart, copy and tagging operations', () => {
    const permission = (method: string, target: 'bucket' | 'object', query: Record<string, string>, headers: IncomingHttpHeaders = {}) =>
      operationOf(method, target, new Map(Object.entries(query)), headers).permission;
    expect(permission('GET', 'bucket', { uploads: '' })).toBe('s3:ListBucketMultipartUploads');
    expect(permission('GET', 'object', { uploadId: 'u' })).toBe('s3:ListMultipartUploadParts');
    expect(permission('DELETE', 'object', { uploadId: 'u' })).toBe('s3:AbortMultipartUpload');
    expect(permission('PUT', 'object', { partNumber: '1', uploadId: 'u' }, { 'x-amz-copy-source': 'b/k' })).toBe('s3:PutObject');
    expect(permission('DELETE', 'object', { tagging: '' })).toBe('s3:DeleteObjectTagging');
    expect(permission('DELETE', 'bucket', { tagging: '' })).toBe('s3:PutBucketTagging');
    expect(permission('POST', 'bucket', { delete: '' })).toBe('s3:DeleteObject');
    // A query naming several configuration sub-resources is the first's; the rest of the query does not matter.
    expect(
      operationOf(
        'GET',
        'bucket',
        new Map([
          ['cors', ''],
          ['acl', ''],
          ['uploads', ''],
        ]),
        {},
      ).name,
    ).toBe('GetBucketAcl');
    expect(
      operationOf(
        'GET',
        'bucket',
        new Map([
          ['prefix', 'a/'],
          ['delete', ''],
        ]),
        {},
      ).name,
    ).toBe('ListObjects');
  });

  it('refuses a method the table has no operation for, checked as its kind of operation there', () => {
    const refusal = (method: string, target: 'service' | 'bucket' | 'object', query: Record<string, string> = {}) =>
      operationOf(method, target, new Map(Object.entries(query)), {});
    expect(refusal('PATCH', 'object')).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:PutObject' });
    expect(refusal('POST', 'object')).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:PutObject' });
    expect(refusal('POST', 'bucket')).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:CreateBucket' });
    expect(refusal('PUT', 'service')).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:ListAllMyBuckets' });
    expect(refusal('HEAD', 'bucket', { policy: '' })).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:GetBucketPolicy', configuration: 'policy' });
    expect(refusal('POST', 'bucket', { tagging: '' })).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:PutBucketTagging' });
    expect(refusal('DELETE', 'bucket', { versioning: '' })).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:PutBucketVersioning' });
    expect(refusal('GET', 'object', { restore: '' })).toMatchObject({ name: 'MethodNotAllowed', permission: 's3:RestoreObject' });
  });
});

describe('S3 requests no operation takes', () => {
  const env = useS3Env('ops');
  const signed = (method: string, path: string, query: Record<string, string> = {}, secret?: string) =>
    signedRequest(env.plane, env.zone, method, path, { query, ...(secret === undefined ? {} : { secret }) });
  const notAllowed = { status: 405, code: 'MethodNotAllowed', message: 'The specified method is not allowed against this resource.' };
  const answer = async (pending: ReturnType<typeof signed>) => {
    const { status, body } = await pending;
    return { status, code: errorCode(body), message: errorMessage(body) };
  };
  const allowAnyone = (env: S3Env, Action: string) =>
    env.s3.send(
      new PutBucketPolicyCommand({
        Bucket: env.zone.Name,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: '*', Action, Resource: [`arn:aws:s3:::${env.zone.Name}`, `arn:aws:s3:::${env.zone.Name}/*`] }],
        }),
      }),
    );

  it('answers MethodNotAllowed to a signed request, a configuration sub-resource and a version id taken first', async () => {
    const bucket = `/${env.zone.Name}`;
    await env.s3.send(new PutObjectCommand({ Bucket: env.zone.Name, Key: 'k', Body: 'k' }));
    expect(await answer(signed('PATCH', `${bucket}/k`))).toEqual(notAllowed);
    expect(await answer(signed('POST', `${bucket}/k`))).toEqual(notAllowed);
    expect(await answer(signed('POST', bucket))).toEqual(notAllowed);
    expect(await answer(signed('POST', bucket, { tagging: '' }))).toEqual(notAllowed);
    expect(await answer(signed('PUT', `${bucket}/k`, { restore: '' }))).toEqual(notAllowed);
    expect((await signed('HEAD', bucket, { policy: '' })).status).toBe(405);
    expect(await answer(signed('PUT', '/'))).toEqual(notAllowed);
    // A version id other than `null` is refused before the method; a configuration sub-resource takes the request before either.
    expect(await answer(signed('PATCH', `${bucket}/k`, { versionId: 'v1' }))).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(await answer(signed('PATCH', bucket, { tagging: '', versionId: 'v1' }))).toEqual(notAllowed);
    expect(await answer(signed('GET', bucket, { versioning: '', versionId: 'v1' }))).toMatchObject({ status: 200 });
    // The bucket itself: it is made already, and deleted through the management API.
    expect(await answer(signed('DELETE', bucket))).toEqual({
      ...notAllowed,
      message: 'A storage zone (bucket) is deleted through the management API, not through S3.',
    });
    expect((await signed('PUT', bucket)).status).toBe(200);
    expect(await answer(signed('PUT', bucket, {}, env.zone.ReadOnlyPassword))).toMatchObject({ status: 403, code: 'AccessDenied' });
  });

  it('refuses an unsigned request before its method, unless the policy allows what a request of its kind would be', async () => {
    const bucket = `/${env.zone.Name}`;
    const anonymous = (method: string, path: string) => answer(rawRequest(env.plane, method, path));
    expect(await anonymous('GET', '/')).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Access Denied: requests must be signed (AWS Signature Version 4).',
    });
    expect(await anonymous('PATCH', `${bucket}/k`)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(await anonymous('POST', bucket)).toMatchObject({ status: 403, code: 'AccessDenied' });
    await allowAnyone(env, 's3:GetObject');
    expect(await anonymous('PATCH', `${bucket}/k`)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(await anonymous('PUT', `${bucket}/k`)).toMatchObject({ status: 403, code: 'AccessDenied' });
    await allowAnyone(env, 's3:PutObject');
    expect(await anonymous('PATCH', `${bucket}/k`)).toEqual(notAllowed);
    expect(await anonymous('POST', `${bucket}/k`)).toEqual(notAllowed);
    // What a policy cannot open to anyone stays shut: the bucket's own operations.
    expect(await anonymous('POST', bucket)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(await anonymous('DELETE', bucket)).toMatchObject({ status: 403, code: 'AccessDenied' });
  });
});
