/**
 * Signing requests to the S3 plane outside an SDK client: presigned URLs (for curl), and bodies in
 * aws-chunked form with signed chunks or trailing checksums, built here from AWS's description of
 * the protocol so the plane is checked against something other than itself. The request's own
 * signature comes from AWS's signer (@smithy/signature-v4).
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from '../../src/domain/edge/origin/request-signing.js';
import { createHash, createHmac } from 'node:crypto';
import { crc32 } from 'node:zlib';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export function signer(credentials: Credentials): SignatureV4 {
  return new SignatureV4({
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    region: credentials.region,
    service: 's3',
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
}

/** RFC 3986, as AWS encodes query values. */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A presigned URL for `method` on `path` (already encoded) of the plane at `base`. */
export async function presignedUrl(
  base: string,
  method: string,
  path: string,
  credentials: Credentials,
  options: { expiresIn: number; signingDate?: Date },
): Promise<string> {
  const url = new URL(base);
  const signed = await signer(credentials).presign(
    {
      method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path,
      headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      query: {},
    },
    { expiresIn: options.expiresIn, signingDate: options.signingDate ?? new Date(), unhoistableHeaders: new Set() },
  );
  const query = Object.entries(signed.query ?? {})
    .map(([k, v]) => `${encode(k)}=${encode(String(v))}`)
    .join('&');
  return `${base}${path}?${query}`;
}

/** Signed headers for a request whose payload is `payloadHash` (a hex SHA-256 or one of the STREAMING-… modes). */
export async function signedHeaders(
  base: string,
  method: string,
  path: string,
  credentials: Credentials,
  payloadHash: string,
  extra: Record<string, string> = {},
  signingDate = new Date(),
): Promise<Record<string, string>> {
  const url = new URL(base);
  const signed = await signer(credentials).sign(
    {
      method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path,
      headers: { host: url.host, 'x-amz-content-sha256': payloadHash, ...extra },
      query: {},
    },
    { signingDate },
  );
  return signed.headers as Record<string, string>;
}

const EMPTY = createHash('sha256').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

function signingKey(secret: string, date: string, region: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
}

/**
 * A body in STREAMING-AWS4-HMAC-SHA256-PAYLOAD form: `chunks` signed one after the other, from the
 * seed signature of the request's Authorization header.
 */
export function signedChunkedBody(chunks: Buffer[], credentials: Credentials, authorization: string, amzDate: string): Buffer {
  const seed = /Signature=([0-9a-f]{64})/.exec(authorization)![1]!;
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${credentials.region}/s3/aws4_request`;
  const key = signingKey(credentials.secretAccessKey, date, credentials.region);
  let previous = seed;
  const out: Buffer[] = [];
  for (const chunk of [...chunks, Buffer.alloc(0)]) {
    const toSign = ['AWS4-HMAC-SHA256-PAYLOAD', amzDate, scope, previous, EMPTY, createHash('sha256').update(chunk).digest('hex')].join('\n');
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    out.push(Buffer.from(`${chunk.length.toString(16)};chunk-signature=${signature}\r\n`), chunk, Buffer.from('\r\n'));
    previous = signature;
  }
  return Buffer.concat(out);
}

/** A body in STREAMING-UNSIGNED-PAYLOAD-TRAILER form with a CRC32 trailer (`crc` overrides it). */
export function unsignedTrailerBody(chunks: Buffer[], crc?: string): Buffer {
  let value = 0;
  const out: Buffer[] = [];
  for (const chunk of chunks) {
    value = crc32(chunk, value);
    out.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  const digest = Buffer.alloc(4);
  digest.writeUInt32BE(value >>> 0);
  out.push(Buffer.from(`0\r\nx-amz-checksum-crc32:${crc ?? digest.toString('base64')}\r\n\r\n`));
  return Buffer.concat(out);
}
