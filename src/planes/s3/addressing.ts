/**
 * Which bucket and key a request names. Path style: `/<bucket>/<key>` on any host. Virtual-host
 * style: `<bucket>.s3.<storage domain>` or `<bucket>.s3.<region>.<storage domain>` (a zone's
 * S3Hostname with the zone name in front), the key being the whole path.
 */
import { decodeComponent } from './sigv4.js';

export interface Addressed {
  /** Undefined for the service itself (ListBuckets). */
  bucket: string | undefined;
  /** Undefined for the bucket itself; the decoded key otherwise (possibly ending in `/`). */
  key: string | undefined;
}

export function bucketFromHost(host: string | undefined, storageDomain: string): string | undefined {
  if (!host) return undefined;
  const name = host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase();
  const suffix = `.${storageDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return undefined;
  const labels = name.slice(0, -suffix.length).split('.');
  // `<bucket>.s3` or `<bucket>.s3.<region>`.
  if ((labels.length === 2 || labels.length === 3) && labels[1] === 's3' && labels[0] !== '') return labels[0];
  return undefined;
}

export function addressed(rawPath: string, hostBucket: string | undefined): Addressed {
  const path = rawPath.startsWith('/') ? rawPath.slice(1) : rawPath;
  if (hostBucket !== undefined) return { bucket: hostBucket, key: path === '' ? undefined : decodeComponent(path) };
  if (path === '') return { bucket: undefined, key: undefined };
  const slash = path.indexOf('/');
  if (slash < 0) return { bucket: decodeComponent(path), key: undefined };
  const key = path.slice(slash + 1);
  return { bucket: decodeComponent(path.slice(0, slash)), key: key === '' ? undefined : decodeComponent(key) };
}
