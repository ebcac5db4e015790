/**
 * The compressors (node:zlib), run off the event loop: a cached copy is compressed once on libuv's
 * thread pool, an answer passing through by a zlib stream.
 *
 * How hard they work: a copy up to BEST_EFFORT_BYTES gets each coding's best (gzip 9, Brotli 11:
 * 10 KiB of CSS in 1–20 ms, once, for the answer's whole life in the cache); a larger copy and a
 * stream get gzip 6 and Brotli 5, which keep about the ratio of gzip 9 at a tenth of Brotli 11's
 * time (measured on CSS: 1 MiB, Brotli 11 in 2.3 s against 33 ms for Brotli 5).
 */
import { promisify } from 'node:util';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Coding } from './accept-encoding.js';

/** Copies up to this size are compressed as small as each coding can. */
export const BEST_EFFORT_BYTES = 32 * 1024;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const brotliOptions = (quality: number, sizeHint: number): zlib.BrotliOptions => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, ...(sizeHint > 0 ? { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}) },
});

/** The whole body compressed with `coding`. */
export function compressBody(body: Buffer, coding: Coding): Promise<Buffer> {
  const best = body.length <= BEST_EFFORT_BYTES;
  switch (coding) {
    case 'gzip':
      return gzip(body, { level: best ? 9 : 6 });
    case 'br':
      return brotli(body, brotliOptions(best ? 11 : 5, body.length));
  }
}

/** A stream that compresses what is written to it with `coding`. */
export function compressingStream(coding: Coding): Transform {
  switch (coding) {
    case 'gzip':
      return zlib.createGzip({ level: 6 });
    case 'br':
      return zlib.createBrotliCompress(brotliOptions(5, 0));
  }
}
