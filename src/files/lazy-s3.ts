/**
 * The S3 backend, loaded on its first use: the AWS SDK is about a fifth of the server's bundle, and
 * a server on local files (the default) never needs it, so it stays out of start-up. Nothing the SDK
 * checks happens at construction (region and credentials resolve on the first request), so the
 * first call reports the same errors it would have.
 */
import type { Readable } from 'node:stream';
import type { S3BlobStore, S3Location } from './s3.js';
import type { BlobStore, BlobWriteOptions, BlobWritten, ByteRange, StoredBlob } from './types.js';

export class LazyS3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  #store: Promise<S3BlobStore> | undefined;

  constructor(private readonly location: S3Location) {}

  #open(): Promise<S3BlobStore> {
    return (this.#store ??= import('./s3.js').then(({ S3BlobStore }) => new S3BlobStore(this.location)));
  }

  async write(key: string, body: Readable, options: BlobWriteOptions): Promise<BlobWritten> {
    return (await this.#open()).write(key, body, options);
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    return (await this.#open()).read(key, range);
  }

  async readBytes(key: string, range: ByteRange): Promise<Buffer> {
    return (await this.#open()).readBytes(key, range);
  }

  async delete(key: string): Promise<void> {
    return (await this.#open()).delete(key);
  }

  async *list(prefix?: string): AsyncIterable<StoredBlob> {
    yield* (await this.#open()).list(prefix);
  }

  async close(): Promise<void> {
    // Never used: nothing to load just to close it.
    if (this.#store) await (await this.#store).close();
  }
}
