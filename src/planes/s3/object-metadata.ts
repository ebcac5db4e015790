/**
 * What S3 keeps with an object besides its bytes, as a write gives it: `x-amz-meta-*` user
 * metadata, the headers sent back as they were given, and the `x-amz-tagging` tags, all in the
 * file's metadata.
 */
import type { IncomingMessage } from 'node:http';
import { STORED_HEADERS, SYSTEM_PREFIX } from '../../domain/files/kept-headers.js';
import { withTags } from '../../domain/s3/object-tags.js';
import { header } from '../common/headers.js';
import { S3Error } from './errors.js';
import { parseTaggingHeader } from './settings/tagging.js';

/** `x-amz-meta-*` headers as user metadata (lowercase names), within S3's 2 KB. */
export function userMetadata(req: IncomingMessage): Record<string, string> | null {
  const out: Record<string, string> = {};
  let size = 0;
  for (const name of Object.keys(req.headers)) {
    const text = name.startsWith('x-amz-meta-') ? header(req, name) : undefined;
    if (text === undefined) continue;
    const short = name.slice('x-amz-meta-'.length);
    out[short] = text;
    size += Buffer.byteLength(short) + Buffer.byteLength(text);
  }
  if (size > 2048) throw new S3Error('MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size.', 400, { MaxSizeAllowed: '2048' });
  return Object.keys(out).length === 0 ? null : out;
}

/** The metadata an S3 write keeps: user metadata, the STORED_HEADERS (as `system:<name>`), the tags. */
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
