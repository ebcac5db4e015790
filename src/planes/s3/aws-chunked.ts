/**
 * Bodies sent as `Content-Encoding: aws-chunked` (the streaming modes of SigV4): the bytes come in
 * chunks, each `<hex size>[;chunk-signature=<sig>]\r\n<bytes>\r\n`, the last of size 0, then
 * optional trailing headers (a checksum, and its signature). The decoder passes the bytes on as they
 * come, checks each chunk's signature as its last byte passes (every signature chains on the one
 * before, starting from the request's), and the trailing checksum at the end. Any failure errors the
 * stream, which fails the write it feeds: nothing of a body that does not verify is kept.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import { S3Error, s3Errors } from './errors.js';
import { EMPTY_SHA256, sameSignature, sha256Hex, sign } from './sigv4.js';

export interface ChunkSigning {
  key: Buffer;
  amzDate: string;
  scope: string;
  /** The request's own signature: the first chunk's chains on it. */
  seed: string;
}

const MAX_LINE = 4096;

const malformedChunk = (message: string) => new S3Error('InvalidRequest', `The aws-chunked body is malformed: ${message}`, 400);

/** Checksums a trailer may carry that can be checked here; others (CRC32C, CRC64NVME) are accepted unchecked. */
type Checker = { update(data: Buffer): void; digest(): string };
function checkerFor(name: string): Checker | undefined {
  if (name === 'x-amz-checksum-crc32') {
    let value = 0;
    return {
      update: (data) => {
        value = crc32(data, value);
      },
      digest: () => {
        const out = Buffer.alloc(4);
        out.writeUInt32BE(value >>> 0);
        return out.toString('base64');
      },
    };
  }
  const algorithm = name === 'x-amz-checksum-sha256' ? 'sha256' : name === 'x-amz-checksum-sha1' ? 'sha1' : undefined;
  if (!algorithm) return undefined;
  const hash = createHash(algorithm);
  return { update: (data) => hash.update(data), digest: () => hash.digest('base64') };
}

export class AwsChunkedDecoder extends Transform {
  #buffer: Buffer = Buffer.alloc(0);
  #state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  #left = 0;
  #chunkSignature = '';
  #chunkHash: Hash | undefined;
  #previous: string;
  #decoded = 0;
  readonly #trailers = new Map<string, string>();
  readonly #trailerLines: string[] = [];
  readonly #checker: Checker | undefined;

  constructor(
    private readonly signing: ChunkSigning | undefined,
    /** Trailing header the request announced (`x-amz-trailer`), if any. */
    private readonly trailer: string | undefined,
    private readonly decodedLength: number | undefined,
  ) {
    super();
    this.#previous = signing?.seed ?? '';
    this.#checker = trailer ? checkerFor(trailer.toLowerCase()) : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#consume();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (this.#state !== 'done') {
      callback(s3Errors.incompleteBody());
      return;
    }
    if (this.decodedLength !== undefined && this.#decoded !== this.decodedLength) {
      callback(s3Errors.incompleteBody());
      return;
    }
    callback();
  }

  #line(): string | undefined {
    const end = this.#buffer.indexOf('\r\n');
    if (end < 0) {
      if (this.#buffer.length > MAX_LINE) throw malformedChunk('a chunk header is too long');
      return undefined;
    }
    const line = this.#buffer.subarray(0, end).toString('latin1');
    this.#buffer = this.#buffer.subarray(end + 2);
    return line;
  }

  #consume(): void {
    for (;;) {
      if (this.#state === 'size') {
        const line = this.#line();
        if (line === undefined) return;
        const [sizeText = '', ...extensions] = line.split(';');
        if (!/^[0-9a-fA-F]{1,16}$/.test(sizeText)) throw malformedChunk('a chunk size is not hexadecimal');
        this.#left = Number.parseInt(sizeText, 16);
        const signature = extensions.find((e) => e.startsWith('chunk-signature='))?.slice('chunk-signature='.length);
        if (this.signing) {
          if (!signature) throw malformedChunk('a chunk has no signature');
          this.#chunkSignature = signature.toLowerCase();
          this.#chunkHash = createHash('sha256');
        }
        if (this.#left === 0) {
          this.#verifyChunk();
          this.#state = 'trailer';
          continue;
        }
        this.#state = 'data';
      } else if (this.#state === 'data') {
        if (this.#buffer.length === 0) return;
        const take = Math.min(this.#left, this.#buffer.length);
        const data = this.#buffer.subarray(0, take);
        this.#buffer = this.#buffer.subarray(take);
        this.#left -= take;
        this.#decoded += take;
        if (this.decodedLength !== undefined && this.#decoded > this.decodedLength) throw s3Errors.incompleteBody();
        this.#chunkHash?.update(data);
        this.#checker?.update(data);
        if (this.#left === 0) {
          this.#verifyChunk();
          this.#state = 'data-end';
        }
        this.push(data);
      } else if (this.#state === 'data-end') {
        if (this.#buffer.length < 2) return;
        if (this.#buffer[0] !== 0x0d || this.#buffer[1] !== 0x0a) throw malformedChunk('a chunk does not end with CRLF');
        this.#buffer = this.#buffer.subarray(2);
        this.#state = 'size';
      } else if (this.#state === 'trailer') {
        const line = this.#line();
        if (line === undefined) return;
        if (line === '') {
          this.#finishTrailers();
          this.#state = 'done';
          continue;
        }
        const colon = line.indexOf(':');
        if (colon <= 0) throw malformedChunk('a trailing header is malformed');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        this.#trailers.set(name, value);
        if (name !== 'x-amz-trailer-signature') this.#trailerLines.push(`${name}:${value}\n`);
      } else {
        // After the body's end only the empty remainder of a client's framing may come.
        this.#buffer = Buffer.alloc(0);
        return;
      }
    }
  }

  #verifyChunk(): void {
    if (!this.signing || !this.#chunkHash) return;
    const expected = sign(
      this.signing.key,
      ['AWS4-HMAC-SHA256-PAYLOAD', this.signing.amzDate, this.signing.scope, this.#previous, EMPTY_SHA256, this.#chunkHash.digest('hex')].join('\n'),
    );
    if (!sameSignature(expected, this.#chunkSignature)) throw s3Errors.signatureMismatch();
    this.#previous = expected;
  }

  #finishTrailers(): void {
    if (this.signing && this.#trailers.size > 0) {
      const signature = this.#trailers.get('x-amz-trailer-signature');
      const expected = sign(
        this.signing.key,
        ['AWS4-HMAC-SHA256-TRAILER', this.signing.amzDate, this.signing.scope, this.#previous, sha256Hex(this.#trailerLines.join(''))].join('\n'),
      );
      if (!signature || !sameSignature(expected, signature.toLowerCase())) throw s3Errors.signatureMismatch();
    }
    if (this.trailer && this.#checker) {
      const sent = this.#trailers.get(this.trailer.toLowerCase());
      if (sent === undefined) throw malformedChunk(`the trailing header ${this.trailer} is missing`);
      if (sent !== this.#checker.digest()) throw s3Errors.badDigest(`The ${this.trailer} you specified did not match the calculated checksum.`);
    }
  }
}
