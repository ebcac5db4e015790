/**
 * An object's S3 tags live in its file's metadata, beside the user metadata, as `tag:<key>`
 * entries: user metadata names are HTTP header names, which never hold a colon, so the two never
 * meet, and the tags go wherever the file goes (a copy, a replacement, a deletion) with no table
 * of their own to keep in step.
 */
import type { Tag } from './types.js';

export const TAG_PREFIX = 'tag:';

export function tagsOf(metadata: Record<string, string> | null | undefined): Tag[] {
  const tags: Tag[] = [];
  for (const [name, value] of Object.entries(metadata ?? {})) if (name.startsWith(TAG_PREFIX)) tags.push({ key: name.slice(TAG_PREFIX.length), value });
  return tags;
}

/** The metadata without its tags. */
export function untagged(metadata: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata ?? {})) if (!name.startsWith(TAG_PREFIX)) out[name] = value;
  return out;
}

/** The metadata with `tags` in place of the tags it had; null when nothing is left. */
export function withTags(metadata: Record<string, string> | null | undefined, tags: readonly Tag[]): Record<string, string> | null {
  const out = untagged(metadata);
  for (const tag of tags) out[`${TAG_PREFIX}${tag.key}`] = tag.value;
  return Object.keys(out).length === 0 ? null : out;
}
