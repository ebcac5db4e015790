/**
 * The S3-compatible API of storage zones created with S3 support (`StorageZoneType` 1). A thin
 * layer like the file API: it finds the bucket and key, parses the request into its operation
 * (operations.ts: the method, the query's sub-resources and a few headers), authenticates the
 * signature, checks the operation's permission against the bucket's policy, and runs it, the
 * domain doing the work. The bucket is the zone itself; its objects are the zone's files, the same
 * ones the file API serves.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Clock } from '../../domain/principal.js';
import type { S3Credentials, S3ZoneSecrets } from '../../domain/s3/credentials.js';
import { header } from '../common/headers.js';
import { closeLingering } from '../common/lingering-close.js';
import { authorizer, readsOnly } from './access.js';
import { addressed, bucketFromHost } from './addressing.js';
import { anonymous, authenticate } from './authenticate.js';
import { asS3Error, S3Error, s3Errors } from './errors.js';
import { operationOf } from './operations.js';
import { sendError } from './respond.js';
import { answerPreflight, applyCors } from './settings/cors.js';
import { queryPairs } from './sigv4.js';
import { guardedListener } from '../common/last-resort.js';
import type { Operation, S3Call, S3Deps } from './types.js';

export interface S3HandlerDeps extends S3Deps {
  credentials: S3Credentials;
  /** Now, for the signatures' validity: the wall clock, which clients sign with (listen.ts). */
  clock: Clock;
  /** Virtual-host-style requests are addressed to `<bucket>.s3[.<region>].<storageDomain>`. */
  storageDomain: string;
}

export function s3Handler(deps: S3HandlerDeps): RequestListener {
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
    const operation = operationOf(method, bucket === undefined ? 'service' : key === undefined ? 'bucket' : 'object', query, req.headers);
    let auth = await authenticate(req, rawPath, pairs, deps.credentials, deps.clock().getTime());
    if (auth === undefined) {
      const entry = await s3Zone(bucket);
      if (!entry) throw s3Errors.accessDenied('Access Denied: requests must be signed (AWS Signature Version 4).');
      auth = anonymous(entry, !readsOnly(operation.permission));
    }
    const authorize = authorizer(req, auth.zone.zoneName, auth.settings, auth.signed, query.get('prefix'));
    const call: S3Call = { req, res, deps, auth, zone: auth.zone, key, query, requestId, authorize };
    if (bucket === undefined) {
      // The service: its one bucket is the signing key's zone, which no bucket policy governs.
      if (!auth.signed) throw s3Errors.accessDenied('Access Denied: requests must be signed (AWS Signature Version 4).');
      return operation.run(call);
    }
    if (bucket.toLowerCase() !== auth.zone.zoneName.toLowerCase()) {
      // Another zone's bucket: it exists (403) or not (404), as S3 tells a stranger's bucket from none.
      throw (await deps.credentials.of(bucket)) ? s3Errors.accessDenied() : s3Errors.noSuchBucket(bucket);
    }
    authorize(operation.permission, key);
    return run(operation, call);
  }

  async function run(operation: Operation, call: S3Call): Promise<void> {
    // Every object is its one version, `null`: another version id names nothing. (A configuration
    // sub-resource takes the request whatever else the query says.)
    const versionId = call.query.get('versionId');
    if (operation.configuration === undefined && versionId !== undefined && versionId !== 'null')
      throw s3Errors.invalidArgument('Invalid version id specified', 'versionId', versionId);
    await operation.run(call);
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
