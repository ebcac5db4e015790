/**
 * Where the local backend keeps what, under its directory:
 *
 *   blobs/<key's directories>/@<hh>/<key's last segment>
 *
 * `zone7/3f2a…` lies at `blobs/zone7/@c4/3f2a…`. `hh` is the first two hex digits of the SHA-256 of
 * the last segment, so whatever the names look like, a directory's blobs spread evenly over 256
 * folders (tens of millions of files before one folder holds a hundred thousand). Keys cannot hold
 * `@`, so a fan-out folder never clashes with a key's directory, and `a/b` (the file `a/@hh/b`) can
 * live beside `a/b/c` (under the folder `a/b`) as S3 allows.
 */
import { createHash } from 'node:crypto';
import type { Dir } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { blobKeySegments, blobPrefix, isBlobKey } from './blob-key.js';
import type { StoredBlob } from './types.js';

const FAN_OUT = /^@[0-9a-f]{2}$/;

function fanOutFor(name: string): string {
  return `@${createHash('sha256').update(name).digest('hex').slice(0, 2)}`;
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function openDirectory(path: string): Promise<Dir | undefined> {
  try {
    return await opendir(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export class LocalLayout {
  readonly blobsDirectory: string;

  constructor(readonly root: string) {
    this.blobsDirectory = join(root, 'blobs');
  }

  /** The file of a (validated) key. */
  blobPath(key: string): string {
    const segments = blobKeySegments(key);
    const name = segments.pop()!;
    return join(this.blobsDirectory, ...segments, fanOutFor(name), name);
  }

  /**
   * Walks the tree below the prefix's whole segments, one directory handle open per level, so a
   * listing of millions of blobs holds a few directory entries at a time, never the whole tree.
   */
  async *blobs(prefix: string): AsyncGenerator<StoredBlob> {
    const { directories, partial } = blobPrefix(prefix);
    yield* this.#walk(directories, partial);
  }

  async *#walk(keyDirectories: string[], partial: string): AsyncGenerator<StoredBlob> {
    const directory = join(this.blobsDirectory, ...keyDirectories);
    const handle = await openDirectory(directory);
    if (!handle) return;
    for await (const entry of handle) {
      if (!entry.isDirectory()) continue;
      if (FAN_OUT.test(entry.name)) yield* this.#blobsIn(join(directory, entry.name), entry.name, keyDirectories, partial);
      else if (entry.name.startsWith(partial) && isBlobKey(entry.name)) yield* this.#walk([...keyDirectories, entry.name], '');
    }
  }

  async *#blobsIn(fanOutDirectory: string, fanOut: string, keyDirectories: string[], partial: string): AsyncGenerator<StoredBlob> {
    const handle = await openDirectory(fanOutDirectory);
    if (!handle) return;
    for await (const entry of handle) {
      // What the layout could not have put here is not a blob: read and delete would never find it.
      if (!entry.isFile() || !entry.name.startsWith(partial) || !isBlobKey(entry.name) || fanOutFor(entry.name) !== fanOut) continue;
      const modified = await lstat(join(fanOutDirectory, entry.name)).then(
        (stats) => stats.mtime,
        (error: unknown) => {
          // Deleted since the directory was read.
          if (isMissing(error)) return undefined;
          throw error;
        },
      );
      if (modified) yield { key: [...keyDirectories, entry.name].join('/'), modified };
    }
  }
}
