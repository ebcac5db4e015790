/** One S3 request as the operations see it, and what they share: reading bodies, answering XML. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished, type Readable } from 'node:stream';
import type { ZoneAccess } from '../../domain/files/zone-keys.js';
import { MAX_PART_NUMBER } from '../../domain/s3/multipart.js';
import { withTags } from '../../domain/s3/object-tags.js';
import type { Services } from '../../domain/services.js';
import type { Authorize } from './access.js';
import type { Authenticated } from './authenticate.js';
import { AwsChunkedDecoder } from './aws-chunked.js';
import { S3Error, s3Errors } from './errors.js';
import { parseTaggingHeader } from './settings/tagging.js';
import { sha256Hex } from './sigv4.js';
import { xmlDocument } from './xml.js';

export interface S3Deps {
  files: Services['files'];
  multipart: Services['multipartUploads'];
  usage: Services['usage'];
  /** Where the bucket's configurations are written (they are read from the request's authentication). */
  buckets: Services['s3Buckets'];
  /** For listings in key order (the file service lists one folder at a time). */
  store: Services['store'];
  logError: (error: unknown) => void;
}

export interface S3Call {
  req: IncomingMessage;
  res: ServerResponse;
  deps: S3Deps;
  auth: Authenticated;
  zone: ZoneAccess;
  bucket: string;
  /** Decoded; undefined for bucket operations. */
  key: string | undefined;
  query: Map<string, string>;
  requestId: string;
  /** Checks a further action the operation takes (each key of a DeleteObjects, a copy's source) against the bucket policy. */
  authorize: Authorize;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

export function requireWrite(call: S3Call): void {
  if (!call.zone.canWrite) throw s3Errors.accessDenied('Access Denied: the read-only password grants reads only.');
}

/** `?partNumber`, of an upload's part or of an object read by parts: 1 to 10,000. */
export function partNumberOf(call: S3Call): number {
  const raw = call.query.get('partNumber') ?? '';
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= MAX_PART_NUMBER))
    throw s3Errors.invalidArgument(`Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`, 'partNumber', raw);
  return n;
}

export function sendXml(res: ServerResponse, status: number, root: string, headers: Record<string, string> = {}): void {
  const body = xmlDocument(root);
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-length': 0, ...headers });
  res.end();
}

/** How many bytes the object will have, when the request says (aws-chunked bodies say it in their own header). */
export function declaredLength(call: S3Call): number | undefined {
  const raw = call.auth.payload.kind === 'streaming' ? header(call.req, 'x-amz-decoded-content-length') : header(call.req, 'content-length');
  if (raw === undefined) {
    if (call.auth.payload.kind === 'streaming') throw new S3Error('MissingContentLength', 'You must provide the Content-Length HTTP header.', 411);
    return undefined;
  }
  if (!/^\d+$/.test(raw)) throw s3Errors.invalidArgument('The Content-Length must be a number of bytes.', 'Content-Length', raw);
  return Number(raw);
}

/**
 * The request's body as the object's bytes: aws-chunked bodies decoded and their chunk signatures
 * checked on the way. A signed payload hash is checked by whoever stores the bytes (it knows their
 * SHA-256 once written): `expectedSha256` says what it must be.
 */
export function objectBody(call: S3Call): { body: Readable; expectedSha256: string | undefined } {
  const { payload } = call.auth;
  if (payload.kind !== 'streaming') return { body: call.req, expectedSha256: payload.kind === 'hash' ? payload.sha256 : undefined };
  const decoder = new AwsChunkedDecoder(
    payload.signed ? call.auth.chunkSigning : undefined,
    payload.trailer ? header(call.req, 'x-amz-trailer') : undefined,
    declaredLength(call),
  );
  // Whoever reads the decoded body learns of a failure from its own reading; without a listener here,
  // a failure after the reader stopped listening would be an uncaught 'error' event.
  decoder.on('error', () => {});
  finished(call.req, { writable: false }, (error) => {
    if (error) decoder.destroy(error);
  });
  call.req.pipe(decoder);
  return { body: decoder, expectedSha256: undefined };
}

/**
 * A small body (an XML document), whole, its payload hash checked. Beyond `limit` it stops
 * reading and fails at once, leaving the connection open for the error to be sent on (the handler
 * closes it after): ending the read by destroying the request would take the socket and the answer
 * with it.
 */
export function smallBody(call: S3Call, limit: number): Promise<Buffer> {
  const { body, expectedSha256 } = objectBody(call);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        body.pause();
        // Whatever becomes of the unread rest (the client hanging up) concerns no one now.
        body.on('error', () => {});
        reject(new S3Error('MaxMessageLengthExceeded', 'Your request was too big.', 400, {}, { connection: 'close' }));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      const bytes = Buffer.concat(chunks);
      if (expectedSha256 !== undefined && sha256Hex(bytes) !== expectedSha256) reject(s3Errors.sha256Mismatch());
      else resolve(bytes);
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
  });
}

/** `x-amz-meta-*` headers as user metadata (lowercase names), within S3's 2 KB. */
export function userMetadata(req: IncomingMessage): Record<string, string> | null {
  const out: Record<string, string> = {};
  let size = 0;
  for (const [name, value] of Object.entries(req.headers)) {
    if (!name.startsWith('x-amz-meta-') || value === undefined) continue;
    const text = Array.isArray(value) ? value.join(',') : value;
    const short = name.slice('x-amz-meta-'.length);
    out[short] = text;
    size += Buffer.byteLength(short) + Buffer.byteLength(text);
  }
  if (size > 2048) throw new S3Error('MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size.', 400, { MaxSizeAllowed: '2048' });
  return Object.keys(out).length === 0 ? null : out;
}

/** Headers S3 keeps with an object and sends back as they were given. */
export const STORED_HEADERS = ['cache-control', 'content-disposition', 'content-encoding', 'content-language', 'expires'] as const;
/**
 * They are kept in the file's metadata under `system:<name>`: user metadata names are HTTP header
 * names, which never hold a colon, so the two never meet.
 */
export const SYSTEM_PREFIX = 'system:';

export function objectMetadata(req: IncomingMessage): Record<string, string> | null {
  const user = userMetadata(req) ?? {};
  for (const name of STORED_HEADERS) {
    let value = header(req, name);
    // aws-chunked is how the body travelled, not how the object is encoded.
    if (name === 'content-encoding' && value !== undefined)
      value = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== 'aws-chunked' && v !== '')
        .join(', ');
    if (value) user[`${SYSTEM_PREFIX}${name}`] = value;
  }
  const tagging = header(req, 'x-amz-tagging');
  return tagging === undefined ? (Object.keys(user).length === 0 ? null : user) : withTags(user, parseTaggingHeader(tagging));
}
