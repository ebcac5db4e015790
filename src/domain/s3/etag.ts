/** Entity tags as S3 computes them, so clients that check them (rclone, the SDKs' integrity checks) agree. */
import { createHash } from 'node:crypto';

/** A multipart object's: the MD5 of the parts' binary MD5s, then `-<number of parts>`. */
export function multipartEtag(partMd5s: readonly string[]): string {
  const md5 = createHash('md5');
  for (const part of partMd5s) md5.update(Buffer.from(part, 'hex'));
  return `${md5.digest('hex')}-${partMd5s.length}`;
}

/** `"abc"`, `abc`, `W/"abc"` → `abc`: clients quote ETags or not when they send them back. */
export const bareEtag = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
