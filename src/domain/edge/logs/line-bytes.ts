/**
 * Log lines gathered as UTF-8 bytes, `\n` between them, in one growing buffer: what a second of a
 * busy zone's lines waits in before it is compressed and stored. Kept as strings, 20,000 lines a
 * second outlived the young generation (each line a tree of a dozen string pieces, promoted and
 * then collected by the old generation's GC) and were joined again at the flush: per line, more
 * CPU than the rest of the access log (BENCHMARKS.md).
 *
 * The buffers are used again (SpareBuffers): a fresh buffer of a few MB each second is memory the
 * kernel has to fault in page by page as the lines are written, which cost more than writing them
 * (about 0.6 µs a line, measured: 1.5 µs a line made and kept in fresh buffers, 0.8 in reused ones).
 */
const FIRST_BYTES = 4096;
const NEWLINE = 0x0a;
/** Spare buffers kept, and the largest kept (a burst's buffer is let go). */
const SPARES = 8;
const LARGEST_SPARE = 32 << 20;

/** Buffers whose lines were written out, to hold the next lines. */
export class SpareBuffers {
  private readonly kept: Buffer[] = [];

  /** A buffer of at least `bytes`: a spare one when one is large enough. */
  take(bytes: number): Buffer {
    for (let i = this.kept.length - 1; i >= 0; i--) {
      const spare = this.kept[i]!;
      if (spare.length < bytes) continue;
      this.kept.splice(i, 1);
      return spare;
    }
    return Buffer.allocUnsafe(bytes);
  }

  give(buffer: Buffer): void {
    if (buffer.length > LARGEST_SPARE || buffer.length <= FIRST_BYTES) return;
    if (this.kept.length >= SPARES) this.kept.shift();
    this.kept.push(buffer);
  }
}

const NO_SPARES = { take: (bytes: number) => Buffer.allocUnsafe(bytes), give: () => undefined };

export class LineBytes {
  private buffer: Buffer;
  private length = 0;
  /** Lines held. */
  count = 0;

  /**
   * `expectedBytes`: what the lines will likely take (the zone's last second's), so the buffer is
   * not grown step by step; `spares`: where its buffers come from and go back to (`release`).
   */
  constructor(
    expectedBytes = 0,
    private readonly spares: Pick<SpareBuffers, 'take' | 'give'> = NO_SPARES,
  ) {
    this.buffer = spares.take(Math.max(FIRST_BYTES, Math.ceil(expectedBytes * 1.125)));
  }

  /** The lines were written out: the buffer goes back to the spares (these lines are gone). */
  release(): void {
    this.spares.give(this.buffer);
    this.buffer = EMPTY;
    this.length = 0;
    this.count = 0;
  }

  /** The bytes the lines take. */
  get byteLength(): number {
    return this.length;
  }

  push(line: string): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes; one more for the newline.
    const room = line.length * 3 + 1;
    if (this.length + room > this.buffer.length) this.grow(this.length + room);
    if (this.count > 0) this.buffer[this.length++] = NEWLINE;
    this.length += this.buffer.write(line, this.length);
    this.count++;
  }

  /** The lines of `older` before these. */
  prepend(older: LineBytes): void {
    if (older.count === 0) return;
    const joined = this.spares.take(Math.max(FIRST_BYTES, older.length + 1 + this.length));
    older.buffer.copy(joined, 0, 0, older.length);
    let at = older.length;
    if (this.count > 0) {
      joined[at++] = NEWLINE;
      this.buffer.copy(joined, at, 0, this.length);
      at += this.length;
    }
    this.spares.give(this.buffer);
    this.buffer = joined;
    this.length = at;
    this.count += older.count;
  }

  /** Drops the `n` oldest lines. */
  dropOldest(n: number): void {
    if (n <= 0) return;
    if (n >= this.count) {
      this.length = 0;
      this.count = 0;
      return;
    }
    let at = 0;
    for (let i = 0; i < n; i++) at = this.buffer.indexOf(NEWLINE, at) + 1;
    this.buffer = Buffer.from(this.buffer.subarray(at, this.length));
    this.length -= at;
    this.count -= n;
  }

  /** The lines, `\n` between them (a view: valid until the next change). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private grow(atLeast: number): void {
    const next = this.spares.take(Math.max(atLeast, this.buffer.length * 2));
    this.buffer.copy(next, 0, 0, this.length);
    this.spares.give(this.buffer);
    this.buffer = next;
  }
}

const EMPTY = Buffer.alloc(0);
