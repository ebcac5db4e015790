/**
 * What every backend does to a body on its way in: count the bytes, refusing the first one past
 * `maxBytes` before it goes further, and hash them (SHA-256 and MD5) in the same pass.
 */
import { createHash } from 'node:crypto';
import { finished, type Readable, Transform, type TransformCallback } from 'node:stream';
import { type BlobWriteOptions, type BlobWritten, BlobTooLargeError } from './types.js';

export class BlobMeter extends Transform {
  #size = 0;
  readonly #sha256 = createHash('sha256');
  readonly #md5 = createHash('md5');

  constructor(readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#size += chunk.length;
    if (this.#size > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes));
      return;
    }
    this.#sha256.update(chunk);
    this.#md5.update(chunk);
    callback(null, chunk);
  }

  /** What went through; call once the stream has ended. */
  written(): BlobWritten {
    return { size: this.#size, sha256: this.#sha256.digest('hex'), md5: this.#md5.digest('hex') };
  }
}

/**
 * The body's bytes through a BlobMeter, which fails with the body's error, BlobTooLargeError or
 * `signal.reason`. The body is piped rather than handed to `pipeline`, which would destroy it on
 * failure: a failed write unpipes it and leaves it paused, for the caller to answer and close.
 */
export function meterBody(body: Readable, { maxBytes, signal }: BlobWriteOptions): BlobMeter {
  const meter = new BlobMeter(maxBytes);
  // A consumer learns of a failure from its own reading; without a listener, a failure before it
  // starts reading would be an uncaught 'error' event.
  meter.on('error', () => {});
  const fail = (error: unknown) => meter.destroy(error instanceof Error ? error : new Error(String(error), { cause: error }));
  const onAbort = () => fail(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  // Also fires when the body closes before its end (a client that hung up).
  const stopWatchingBody = finished(body, { writable: false }, (error) => {
    if (error) fail(error);
  });
  meter.once('close', () => {
    signal?.removeEventListener('abort', onAbort);
    stopWatchingBody();
    body.unpipe(meter);
  });
  if (signal?.aborted) fail(signal.reason);
  else body.pipe(meter);
  return meter;
}
