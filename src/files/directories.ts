/**
 * Folders of the local backend: a new file's entry is durable only once the folder holding it is
 * fsynced, and so is every folder created for it (its entry lives in its parent); deletes remove
 * the folders they leave empty.
 */
import { close, fsync, open } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { promisify } from 'node:util';

const openFd = promisify(open);
const fsyncFd = promisify(fsync);
const closeFd = promisify(close);
import { dirname, sep } from 'node:path';

export async function syncDirectory(path: string): Promise<void> {
  // Windows cannot open a directory to flush it; NTFS journals its metadata instead.
  if (process.platform === 'win32') return;
  const fd = await openFd(path, 'r');
  try {
    await fsyncFd(fd);
  } finally {
    await closeFd(fd);
  }
}

/** `path` and its ancestors up to and including `top`, deepest first. */
export function upTo(path: string, top: string): string[] {
  const chain = [path];
  for (let at = path; at !== top && dirname(at) !== at; ) chain.push((at = dirname(at)));
  return chain;
}

/** Removes `directory` and its ancestors below `top` as long as they are empty. */
export async function removeEmptyDirectories(directory: string, top: string): Promise<void> {
  for (let at = directory; at.startsWith(top + sep); at = dirname(at)) {
    try {
      await rmdir(at);
    } catch {
      // Not empty (the usual case), already gone, or in use by a write: all mean stop here.
      return;
    }
  }
}
