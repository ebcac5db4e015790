/**
 * Blobs as objects in an S3-compatible store (`s3://<bucket>[/<prefix>]`), each under
 * `<prefix>/<key>`. Credentials come from the AWS SDK's default chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, or the instance's role). A write streams the body of unknown
 * length part by part (one PUT when it fits in a part, else a multipart upload), and is durable
 * once the store has acknowledged it.
 */
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, paginateListObjectsV2, S3Client, Upload } from './s3-sdk.js';
import { Readable } from 'node:stream';
import { blobKeySegments, blobPrefix, isBlobKey } from './blob-key.js';
import { checkRange } from './byte-range.js';
import { meterBody } from './metered-body.js';
import { BlobNotFoundError, type BlobStore, type BlobWriteOptions, type BlobWritten, type ByteRange, type StoredBlob } from './types.js';

export interface S3Location {
  bucket: string;
  /** Path inside the bucket that every key lives under, without slashes at either end ('' for none). */
  prefix: string;
  /** Another store than AWS (MinIO, Garage, R2, Ceph …): its URL. */
  endpoint?: string;
  /** Else the SDK's chain (AWS_REGION, the profile); `us-east-1` when an endpoint is given. */
  region?: string;
  /** Address the bucket in the path (`<endpoint>/<bucket>/<key>`) rather than the host name. */
  forcePathStyle: boolean;
}

const MiB = 1024 * 1024;
/** S3's smallest part (but the last) and most parts per upload. */
const MIN_PART_SIZE = 5 * MiB;
const MAX_PARTS = 10_000;
/** Parts are held in memory while they upload, so they stay small; this caps a blob at 625 GiB. */
const MAX_PART_SIZE = 64 * MiB;
export const LARGEST_BLOB = MAX_PART_SIZE * MAX_PARTS;
/** Parts in flight stay within this (plus the one being filled). */
const UPLOAD_MEMORY = 64 * MiB;
const MAX_PARTS_IN_FLIGHT = 4;

/** Parts large enough for `maxBytes` to fit in S3's 10,000, and as many in flight as the memory budget allows. */
export function uploadShape(maxBytes: number): { partSize: number; queueSize: number } {
  const partSize = Math.min(MAX_PART_SIZE, Math.max(MIN_PART_SIZE, Math.ceil(maxBytes / MAX_PARTS)));
  return { partSize, queueSize: Math.max(1, Math.min(MAX_PARTS_IN_FLIGHT, Math.floor(UPLOAD_MEMORY / partSize))) };
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;
  /** '' or ending in '/'. */
  readonly #keyPrefix: string;

  constructor(location: S3Location) {
    this.#bucket = location.bucket;
    this.#keyPrefix = location.prefix ? `${location.prefix}/` : '';
    this.#client = new S3Client({
      endpoint: location.endpoint,
      region: location.region ?? (location.endpoint ? 'us-east-1' : undefined),
      forcePathStyle: location.forcePathStyle,
      // The SDK's default sends CRC32 checksums in aws-chunked trailers, which many S3-compatible
      // stores do not understand; SHA-256 and MD5 are computed here anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  #objectKey(key: string): string {
    blobKeySegments(key);
    return this.#keyPrefix + key;
  }

  async write(key: string, body: Readable, options: BlobWriteOptions): Promise<BlobWritten> {
    const objectKey = this.#objectKey(key);
    const { signal } = options;
    signal?.throwIfAborted();
    const maxBytes = Math.min(options.maxBytes, LARGEST_BLOB);
    const meter = meterBody(body, { ...options, maxBytes });
    try {
      const upload = new Upload({
        client: this.#client,
        params: { Bucket: this.#bucket, Key: objectKey, Body: meter },
        ...uploadShape(maxBytes),
      });
      // A failing body fails the upload through the meter, and the upload settles only once every
      // part in flight has, then aborts itself: nothing is still uploading afterwards.
      await upload.done();
    } catch (error) {
      meter.destroy();
      // The upload's own error is then only the consequence (or the abort that followed failing).
      throw signal?.aborted ? signal.reason : (meter.errored ?? error);
    }
    // Aborted after the last byte, while the store was completing the upload.
    if (signal?.aborted) {
      await this.#deleteObject(objectKey);
      throw signal.reason;
    }
    return meter.written();
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const objectKey = this.#objectKey(key);
    if (range) checkRange(range);
    try {
      const { Body } = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: objectKey, Range: range && `bytes=${range.start}-${range.end}` }),
      );
      if (!(Body instanceof Readable)) throw new Error(`GetObject answered ${key} without a stream`);
      return Body;
    } catch (error) {
      if (error instanceof NoSuchKey) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async readBytes(key: string, range: ByteRange): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.read(key, range)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async delete(key: string): Promise<void> {
    await this.#deleteObject(this.#objectKey(key));
  }

  async #deleteObject(objectKey: string): Promise<void> {
    // S3 answers a delete of a missing object like any other.
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: objectKey }));
  }

  async *list(prefix = ''): AsyncGenerator<StoredBlob> {
    blobPrefix(prefix);
    const pages = paginateListObjectsV2({ client: this.#client }, { Bucket: this.#bucket, Prefix: this.#keyPrefix + prefix });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.#keyPrefix.length);
        // Objects that others put under the prefix are not ours to report (nor to sweep).
        if (key !== undefined && object.LastModified && isBlobKey(key)) yield { key, modified: object.LastModified };
      }
    }
  }

  /**
   * A write leaves nothing of its own behind: a failed upload is aborted, and what an upload cut
   * short by a crash left is invisible to readers and listing, and expired by the store (a bucket
   * lifecycle rule on AWS; the README says which).
   */
  async close(): Promise<void> {
    this.#client.destroy();
  }
}
