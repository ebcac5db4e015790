/**
 * A request's body as an operation takes it: the object's bytes (aws-chunked bodies decoded, their
 * chunk signatures checked), a small document read whole, the length the request declares and the
 * Content-MD5 it gives.
 */
import { createHash } from 'node:crypto';
import { finished, type Readable, Transform } from 'node:stream';
import { header } from '../common/headers.js';
import { AwsChunkedDecoder } from './aws-chunked.js';
import { S3Error, s3Errors } from './errors.js';
import { sha256Hex } from './sigv4.js';
import type { S3Call } from './types.js';

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

/** The Content-MD5 the request gives (base64), checked for its form; undefined when it gives none. */
export function checkContentMd5(call: S3Call): string | undefined {
  const value = header(call.req, 'content-md5');
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9+/]{22}==$/.test(value)) throw new S3Error('InvalidDigest', 'The Content-MD5 you specified is not valid.', 400);
  return value;
}

/** Fails the stream when its MD5 is not the one the client gave in Content-MD5 (base64). */
export function md5Check(expected: string): Transform {
  const md5 = createHash('md5');
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      callback(md5.digest('base64') === expected ? null : s3Errors.badDigest());
    },
  });
}
