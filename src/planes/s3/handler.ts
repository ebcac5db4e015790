/**
 * The S3-compatible API of storage zones created with S3 support (`StorageZoneType` 1). A thin
 * layer like the file API: it finds the bucket and key, authenticates the signature, picks the
 * operation from the method, the query's sub-resources and a few headers, and lets the domain do
 * the work. The bucket is the zone itself; its objects are the zone's files, the same ones the
 * file API serves.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Clock } from '../../domain/principal.js';
import type { S3Credentials, S3ZoneSecrets } from '../../domain/s3/credentials.js';
import { addressed, bucketFromHost } from './addressing.js';
import { actionOf, authorizer, readsOnly } from './access.js';
import { anonymous, authenticate } from './authenticate.js';
import { configurationOperation } from './bucket-config.js';
import { header, type S3Call, type S3Deps, sendEmpty } from './call.js';
import { asS3Error, S3Error, s3Errors, sendError } from './errors.js';
import { bucketLocation, listBuckets, listObjectsV1, listObjectsV2 } from './listing.js';
import { abortUpload, completeUpload, createUpload, listParts, listUploads, uploadPart } from './multipart-routes.js';
import { copyObject, deleteObject, deleteObjects, getObject, putObject } from './objects.js';
import { answerPreflight, applyCors } from './settings/cors.js';
import { queryPairs } from './sigv4.js';
import { guardedListener } from '../common/last-resort.js';
import { closeLingering } from '../common/lingering-close.js';

export interface S3HandlerDeps extends S3Deps {
  credentials: S3Credentials;
  clock: Clock;
  /** Virtual-host-style requests are addressed to `<bucket>.s3[.<region>].<storageDomain>`. */
  storageDomain: string;
}

export function s3Handler(deps: S3HandlerDeps): RequestListener {
  async function route(call: S3Call): Promise<void> {
    const { req, query } = call;
    const method = req.method ?? 'GET';
    const configuration = configurationOperation(call, method);
    if (configuration) return configuration();
    // Every object is its one version, `null`: another version id names nothing.
    const versionId = query.get('versionId');
    if (versionId !== undefined && versionId !== 'null') throw s3Errors.invalidArgument('Invalid version id specified', 'versionId', versionId);
    if (call.key === undefined) {
      switch (method) {
        case 'HEAD':
          return sendEmpty(call.res, 200, { 'x-amz-bucket-region': call.zone.region.toLowerCase() });
        case 'GET':
          if (query.has('location')) return bucketLocation(call);
          if (query.has('uploads')) return listUploads(call);
          if (query.get('list-type') === '2') return listObjectsV2(call);
          return listObjectsV1(call);
        case 'POST':
          if (query.has('delete')) return deleteObjects(call);
          break;
        case 'PUT':
          // The zone exists already (it is the bucket): creating it again changes nothing, as in us-east-1.
          if (!call.zone.canWrite) throw s3Errors.accessDenied();
          return sendEmpty(call.res, 200, { location: `/${call.zone.zoneName}` });
        case 'DELETE':
          throw new S3Error('MethodNotAllowed', 'A storage zone (bucket) is deleted through the management API, not through S3.', 405);
      }
      throw new S3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405);
    }
    switch (method) {
      case 'GET':
        if (query.has('uploadId')) return listParts(call);
        return getObject(call, 'GET');
      case 'HEAD':
        return getObject(call, 'HEAD');
      case 'PUT':
        if (query.has('uploadId') || query.has('partNumber')) return uploadPart(call);
        if (header(req, 'x-amz-copy-source') !== undefined) return copyObject(call);
        return putObject(call);
      case 'DELETE':
        if (query.has('uploadId')) return abortUpload(call);
        return deleteObject(call);
      case 'POST':
        if (query.has('uploads')) return createUpload(call);
        if (query.has('uploadId')) return completeUpload(call);
        break;
    }
    throw new S3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const rawPath = mark < 0 ? url : url.slice(0, mark);
    const pairs = queryPairs(mark < 0 ? '' : url.slice(mark + 1));
    const method = req.method ?? 'GET';
    const { bucket, key } = addressed(rawPath, bucketFromHost(header(req, 'host'), deps.storageDomain));
    if (method === 'OPTIONS') return answerPreflight(req, res, (await s3Zone(bucket))?.settings.cors);
    // A browser reads an error only with the CORS headers on it too: they are set before anything can fail.
    if (req.headers.origin !== undefined && bucket !== undefined) {
      const entry = await deps.credentials.of(bucket);
      if (entry?.zone.s3) applyCors(req, res, entry.settings.cors);
    }
    const query = new Map(pairs);
    const action = actionOf(method, key, query);
    let auth = await authenticate(req, rawPath, pairs, deps.credentials, deps.clock().getTime());
    if (auth === undefined) {
      const entry = await s3Zone(bucket);
      if (!entry) throw s3Errors.accessDenied('Access Denied: requests must be signed (AWS Signature Version 4).');
      auth = anonymous(entry, !readsOnly(action));
    }
    if (bucket === undefined) {
      if (method !== 'GET') throw new S3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405);
      if (!auth.signed) throw s3Errors.accessDenied('Access Denied: requests must be signed (AWS Signature Version 4).');
      return listBuckets({ res, zone: auth.zone, auth });
    }
    if (bucket.toLowerCase() !== auth.zone.zoneName.toLowerCase()) {
      // Another zone's bucket: it exists (403) or not (404), as S3 tells a stranger's bucket from none.
      throw (await deps.credentials.of(bucket)) ? s3Errors.accessDenied() : s3Errors.noSuchBucket(bucket);
    }
    const authorize = authorizer(req, auth.zone.zoneName, auth.settings, auth.signed, query.get('prefix'));
    authorize(action, key);
    await route({ req, res, deps, auth, zone: auth.zone, bucket, key, query, requestId, authorize });
  }

  /** The S3 zone a bucket name names, for requests that carry no key of theirs (preflights, anonymous ones). */
  async function s3Zone(bucket: string | undefined): Promise<S3ZoneSecrets | undefined> {
    if (bucket === undefined) return undefined;
    const entry = await deps.credentials.of(bucket);
    if (!entry?.zone.s3) throw s3Errors.noSuchBucket(bucket);
    return entry;
  }

  // Should answering the failure throw too, common/last-resort.ts has the last word.
  return guardedListener((req, res) => {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    res.setHeader('x-amz-request-id', requestId);
    res.setHeader('x-amz-id-2', requestId);
    res.setHeader('server', 'edgeplane');
    return handle(req, res, requestId).catch((error: unknown) => {
      if (res.destroyed || req.socket.destroyed) {
        res.destroy();
        return;
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const s3 = asS3Error(error);
      if (!s3) deps.logError(error);
      const answer = s3 ?? new S3Error('InternalError', 'We encountered an internal error. Please try again.', 500);
      // A body left unread would be taken for the next request: close the connection instead,
      // lingering so that a client still sending it reads this answer (common/lingering-close.ts).
      if (!req.readableEnded) closeLingering(req, res);
      sendError(req, res, answer, requestId, (req.url ?? '/').split('?')[0]!);
    });
  }, deps.logError);
}
