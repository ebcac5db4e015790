/**
 * Deterministic pseudo-random bytes made on the fly (an AES-CTR keystream), so a test can stream
 * hundreds of megabytes without holding them, and make the same bytes again to check a copy.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobWritten } from '../../src/files/types.js';

const CHUNK = 64 * 1024;

export function generatedStream(size: number, seed = 'seed'): Readable {
  const cipher = createCipheriv('aes-256-ctr', createHash('sha256').update(seed).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(CHUNK);
  let left = size;
  return new Readable({
    read() {
      if (left === 0) {
        this.push(null);
        return;
      }
      const length = Math.min(CHUNK, left);
      left -= length;
      this.push(cipher.update(zeros.subarray(0, length)));
    },
  });
}

export async function generatedBytes(size: number, seed = 'seed'): Promise<Buffer> {
  return readAll(generatedStream(size, seed));
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Size and hashes of a stream, computed as it flows. */
export async function digestOf(stream: Readable): Promise<BlobWritten> {
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    sha256.update(chunk as Buffer);
    md5.update(chunk as Buffer);
  }
  return { size, sha256: sha256.digest('hex'), md5: md5.digest('hex') };
}

export function digestOfBytes(bytes: Buffer): BlobWritten {
  return {
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    md5: createHash('md5').update(bytes).digest('hex'),
  };
}

/** `equal`, or where two buffers part: vitest's deep equality takes seconds over megabytes. */
export function byteDifference(actual: Buffer, expected: Buffer): string {
  if (actual.equals(expected)) return 'equal';
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  return `${actual.length} bytes where ${expected.length} were expected, first difference at ${at}`;
}
