/**
 * Tags as S3 takes them, in a `Tagging` document (PutObjectTagging, PutBucketTagging) or in the
 * `x-amz-tagging` header (PutObject, CopyObject, CreateMultipartUpload), checked against S3's
 * rules: at most 10 per object and 50 per bucket, keys of 1–128 characters and values of up to 256
 * from the set AWS allows in tags, no key twice, none in the reserved `aws:` namespace.
 */
import type { Tag } from '../../../domain/s3/types.js';
import { S3Error, s3Errors } from '../errors.js';
import { element, parseXml, rootElement, textOf } from '../xml.js';

export const MAX_OBJECT_TAGS = 10;
export const MAX_BUCKET_TAGS = 50;

const ALLOWED = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;
const invalidTag = (message: string) => new S3Error('InvalidTag', message, 400);

export function checkedTags(tags: Tag[], max: number, of: 'object' | 'bucket'): Tag[] {
  if (tags.length > max) throw invalidTag(`${of === 'object' ? 'Object' : 'Bucket'} tags cannot be greater than ${max}`);
  const seen = new Set<string>();
  for (const { key, value } of tags) {
    const keyLength = [...key].length;
    if (keyLength === 0 || keyLength > 128) throw invalidTag('The TagKey you have provided is invalid: it must be 1 to 128 characters long.');
    if ([...value].length > 256) throw invalidTag('The TagValue you have provided is too long, max 256');
    if (!ALLOWED.test(key)) throw invalidTag('The TagKey you have provided is invalid');
    if (!ALLOWED.test(value)) throw invalidTag('The TagValue you have provided is invalid');
    if (key.toLowerCase().startsWith('aws:')) throw invalidTag('Your TagKey cannot be prefixed with aws:');
    if (seen.has(key)) throw invalidTag('Cannot provide multiple Tags with the same key');
    seen.add(key);
  }
  return tags;
}

/** A `Tagging` document's tags, checked. */
export function parseTagging(body: Buffer, max: number, of: 'object' | 'bucket'): Tag[] {
  const doc = parseXml(body, 'Tagging');
  const set = doc.TagSet;
  if (set === undefined || (set !== '' && (typeof set !== 'object' || set === null))) throw s3Errors.malformedXml();
  const entries = set === '' ? [] : ((set as Record<string, unknown>).Tag ?? []);
  if (!Array.isArray(entries)) throw s3Errors.malformedXml();
  const tags = entries.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || !('Key' in entry)) throw s3Errors.malformedXml();
    const { Key, Value } = entry as { Key: unknown; Value?: unknown };
    return { key: textOf(Key), value: textOf(Value) };
  });
  return checkedTags(tags, max, of);
}

/** The `x-amz-tagging` header: `key=value` pairs joined as a URL query. */
export function parseTaggingHeader(value: string): Tag[] {
  const tags: Tag[] = [];
  const seen = new Set<string>();
  for (const pair of value.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    let key: string;
    let text: string;
    try {
      key = decodeURIComponent((at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, ' '));
      text = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1).replace(/\+/g, ' '));
    } catch {
      throw headerError();
    }
    if (seen.has(key)) throw headerError();
    seen.add(key);
    tags.push({ key, value: text });
  }
  return checkedTags(tags, MAX_OBJECT_TAGS, 'object');
}

const headerError = () =>
  s3Errors.invalidArgument(
    "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.",
    'x-amz-tagging',
  );

export function taggingXml(tags: readonly Tag[]): string {
  return rootElement('Tagging', [
    element(
      'TagSet',
      tags.map((t) => element('Tag', [element('Key', t.key), element('Value', t.value)])),
    ),
  ]);
}
