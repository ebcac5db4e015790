/**
 * Who is asking: the access key id names a storage zone that speaks S3, and the signature must
 * verify with the zone's password (reads and writes) or its read-only password (reads only).
 * An unsigned request is anonymous (undefined here): only the bucket's policy can let it in (see access.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { S3Credentials, S3ZoneSecrets } from '../../domain/s3/credentials.js';
import { S3Error } from './errors.js';
import { canonicalRequest, readSignature, sameSignature, sign, signingKey, stringToSign } from './sigv4.js';
import type { Authenticated } from './types.js';

/** An unsigned request to a zone, which may do what the bucket's policy allows it (`canWrite` when that is a write). */
export function anonymous(entry: S3ZoneSecrets, canWrite: boolean): Authenticated {
  return {
    zone: { ...entry.zone, canWrite },
    modifiedAt: entry.modifiedAt,
    settings: entry.settings,
    payload: { kind: 'unsigned' },
    presigned: false,
    signed: false,
  };
}

/**
 * Regions a signature may name besides the zone's own code in lower case (`de`, `ny` …): the default
 * of most tools (`us-east-1`) and Cloudflare R2's `auto`, so clients work without a region setting.
 */
export const EXTRA_REGIONS = ['us-east-1', 'auto'];

export async function authenticate(
  req: IncomingMessage,
  rawPath: string,
  query: [string, string][],
  credentials: S3Credentials,
  now: number,
): Promise<Authenticated | undefined> {
  const info = readSignature(req, query, now);
  if (!info) return undefined;
  const entry = await credentials.of(info.accessKeyId);
  // A zone without S3 support has no S3 credentials: to a client that is an unknown key.
  if (!entry?.zone.s3)
    throw new S3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', 403, { AWSAccessKeyId: info.accessKeyId });
  const region = entry.zone.region.toLowerCase();
  if (info.region !== region && !EXTRA_REGIONS.includes(info.region)) {
    const code = info.presigned ? 'AuthorizationQueryParametersError' : 'AuthorizationHeaderMalformed';
    throw new S3Error(code, `The authorization header is malformed; the region '${info.region}' is wrong; expecting '${region}'`, 400, { Region: region });
  }
  if (!info.signedHeaders.includes('host')) throw new S3Error('AccessDenied', 'The host header must be signed.', 403);
  const toSign = stringToSign(info, canonicalRequest(req, rawPath, query, info));
  for (const [secret, canWrite] of [
    [entry.password, true],
    [entry.readOnlyPassword, false],
  ] as const) {
    if (secret === null) continue;
    const key = signingKey(secret, info.scope);
    if (sameSignature(sign(key, toSign), info.signature)) {
      return {
        zone: { ...entry.zone, canWrite },
        modifiedAt: entry.modifiedAt,
        settings: entry.settings,
        payload: info.payload,
        presigned: info.presigned,
        signed: true,
        chunkSigning: { key, amzDate: info.amzDate, scope: info.scope, seed: info.signature },
      };
    }
  }
  throw new S3Error(
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    403,
    { AWSAccessKeyId: info.accessKeyId },
  );
}
