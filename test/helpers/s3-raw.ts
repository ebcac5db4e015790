/**
 * Requests to the S3 plane outside the SDK, headers exactly as given: what a browser sends (an
 * unsigned preflight, a GET with an Origin), an anonymous client, and signed requests whose body
 * or headers the SDK would not produce. Signatures come from AWS's signer (see s3-signing.ts).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { S3Plane, S3Zone } from './s3-plane.js';
import { signer } from './s3-signing.js';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends one request to `path` (already encoded, query included) of the plane. */
export function rawRequest(plane: S3Plane, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${plane.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A request signed with the zone's password (or `options.secret`): `path` is `/bucket/key` (encoded),
 * `query` its parameters, `headers` signed along.
 */
export async function signedRequest(
  plane: S3Plane,
  zone: Pick<S3Zone, 'Name' | 'Password' | 'Region'>,
  method: string,
  path: string,
  options: { query?: Record<string, string>; headers?: Record<string, string>; body?: Buffer | string; secret?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(plane.url);
  const body = options.body ?? '';
  const query = options.query ?? {};
  const signed = await signer({ accessKeyId: zone.Name, secretAccessKey: options.secret ?? zone.Password, region: zone.Region.toLowerCase() }).sign(
    {
      method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path,
      headers: { host: url.host, 'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'), ...options.headers },
      query,
    },
    { signingDate: new Date() },
  );
  const search = Object.entries(query)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
  return rawRequest(plane, method, search === '' ? path : `${path}?${search}`, signed.headers as Record<string, string>, body);
}

/** The `<Code>` of an S3 error body. */
export const errorCode = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];
/** The `<Message>` of an S3 error body. */
export const errorMessage = (xml: string) => /<Message>([^<]*)<\/Message>/.exec(xml)?.[1];
