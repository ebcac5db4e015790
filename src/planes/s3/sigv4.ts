/**
 * AWS Signature Version 4 as S3 checks it, in the Authorization header or in a presigned URL's
 * query. The request is put in canonical form (method, path, query, the signed headers, the payload
 * hash), hashed into a string to sign with the date and scope, and signed with a key derived from
 * the secret; the result must equal the signature sent. Paths and query parameters are decoded and
 * encoded again the RFC 3986 way, as the SDKs encode them, so how a client escaped a character does
 * not matter.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { header } from '../common/headers.js';
import { S3Error } from './errors.js';

export const ALGORITHM = 'AWS4-HMAC-SHA256';
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** Requests dated further than this from the server's clock are refused, as S3 does. */
export const MAX_SKEW_MS = 15 * 60 * 1000;
/** Presigned URLs live at most a week. */
const MAX_EXPIRES_SECONDS = 604_800;

export type PayloadMode =
  | { kind: 'hash'; sha256: string }
  | { kind: 'unsigned' }
  /** aws-chunked bodies: each chunk signed (`signed`), or not, with or without trailing checksums. */
  | { kind: 'streaming'; signed: boolean; trailer: boolean };

export interface SignedRequestInfo {
  accessKeyId: string;
  region: string;
  /** `YYYYMMDDTHHMMSSZ`. */
  amzDate: string;
  /** `<date>/<region>/s3/aws4_request`. */
  scope: string;
  signedHeaders: string[];
  signature: string;
  payload: PayloadMode;
  /** The payload line of the canonical request. */
  canonicalPayload: string;
  presigned: boolean;
  /** Epoch ms after which a presigned URL no longer works. */
  expiresAt?: number;
}

const malformed = (message: string) => new S3Error('AuthorizationHeaderMalformed', message, 400);
const queryError = (message: string) => new S3Error('AuthorizationQueryParametersError', message, 400);

/** Strict RFC 3986 encoding: everything but `A-Z a-z 0-9 - . _ ~` as %XX (upper case). */
export function uriEncode(text: string, keepSlash = false): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new S3Error('InvalidURI', "Couldn't parse the specified URI.", 400);
  }
}

/** The query's parameters as sent, decoded (a `+` stays a `+`, as the SDKs never send one for a space). */
export function queryPairs(rawQuery: string): [string, string][] {
  if (rawQuery === '') return [];
  return rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [decodeComponent(pair), ''] : [decodeComponent(pair.slice(0, eq)), decodeComponent(pair.slice(eq + 1))];
    });
}

function parseScope(credential: string, fail: (m: string) => S3Error): { accessKeyId: string; date: string; region: string; scope: string } {
  const parts = credential.split('/');
  if (parts.length < 5)
    throw fail('The authorization header is malformed; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".');
  // An access key id never holds a slash, but take everything before the scope in case it does.
  const [date, region, service, terminal] = parts.slice(-4) as [string, string, string, string];
  const accessKeyId = parts.slice(0, -4).join('/');
  if (!/^\d{8}$/.test(date))
    throw fail(`The authorization header is malformed; incorrect date format "${date}". This date in the credential must be in the format "yyyyMMdd".`);
  if (service !== 's3') throw fail(`The authorization header is malformed; incorrect service "${service}". This endpoint belongs to "s3".`);
  if (terminal !== 'aws4_request') throw fail(`The authorization header is malformed; incorrect terminal "${terminal}". This endpoint uses "aws4_request".`);
  return { accessKeyId, date, region, scope: `${date}/${region}/s3/aws4_request` };
}

/** `20130524T000000Z` → epoch ms, or NaN. */
export function parseAmzDate(value: string | undefined): number {
  const m = value === undefined ? null : /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

function payloadMode(value: string | undefined, presigned: boolean, bodiless: boolean): PayloadMode {
  if (value === undefined) {
    if (presigned) return { kind: 'unsigned' };
    // S3 wants the header on every request; a request without a body (curl's --aws-sigv4 of some
    // versions sends none) is taken as signing the empty payload, which is what it then signed.
    if (bodiless) return { kind: 'hash', sha256: EMPTY_SHA256 };
    throw new S3Error('InvalidRequest', 'Missing required header for this request: x-amz-content-sha256', 400);
  }
  switch (value) {
    case 'UNSIGNED-PAYLOAD':
      return { kind: 'unsigned' };
    case 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD':
      return { kind: 'streaming', signed: true, trailer: false };
    case 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER':
      return { kind: 'streaming', signed: true, trailer: true };
    case 'STREAMING-UNSIGNED-PAYLOAD-TRAILER':
      return { kind: 'streaming', signed: false, trailer: true };
    default:
      if (/^[0-9a-f]{64}$/i.test(value)) return { kind: 'hash', sha256: value.toLowerCase() };
      throw new S3Error('InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-… or a valid sha256 value.', 400, {
        ArgumentName: 'x-amz-content-sha256',
        ArgumentValue: value,
      });
  }
}

const bodiless = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] === undefined || req.headers['content-length'] === '0');

/** Reads what a request says about its signature; undefined for an anonymous request. Checks the form, not the signature. */
export function readSignature(req: IncomingMessage, query: [string, string][], now: number): SignedRequestInfo | undefined {
  const q = new Map(query);
  const authorization = header(req, 'authorization');
  if (q.has('X-Amz-Algorithm') || q.has('X-Amz-Credential')) {
    if (authorization !== undefined)
      throw new S3Error(
        'InvalidArgument',
        'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified',
        400,
      );
    if (q.get('X-Amz-Algorithm') !== ALGORITHM) throw queryError(`X-Amz-Algorithm only supports "${ALGORITHM}"`);
    const credential = q.get('X-Amz-Credential');
    const amzDate = q.get('X-Amz-Date');
    const signedHeaders = q.get('X-Amz-SignedHeaders');
    const signature = q.get('X-Amz-Signature');
    const expires = q.get('X-Amz-Expires');
    if (!credential || !amzDate || !signedHeaders || !signature || !expires)
      throw queryError(
        'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
      );
    const scope = parseScope(credential, queryError);
    const date = parseAmzDate(amzDate);
    if (Number.isNaN(date)) throw queryError("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
    if (!/^\d+$/.test(expires)) throw queryError('X-Amz-Expires should be a number');
    const seconds = Number(expires);
    if (seconds < 1 || seconds > MAX_EXPIRES_SECONDS) throw queryError('X-Amz-Expires must be less than a week (in seconds) that is 604800');
    if (amzDate.slice(0, 8) !== scope.date) throw queryError('Invalid credential date. Date is not the same as X-Amz-Date.');
    if (date - now > MAX_SKEW_MS) throw new S3Error('AccessDenied', 'Request is not valid yet', 403);
    if (now > date + seconds * 1000)
      throw new S3Error('AccessDenied', 'Request has expired', 403, {
        Expires: new Date(date + seconds * 1000).toISOString(),
        ServerTime: new Date(now).toISOString(),
      });
    return {
      accessKeyId: scope.accessKeyId,
      region: scope.region,
      amzDate,
      scope: scope.scope,
      signedHeaders: signedHeaders.split(';'),
      signature: signature.toLowerCase(),
      payload: payloadMode(q.get('X-Amz-Content-Sha256') ?? header(req, 'x-amz-content-sha256'), true, false),
      canonicalPayload: q.get('X-Amz-Content-Sha256') ?? header(req, 'x-amz-content-sha256') ?? 'UNSIGNED-PAYLOAD',
      presigned: true,
      expiresAt: date + seconds * 1000,
    };
  }
  if (authorization === undefined) {
    if (q.has('AWSAccessKeyId') || q.has('Signature'))
      throw new S3Error('AccessDenied', 'Signature Version 2 is not supported; sign requests with Signature Version 4.', 403);
    return undefined;
  }
  if (authorization.startsWith('AWS ')) throw new S3Error('AccessDenied', 'Signature Version 2 is not supported; sign requests with Signature Version 4.', 403);
  if (!authorization.startsWith(`${ALGORITHM} `))
    throw new S3Error('InvalidArgument', 'Unsupported Authorization Type', 400, {
      ArgumentName: 'Authorization',
      ArgumentValue: authorization.split(' ')[0] ?? '',
    });
  const fields = new Map<string, string>();
  for (const part of authorization.slice(ALGORITHM.length + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential');
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (!credential || !signedHeaders || !signature) throw malformed('The authorization header is malformed; it needs Credential, SignedHeaders and Signature.');
  const scope = parseScope(credential, malformed);
  const amzDate = header(req, 'x-amz-date');
  let date = parseAmzDate(amzDate);
  if (amzDate === undefined) {
    const plain = header(req, 'date');
    date = plain === undefined ? Number.NaN : Date.parse(plain);
  }
  if (Number.isNaN(date)) throw new S3Error('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header', 403);
  if (Math.abs(now - date) > MAX_SKEW_MS)
    throw new S3Error('RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', 403, {
      RequestTime: amzDate ?? '',
      ServerTime: new Date(now).toISOString(),
      MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
    });
  const stamp =
    amzDate ??
    new Date(date)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  if (stamp.slice(0, 8) !== scope.date)
    throw malformed(
      `The authorization header is malformed; Invalid credential date "${scope.date}". This date is not the same as X-Amz-Date: "${stamp.slice(0, 8)}".`,
    );
  return {
    accessKeyId: scope.accessKeyId,
    region: scope.region,
    amzDate: stamp,
    scope: scope.scope,
    signedHeaders: signedHeaders.split(';'),
    signature: signature.toLowerCase(),
    payload: payloadMode(header(req, 'x-amz-content-sha256'), false, bodiless(req)),
    canonicalPayload: header(req, 'x-amz-content-sha256') ?? EMPTY_SHA256,
    presigned: false,
  };
}

/** The canonical request (SigV4's first step). `rawPath` is the path as sent, `query` decoded. */
export function canonicalRequest(req: IncomingMessage, rawPath: string, query: [string, string][], info: SignedRequestInfo): string {
  const path = rawPath
    .split('/')
    .map((segment) => uriEncode(decodeComponent(segment)))
    .join('/');
  const params = query
    .filter(([name]) => !(info.presigned && name === 'X-Amz-Signature'))
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const distinct = req.headersDistinct;
  const headers = info.signedHeaders
    .map((name) => {
      const values = distinct[name] ?? [];
      return `${name}:${values.map((v) => v.trim().replace(/\s+/g, ' ')).join(',')}\n`;
    })
    .join('');
  return [req.method, path === '' ? '/' : path, params, headers, info.signedHeaders.join(';'), info.canonicalPayload].join('\n');
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The key a secret signs with on one day, in one region. */
export function signingKey(secret: string, scope: string): Buffer {
  const [date, region] = scope.split('/') as [string, string];
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
}

export function sign(key: Buffer, stringToSign: string): string {
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

export function stringToSign(info: Pick<SignedRequestInfo, 'amzDate' | 'scope'>, canonical: string): string {
  return [ALGORITHM, info.amzDate, info.scope, sha256Hex(canonical)].join('\n');
}

export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
