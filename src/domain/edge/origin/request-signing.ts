/**
 * Request signing (`RequestSigningEnabled`): the edge's reads from an HTTP origin signed with AWS
 * Signature Version 4, as S3-compatible object stores expect of a private bucket — service `s3`,
 * the zone's `RequestSigningRegionName` (`us-east-1` when empty), `RequestSigningKey` as the access
 * key id and `RequestSigningSecret` as the secret. The signature is AWS's own signer's
 * (@smithy/signature-v4), over:
 * - `host` as sent (the origin URL's, `OriginHostHeader`, or the client's with `AddHostHeader`),
 *   `x-amz-date`, `x-amz-content-sha256` (the empty body's hash: only reads are signed) and any
 *   `x-amz-*` header an edge rule sets; the client's own `x-amz-*` headers and `Authorization` are
 *   not passed on, since they would go out with the zone's authority;
 * - the path and query in the form S3 reads them (each path segment and parameter decoded and
 *   encoded again the RFC 3986 way), which is also how they are sent, so the origin and the
 *   signature read the same bytes.
 * Only GET and HEAD are signed (fills, refreshes, and passes of those methods): a write the edge
 * passes through goes unsigned, so no client can write into a private bucket with the zone's
 * credentials. An edge rule's `BypassRequestSigning` leaves a request unsigned.
 */
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { EdgeZone, RuleEffects } from '../types.js';

/** SHA-256 of no bytes: the payload hash of a request without a body. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const DEFAULT_REGION = 'us-east-1';

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceData): Buffer =>
  typeof data === 'string' ? Buffer.from(data) : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** node:crypto's SHA-256 (HMAC-SHA-256 when given a secret) in the shape AWS's signer takes. */
export class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {}
}

/** Whether the request to the origin is signed: the zone signs, no rule bypasses it, and it is a read. */
export function signs(zone: EdgeZone, effects: RuleEffects, method: string): boolean {
  return zone.RequestSigningEnabled && !effects.bypassRequestSigning && (method === 'GET' || method === 'HEAD');
}

export interface SignedCall {
  method: string;
  /** The path and query to send (origin-form, as originTarget made it). */
  target: string;
  /** The headers to send: signed in place (the client's `x-amz-*` and `Authorization` taken out, the signature's put in). */
  headers: Record<string, string>;
  /** Headers edge rules set: their `x-amz-*` ones stay, and are signed. */
  ruleHeaders: Record<string, string>;
}

/** One signer per zone document (its credentials and region), made on its first signed request. */
const signers = new WeakMap<EdgeZone, SignatureV4>();

/**
 * Signs the call: returns the target to send (its canonical spelling), or why the zone cannot sign
 * (no key or no secret) — never the credentials themselves.
 */
export async function signOriginCall(zone: EdgeZone, call: SignedCall, now = new Date()): Promise<{ target: string } | { refusal: string }> {
  const signer = signerOf(zone);
  if (signer === undefined) return { refusal: 'Request signing is on, but the zone has no RequestSigningKey or no RequestSigningSecret.' };
  const { headers } = call;
  const ruled = new Set(Object.keys(call.ruleHeaders).map((name) => name.toLowerCase()));
  const signed: Record<string, string> = { host: headers['host'] ?? '' };
  for (const name of Object.keys(headers)) {
    if (!name.startsWith('x-amz-') && name !== 'authorization') continue;
    if (ruled.has(name) && name !== 'authorization') signed[name] = headers[name]!;
    else delete headers[name];
  }
  signed['x-amz-content-sha256'] = EMPTY_BODY_SHA256;
  const { path, query, target } = canonicalTarget(call.target);
  const request = await signer.sign({ method: call.method, protocol: 'http:', hostname: signed['host']!, path, query, headers: signed }, { signingDate: now });
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  return { target };
}

function signerOf(zone: EdgeZone): SignatureV4 | undefined {
  const accessKeyId = zone.RequestSigningKey ?? '';
  const secretAccessKey = zone.RequestSigningSecret ?? '';
  if (accessKeyId === '' || secretAccessKey === '') return undefined;
  let signer = signers.get(zone);
  if (signer === undefined) {
    const region = zone.RequestSigningRegionName?.trim() || DEFAULT_REGION;
    // The path is given already encoded as S3 reads it (canonicalTarget): not escaped again.
    signer = new SignatureV4({
      credentials: { accessKeyId, secretAccessKey },
      region,
      service: 's3',
      sha256: NodeSha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
    signers.set(zone, signer);
  }
  return signer;
}

/** Strict RFC 3986 encoding (all but `A-Z a-z 0-9 - . _ ~`), as SigV4 and S3 use. */
const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The target as S3 reads it: each path segment and query parameter decoded and encoded again; the query also as the signer takes it. */
function canonicalTarget(target: string): { path: string; query: Record<string, string | string[]>; target: string } {
  const mark = target.indexOf('?');
  const rawPath = mark < 0 ? target : target.slice(0, mark);
  const path = rawPath
    .split('/')
    .map((segment) => rfc3986(decoded(segment)))
    .join('/');
  const query: Record<string, string | string[]> = {};
  const sent: string[] = [];
  for (const pair of mark < 0 ? [] : target.slice(mark + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decoded(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decoded(pair.slice(eq + 1));
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    sent.push(`${rfc3986(name)}=${rfc3986(value)}`);
  }
  return { path, query, target: sent.length === 0 ? path : `${path}?${sent.join('&')}` };
}
