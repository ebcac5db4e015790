/**
 * Finds the request boundaries in the bytes a client sends on one HTTP/1.1 connection and rewrites
 * the request line of a `DESCRIBE` request into one Node's parser accepts. Why this is sound, and
 * what it refuses to understand, is argued in extension-methods.ts; this file is the grammar.
 *
 * The framer is a pure function of the byte stream (no timers, no sockets), so it can be fed any
 * split of the same bytes and must emit the same bytes. It copies nothing on the common path: a
 * chunk that needs no rewrite is emitted as it came (or as subarrays around a rewritten head).
 *
 * Accepted, per request (anything else: pass through from there on):
 *   *( CRLF )                                     llhttp skips empty lines between requests
 *   method SP target SP "HTTP/1." ("0" / "1") CRLF    exactly one SP each, target without SP
 *   *( token ":" value CRLF )                     no CR or LF inside, no obsolete folding
 *   CRLF
 *   body: Content-Length (one header, 1*15 DIGIT), or Transfer-Encoding exactly `chunked` on
 *   HTTP/1.1 (one header, no Content-Length), or nothing
 *   chunked: 1*13 HEXDIG *( ";" token [ "=" ( token / quoted-string ) ] ) CRLF data CRLF ...
 *            "0" ... CRLF *( trailer-field CRLF ) CRLF
 * Refused (pass through): `CONNECT`, an `Upgrade` header, a head or trailer section over the limit,
 * a chunk-size line over 4 KiB.
 */

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const DQUOTE = 0x22;
const BACKSLASH = 0x5c;
const HTAB = 0x09;

/** The method the rewritten request carries, and the header that says which method it really was. */
export const REWRITTEN_METHOD = 'PROPFIND';
export const METHOD_MARKER_HEADER = 'X-Edgeplane-Method';
export const DESCRIBE = 'DESCRIBE';

const DESCRIBE_SP = Buffer.from(`${DESCRIBE} `, 'latin1');
const REWRITTEN_METHOD_BYTES = Buffer.from(REWRITTEN_METHOD, 'latin1');
const MARKER_LINE = Buffer.from(`${METHOD_MARKER_HEADER}: ${DESCRIBE}\r\n`, 'latin1');
const CONNECT = Buffer.from('CONNECT', 'latin1');
const HTTP11 = Buffer.from(' HTTP/1.1', 'latin1');
const HTTP10 = Buffer.from(' HTTP/1.0', 'latin1');
const CONTENT_LENGTH = Buffer.from('content-length', 'latin1');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding', 'latin1');
const UPGRADE = Buffer.from('upgrade', 'latin1');
const CHUNKED = Buffer.from('chunked', 'latin1');

if (REWRITTEN_METHOD_BYTES.length !== DESCRIBE.length) throw new Error('the rewritten method must be as long as DESCRIBE');

/** Longest chunk-size line (size and extensions) the framer reads before it gives up. */
const CHUNK_LINE_LIMIT = 4096;
/** 15 digits stay below 2^53; longer lengths are passed through for Node to judge. */
const MAX_LENGTH_DIGITS = 15;
const MAX_CHUNK_SIZE_DIGITS = 13;

const TCHAR = byteTable((c) => /[!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(String.fromCharCode(c)));
const QDTEXT = byteTable((c) => c === HTAB || c === SP || c === 0x21 || (c >= 0x23 && c <= 0x5b) || (c >= 0x5d && c <= 0x7e) || c >= 0x80);
const QUOTED_PAIR = byteTable((c) => c === HTAB || (c >= 0x20 && c !== 0x7f));
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 256; c++) {
  const digit = Number.parseInt(String.fromCharCode(c), 16);
  if (/[0-9A-Fa-f]/.test(String.fromCharCode(c))) HEX[c] = digit;
}

function byteTable(test: (c: number) => boolean): Uint8Array {
  const table = new Uint8Array(256);
  for (let c = 0; c < 256; c++) table[c] = test(c) ? 1 : 0;
  return table;
}

/** Where the framer is in the connection's byte stream. */
enum At {
  /** Between requests: empty lines, or the first byte of a request line. */
  RequestStart,
  /** An empty line's CR between requests; its LF must follow. */
  RequestStartLf,
  /** Inside the head: the request line and the header lines. */
  Head,
  /** Inside a Content-Length body; `remaining` bytes to go. */
  Body,
  ChunkSizeLine,
  /** Inside a chunk's data; `remaining` bytes to go. */
  ChunkData,
  /** The CRLF after a chunk's data; `remaining` is 2 (CR next) or 1 (LF next). */
  ChunkDataEnd,
  Trailers,
  /** Gave up: everything from here on is Node's to judge, untouched. */
  Passthrough,
}

export interface RequestFramerOptions {
  /** Longest head (request line and headers, with their CRLFs), and longest trailer section. */
  headLimit: number;
}

export class RequestFramer {
  private at = At.RequestStart;
  private remaining = 0;
  private readonly headLimit: number;

  /** Bytes of the current head (or trailer section) seen so far, for the limit. */
  private sectionLength = 0;
  /** The start of a line that the previous chunks cut off, copied: lines are read whole. */
  private carry = Buffer.allocUnsafe(256);
  private carryLength = 0;

  /** What the head read so far says about the current request. */
  private lineIndex = 0;
  private requestLineLength = 0;
  private contentLength = -1;
  private chunked = false;
  private http10 = false;

  /**
   * Holding: the current request may be a DESCRIBE, so its bytes are kept back until its head is
   * complete (then rewritten) or it turns out not to be one (then released as they came).
   * `describe` says the method is known to be DESCRIBE; before that the request line only starts
   * with a prefix of it.
   */
  private holdingBytes = false;
  private holds = 0;
  private describe = false;
  private held: Buffer[] = [];

  /** Within the chunk being read: the first byte not yet emitted, and where the held bytes begin. */
  private emitFrom = 0;
  private holdFrom = 0;
  private chunk: Buffer = Buffer.alloc(0);

  constructor(
    private readonly emit: (bytes: Buffer) => void,
    options: RequestFramerOptions,
  ) {
    this.headLimit = options.headLimit;
  }

  /** True while bytes are kept back (part of a head that may be a DESCRIBE's). */
  get holding(): boolean {
    return this.holdingBytes;
  }

  /** Counts the holds begun, so that a timer can tell one hold from the next. */
  get holdCount(): number {
    return this.holds;
  }

  /** True once the framer gave up on this connection. */
  get passingThrough(): boolean {
    return this.at === At.Passthrough;
  }

  push(chunk: Buffer): void {
    const n = chunk.length;
    if (this.at === At.Passthrough) {
      if (n > 0) this.emit(chunk);
      return;
    }
    this.chunk = chunk;
    this.emitFrom = 0;
    this.holdFrom = 0;
    let p = 0;
    while (p < n) {
      // A cast: the state changes inside the loop, through the methods it calls.
      switch (this.at as At) {
        case At.Passthrough:
          p = n;
          break;
        case At.RequestStart: {
          const c = chunk[p]!;
          if (c === CR) {
            this.at = At.RequestStartLf;
            p++;
          } else if (c === LF) {
            this.giveUp();
          } else {
            this.beginRequest(p, c);
          }
          break;
        }
        case At.RequestStartLf:
          if (chunk[p] === LF) {
            this.at = At.RequestStart;
            p++;
          } else {
            this.giveUp();
          }
          break;
        case At.Body: {
          const take = Math.min(this.remaining, n - p);
          p += take;
          this.remaining -= take;
          if (this.remaining === 0) this.at = At.RequestStart;
          break;
        }
        case At.ChunkData: {
          const take = Math.min(this.remaining, n - p);
          p += take;
          this.remaining -= take;
          if (this.remaining === 0) {
            this.at = At.ChunkDataEnd;
            this.remaining = 2;
          }
          break;
        }
        case At.ChunkDataEnd:
          if (chunk[p] !== (this.remaining === 2 ? CR : LF)) {
            this.giveUp();
          } else {
            p++;
            if (--this.remaining === 0) this.at = At.ChunkSizeLine;
          }
          break;
        case At.Head:
        case At.ChunkSizeLine:
        case At.Trailers:
          p = this.readLine(p);
          break;
      }
    }
    if (this.holdingBytes) {
      if (this.holdFrom < n) this.held.push(this.holdFrom === 0 ? chunk : chunk.subarray(this.holdFrom));
    } else {
      this.emitUntil(n);
    }
    this.chunk = Buffer.alloc(0);
  }

  /**
   * Gives up on the connection: whatever is held goes out as it came, and so does everything after.
   * Called when the input ends, and when a held head takes too long.
   */
  passThrough(): void {
    this.releaseHeld();
    this.at = At.Passthrough;
  }

  private emitUntil(end: number): void {
    if (end <= this.emitFrom) return;
    const chunk = this.chunk;
    this.emit(this.emitFrom === 0 && end === chunk.length ? chunk : chunk.subarray(this.emitFrom, end));
    this.emitFrom = end;
  }

  private beginRequest(p: number, first: number): void {
    this.at = At.Head;
    this.sectionLength = 0;
    this.lineIndex = 0;
    this.contentLength = -1;
    this.chunked = false;
    this.http10 = false;
    this.describe = false;
    if (first === DESCRIBE_SP[0]) {
      this.emitUntil(p);
      this.holdingBytes = true;
      this.holds++;
      this.holdFrom = p;
    }
  }

  /** Emits the held bytes untouched; the ones in the current chunk are emitted with what follows. */
  private releaseHeld(): void {
    if (!this.holdingBytes) return;
    this.holdingBytes = false;
    for (const bytes of this.held) this.emit(bytes);
    this.held = [];
    this.emitFrom = this.holdFrom;
  }

  private giveUp(): void {
    this.passThrough();
  }

  /** Reads up to the next LF: a whole line is handled, a cut-off one is carried to the next chunk. */
  private readLine(p: number): number {
    const chunk = this.chunk;
    const lf = chunk.indexOf(LF, p);
    const end = lf === -1 ? chunk.length : lf;
    const limit = this.at === At.ChunkSizeLine ? CHUNK_LINE_LIMIT : this.headLimit;
    const length = (this.at === At.ChunkSizeLine ? this.carryLength : this.sectionLength) + end - p + (lf === -1 ? 0 : 1);
    if (length > limit) {
      this.carryLength = 0;
      this.giveUp();
      return chunk.length;
    }
    if (this.at !== At.ChunkSizeLine) this.sectionLength = length;
    if (lf === -1) {
      this.appendCarry(chunk, p, end);
      if (this.holdingBytes && !this.describe && this.lineIndex === 0) this.checkMethodPrefix();
      return chunk.length;
    }
    if (this.carryLength > 0) {
      this.appendCarry(chunk, p, end);
      const carried = this.carryLength;
      this.carryLength = 0;
      this.line(this.carry, 0, carried, lf + 1);
    } else {
      this.line(chunk, p, end, lf + 1);
    }
    return lf + 1;
  }

  private appendCarry(source: Buffer, start: number, end: number): void {
    const needed = this.carryLength + end - start;
    if (needed > this.carry.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.carry.length * 2));
      this.carry.copy(grown, 0, 0, this.carryLength);
      this.carry = grown;
    }
    source.copy(this.carry, this.carryLength, start, end);
    this.carryLength = needed;
  }

  /** A request line cut off early: keep holding only while it can still be `DESCRIBE `. */
  private checkMethodPrefix(): void {
    const seen = Math.min(this.carryLength, DESCRIBE_SP.length);
    if (this.carry.compare(DESCRIBE_SP, 0, seen, 0, seen) !== 0) this.releaseHeld();
    else if (seen === DESCRIBE_SP.length) this.describe = true;
  }

  /**
   * One line, `buf[start, lfAt)` (the LF excluded); `next` is where the chunk continues after it.
   * Every line must end in CRLF with no other CR in it: llhttp refuses a bare CR, and is the judge
   * of a bare LF only when the framer has stepped aside.
   */
  private line(buf: Buffer, start: number, lfAt: number, next: number): void {
    const end = lfAt - 1;
    const understood = end >= start && buf[end] === CR && buf.indexOf(CR, start) === end && this.lineContent(buf, start, end, next);
    if (!understood) this.giveUp();
  }

  private lineContent(buf: Buffer, start: number, end: number, next: number): boolean {
    switch (this.at) {
      case At.Head:
        if (this.lineIndex++ === 0) return this.requestLine(buf, start, end);
        if (end === start) return this.headEnd(next);
        return this.headerLine(buf, start, end);
      case At.ChunkSizeLine:
        return this.chunkSizeLine(buf, start, end);
      case At.Trailers:
        if (end === start) {
          this.at = At.RequestStart;
          return true;
        }
        return fieldNameEnd(buf, start, end) !== -1;
      default:
        return false;
    }
  }

  private requestLine(buf: Buffer, start: number, end: number): boolean {
    const methodEnd = buf.indexOf(SP, start);
    const versionStart = end - HTTP11.length;
    if (methodEnd <= start || versionStart <= methodEnd + 1 || buf.indexOf(SP, methodEnd + 1) !== versionStart) return false;
    if (buf.compare(HTTP11, 0, HTTP11.length, versionStart, end) !== 0) {
      if (buf.compare(HTTP10, 0, HTTP10.length, versionStart, end) !== 0) return false;
      this.http10 = true;
    }
    const methodLength = methodEnd - start;
    if (methodLength === CONNECT.length && buf.compare(CONNECT, 0, CONNECT.length, start, methodEnd) === 0) return false;
    this.requestLineLength = this.sectionLength;
    if (this.holdingBytes) {
      this.describe = methodLength === DESCRIBE.length && buf.compare(DESCRIBE_SP, 0, DESCRIBE.length, start, methodEnd) === 0;
      if (!this.describe) this.releaseHeld();
    }
    return true;
  }

  private headerLine(buf: Buffer, start: number, end: number): boolean {
    const colon = fieldNameEnd(buf, start, end);
    if (colon === -1) return false;
    const nameLength = colon - start;
    if (nameLength === CONTENT_LENGTH.length && sameName(buf, start, CONTENT_LENGTH)) {
      if (this.contentLength !== -1) return false;
      this.contentLength = parseLength(buf, colon + 1, end);
      return this.contentLength !== -1;
    }
    if (nameLength === TRANSFER_ENCODING.length && sameName(buf, start, TRANSFER_ENCODING)) {
      if (this.chunked || !isChunked(buf, colon + 1, end)) return false;
      this.chunked = true;
      return true;
    }
    return !(nameLength === UPGRADE.length && sameName(buf, start, UPGRADE));
  }

  private headEnd(next: number): boolean {
    if (this.chunked && (this.contentLength !== -1 || this.http10)) return false;
    if (this.holdingBytes) this.rewrite(next);
    if (this.chunked) {
      this.at = At.ChunkSizeLine;
    } else if (this.contentLength > 0) {
      this.at = At.Body;
      this.remaining = this.contentLength;
    } else {
      this.at = At.RequestStart;
    }
    return true;
  }

  /** The held head is a DESCRIBE's and whole: emit it as PROPFIND with the marker after the request line. */
  private rewrite(next: number): void {
    const tail = this.chunk.subarray(this.holdFrom, next);
    const head = this.held.length === 0 ? tail : Buffer.concat([...this.held, tail]);
    this.emit(
      Buffer.concat([REWRITTEN_METHOD_BYTES, head.subarray(DESCRIBE.length, this.requestLineLength), MARKER_LINE, head.subarray(this.requestLineLength)]),
    );
    this.held = [];
    this.holdingBytes = false;
    this.emitFrom = next;
  }

  private chunkSizeLine(buf: Buffer, start: number, end: number): boolean {
    let i = start;
    let size = 0;
    while (i < end) {
      const digit = HEX[buf[i]!]!;
      if (digit < 0) break;
      size = size * 16 + digit;
      i++;
    }
    if (i === start || i - start > MAX_CHUNK_SIZE_DIGITS || !validExtensions(buf, i, end)) return false;
    if (size === 0) {
      this.at = At.Trailers;
      this.sectionLength = 0;
    } else {
      this.at = At.ChunkData;
      this.remaining = size;
    }
    return true;
  }
}

/** Validates a field line's name (a token before the colon); returns the colon's index, or -1. */
function fieldNameEnd(buf: Buffer, start: number, end: number): number {
  const colon = buf.indexOf(COLON, start);
  if (colon <= start || colon >= end) return -1;
  for (let i = start; i < colon; i++) if (TCHAR[buf[i]!] === 0) return -1;
  return colon;
}

/** `buf[start..]` equals `lower` ignoring ASCII case; the name was already checked to be a token. */
function sameName(buf: Buffer, start: number, lower: Buffer): boolean {
  for (let i = 0; i < lower.length; i++) if ((buf[start + i]! | 0x20) !== lower[i]) return false;
  return true;
}

function trimStart(buf: Buffer, start: number, end: number): number {
  while (start < end && (buf[start] === SP || buf[start] === HTAB)) start++;
  return start;
}

function trimEnd(buf: Buffer, start: number, end: number): number {
  while (end > start && (buf[end - 1] === SP || buf[end - 1] === HTAB)) end--;
  return end;
}

/** A Content-Length value: digits only (around optional whitespace), or -1. */
function parseLength(buf: Buffer, start: number, end: number): number {
  const from = trimStart(buf, start, end);
  const to = trimEnd(buf, from, end);
  if (to === from || to - from > MAX_LENGTH_DIGITS) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = buf[i]! - 0x30;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

function isChunked(buf: Buffer, start: number, end: number): boolean {
  const from = trimStart(buf, start, end);
  const to = trimEnd(buf, from, end);
  return to - from === CHUNKED.length && sameName(buf, from, CHUNKED);
}

/** `*( ";" token [ "=" ( token / quoted-string ) ] )`, with no whitespace anywhere. */
function validExtensions(buf: Buffer, i: number, end: number): boolean {
  while (i < end) {
    if (buf[i] !== SEMICOLON) return false;
    const nameStart = ++i;
    while (i < end && TCHAR[buf[i]!] === 1) i++;
    if (i === nameStart) return false;
    if (i === end || buf[i] !== EQUALS) continue;
    i++;
    if (buf[i] === DQUOTE) {
      i++;
      for (;;) {
        if (i >= end) return false;
        const c = buf[i]!;
        if (c === DQUOTE) break;
        if (c === BACKSLASH) {
          if (++i >= end || QUOTED_PAIR[buf[i]!] === 0) return false;
        } else if (QDTEXT[c] === 0) {
          return false;
        }
        i++;
      }
      i++;
    } else {
      const valueStart = i;
      while (i < end && TCHAR[buf[i]!] === 1) i++;
      if (i === valueStart) return false;
    }
  }
  return true;
}
