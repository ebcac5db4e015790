/**
 * Where the bytes of stored files live. File metadata (names, sizes, checksums, the directory tree)
 * lives in the store; a backend only keeps immutable blobs under keys the domain chooses, never
 * reused: an overwrite writes a new blob and points the metadata at it, so a reader gets the old
 * bytes or the new ones, never a mix. Backends: a local directory (`file:`), or any S3-compatible
 * object store (`s3://`).
 *
 * A key is segments of `A-Z a-z 0-9 . _ -` joined by single slashes (`<zoneId>/<uuid>`), none of
 * them `.` or `..`, 900 characters at most; every method refuses another with InvalidBlobKeyError.
 */
import type { Readable } from 'node:stream';

export interface BlobWritten {
  /** Bytes written. */
  size: number;
  /** SHA-256 of the bytes, lowercase hex. */
  sha256: string;
  /** MD5 of the bytes, lowercase hex (S3 ETags). */
  md5: string;
}

export interface BlobWriteOptions {
  /** More bytes than this fail the write with BlobTooLargeError before they are kept. */
  maxBytes: number;
  /** Aborting before the write settles fails it with `signal.reason` and leaves nothing behind. */
  signal?: AbortSignal;
}

/** Inclusive byte range, as HTTP's Range header counts. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredBlob {
  key: string;
  /** When the blob was written (for sweeping blobs that no metadata points at). */
  modified: Date;
}

export interface BlobStore {
  /** `file` or `s3`, for health and logs. */
  readonly kind: 'file' | 's3';
  /**
   * Streams `body` into a new blob under `key` (which must not exist yet). Resolves once the bytes
   * are durable (fsynced / acknowledged by the object store). On any failure — the body errors,
   * the signal aborts, `maxBytes` is exceeded — nothing is left under `key` and the promise rejects.
   *
   * `body` is read but never destroyed: when the write fails early (too large, aborted) the rest of
   * the body is left unread and paused, so an HTTP layer can still answer 413 before it closes the
   * connection.
   */
  write(key: string, body: Readable, options: BlobWriteOptions): Promise<BlobWritten>;
  /**
   * The blob's bytes, or `range` of them; rejects with BlobNotFoundError when there is no such blob.
   * The caller checks `range` against the blob's size (it knows it from the metadata); a range that
   * ends past the blob is cut at its end.
   */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * The bytes of `range` of a blob, at once: for small reads, where a stream costs more than the
   * read itself. The caller bounds the size (the plane uses it up to 64 KiB).
   */
  readBytes(key: string, range: ByteRange): Promise<Buffer>;
  /** Removes a blob; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every blob whose key starts with `prefix` (all when empty), in no particular order, fetched as
   * the iteration goes rather than all at once. On disk a write in progress is listed too (with
   * the time of its last write): only the metadata tells a blob in use.
   */
  list(prefix?: string): AsyncIterable<StoredBlob>;
  /** Releases connections and handles. */
  close(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no blob ${key}`);
  }
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

/** A key (or list prefix) outside the alphabet every backend can hold safely: a bug in the caller, never user input. */
export class InvalidBlobKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid blob key ${JSON.stringify(key)}: ${reason}`);
  }
}
