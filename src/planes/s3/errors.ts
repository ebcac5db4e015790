/**
 * S3's errors: a code clients branch on (`NoSuchKey`, `SignatureDoesNotMatch` …), an HTTP status,
 * and more elements for the XML body respond.ts sends. Domain errors are translated here, so the
 * domain keeps no knowledge of S3's vocabulary beyond the multipart rules it enforces (S3DomainError).
 */
import { type AppError, appErrorOf } from '../../domain/errors.js';
import { S3DomainError } from '../../domain/s3/multipart.js';

export class S3Error extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    /** More elements of the body (`Region`, `ActualObjectSize` …), and headers to send. */
    readonly details: Record<string, string> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

export const s3Errors = {
  accessDenied: (message = 'Access Denied') => new S3Error('AccessDenied', message, 403),
  noSuchBucket: (bucket: string) => new S3Error('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: bucket }),
  noSuchKey: (key: string) => new S3Error('NoSuchKey', 'The specified key does not exist.', 404, { Key: key }),
  invalidArgument: (message: string, name?: string, value?: string) =>
    new S3Error('InvalidArgument', message, 400, name === undefined ? {} : { ArgumentName: name, ArgumentValue: value ?? '' }),
  invalidRequest: (message: string) => new S3Error('InvalidRequest', message, 400),
  malformedXml: () => new S3Error('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400),
  entityTooLarge: (max: number) =>
    new S3Error(
      'EntityTooLarge',
      'Your proposed upload exceeds the maximum allowed object size.',
      400,
      { MaxSizeAllowed: String(max) },
      { connection: 'close' },
    ),
  badDigest: (message = 'The Content-MD5 you specified did not match what we received.') => new S3Error('BadDigest', message, 400),
  sha256Mismatch: () => new S3Error('XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", 400),
  signatureMismatch: () =>
    new S3Error(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      403,
    ),
  methodNotAllowed: (message = 'The specified method is not allowed against this resource.') => new S3Error('MethodNotAllowed', message, 405),
  incompleteBody: () => new S3Error('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.', 400),
};

/** Domain error keys whose S3 code is more precise than the generic one of their kind. */
const BY_KEY: Record<string, [string, number]> = {
  'storage.path_too_long': ['KeyTooLongError', 400],
  'storage.checksum_mismatch': ['XAmzContentSHA256Mismatch', 400],
  'storage.file_too_large': ['EntityTooLarge', 400],
};

const BY_CODE: Record<AppError['code'], [string, number]> = {
  validation: ['InvalidArgument', 400],
  unauthorized: ['AccessDenied', 403],
  forbidden: ['AccessDenied', 403],
  not_found: ['NoSuchKey', 404],
  conflict: ['OperationAborted', 409],
  payload_too_large: ['EntityTooLarge', 400],
  unsupported_media_type: ['InvalidArgument', 400],
  unprocessable: ['InvalidRequest', 400],
  rate_limited: ['SlowDown', 503],
  unavailable: ['ServiceUnavailable', 503],
};

export function asS3Error(error: unknown): S3Error | undefined {
  if (error instanceof S3Error) return error;
  if (error instanceof S3DomainError) return new S3Error(error.s3Code, error.message, error.status);
  const appError = appErrorOf(error);
  if (appError) {
    const [code, status] = BY_KEY[appError.key] ?? BY_CODE[appError.code];
    return new S3Error(code, appError.message, status, {}, status === 400 && code === 'EntityTooLarge' ? { connection: 'close' } : {});
  }
  return undefined;
}
