import { close, fsync, open as openFile, read as readFile, write } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rm, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { checkRange } from './byte-range.js';
import { removeEmptyDirectories, syncDirectory, upTo } from './directories.js';
import { isMissing, LocalLayout } from './local-layout.js';
import { meterBody } from './metered-body.js';
import { BlobNotFoundError, type BlobStore, type BlobWriteOptions, type BlobWritten, type ByteRange, type StoredBlob } from './types.js';

// Plain descriptors rather than FileHandle objects, and a loop rather than stream.pipeline: an
// upload is a handful of calls, and both of those cost more than the calls themselves for small files.
const openFd = promisify(openFile);
const writeFd = promisify(write);
const fsyncFd = promisify(fsync);
const closeFd = promisify(close);
const readFd = promisify(readFile);

/** Writes every chunk whole: a write may take fewer bytes than asked. */
async function writeAll(fd: number, source: AsyncIterable<Buffer>): Promise<void> {
  for await (const chunk of source) {
    for (let offset = 0; offset < chunk.length; ) offset += (await writeFd(fd, chunk, offset, chunk.length - offset, null)).bytesWritten;
  }
}

export class LocalDiskBlobStore implements BlobStore {
  readonly kind = 'file';
  readonly #layout: LocalLayout;
  /** Folders made (or seen) by this process: most writes go to one that exists, and skip mkdir. */
  readonly #knownDirectories = new Set<string>();

  readonly directory: string;

  /** `directory` (relative paths start from the working directory) and its folders are created as needed. */
  constructor(directory: string) {
    this.directory = resolve(directory);
    this.#layout = new LocalLayout(this.directory);
  }

  async write(key: string, body: Readable, options: BlobWriteOptions): Promise<BlobWritten> {
    const target = this.#layout.blobPath(key);
    const { signal } = options;
    signal?.throwIfAborted();
    const { fd, newDirectories } = await this.#create(target);
    let open = true;
    let written: BlobWritten;
    try {
      const meter = meterBody(body, options);
      try {
        await writeAll(fd, meter);
      } catch (error) {
        throw signal?.aborted ? signal.reason : error;
      }
      written = meter.written();
      await fsyncFd(fd);
      open = false;
      await closeFd(fd);
      signal?.throwIfAborted();
      // The file's entry (and any folder made for it) is durable once its folder is synced.
      for (const directory of newDirectories) await syncDirectory(directory);
    } catch (error) {
      if (open) await closeFd(fd).catch(() => {});
      await rm(target, { force: true });
      throw error;
    }
    return written;
  }

  /**
   * Creates the blob's file at its final place: keys are never reused, and nothing reads a blob
   * before the metadata that names it commits, which happens only after the bytes are durable, so
   * a write needs no temporary name. Folders known to exist are not made again; one that a delete
   * removed meanwhile (it leaves no empty folders) is made again.
   */
  async #create(target: string): Promise<{ fd: number; newDirectories: string[] }> {
    const directory = dirname(target);
    for (let attempt = 1; ; attempt++) {
      let made: string | undefined;
      if (!this.#knownDirectories.has(directory)) {
        made = await mkdir(directory, { recursive: true });
        this.#knownDirectories.add(directory);
      }
      try {
        const fd = await openFd(target, 'wx');
        return { fd, newDirectories: made === undefined ? [directory] : upTo(directory, dirname(made)) };
      } catch (error) {
        this.#knownDirectories.delete(directory);
        if (attempt < 5 && isMissing(error)) continue;
        throw error;
      }
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.#layout.blobPath(key);
    if (range) checkRange(range);
    let file: FileHandle;
    try {
      file = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    // Opened before returning, so a delete from now on (an unlink) no longer affects this reader.
    return file.createReadStream({ start: range?.start, end: range?.end });
  }

  async readBytes(key: string, range: ByteRange): Promise<Buffer> {
    checkRange(range);
    let fd: number;
    try {
      fd = await openFd(this.#layout.blobPath(key), 'r');
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    try {
      const bytes = Buffer.allocUnsafe(range.end - range.start + 1);
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await readFd(fd, bytes, filled, bytes.length - filled, range.start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === bytes.length ? bytes : bytes.subarray(0, filled);
    } finally {
      await closeFd(fd);
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.#layout.blobPath(key);
    try {
      await unlink(path);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    await removeEmptyDirectories(dirname(path), this.#layout.blobsDirectory);
  }

  list(prefix = ''): AsyncIterable<StoredBlob> {
    return this.#layout.blobs(prefix);
  }

  async close(): Promise<void> {
    // Every handle belongs to a single call and is closed by it.
  }
}
