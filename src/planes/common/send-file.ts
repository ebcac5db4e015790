/**
 * The tail of a read of a stored file, as both file planes (storage, S3) answer it: the request's
 * conditions (conditions.ts) against the file's ETag and modification time, its Range (or the
 * bytes the plane picked), HEAD, then the bytes, read at once when small and streamed when not,
 * and the egress counted once they are sent. What the planes do differently stays theirs: their
 * headers, and how they answer a failed precondition (412) or a range past the end (416).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { etagOf } from '../../domain/files/etag.js';
import type { ByteRange } from '../../files/types.js';
import type { FileRecord } from '../../store/types.js';
import { evaluateConditions, rangeStillApplies, type Validators } from './conditions.js';
import { contentTypeOf } from './content-types.js';
import { header } from './headers.js';
import { chooseRange, contentRange } from './ranges.js';

/** Reads up to this size are answered from one buffer (the stream's machinery costs more than the bytes); larger ones stream. */
const SMALL_READ_BYTES = 64 * 1024;

/** Where the bytes come from (the file service). */
export interface FileReader {
  read(file: FileRecord, range?: ByteRange): Promise<Readable>;
  readBytes(file: FileRecord, range?: ByteRange): Promise<Buffer>;
}

/** Some of a file's bytes: a range of them (none when it is all of them), and how many. */
export interface Slice {
  range: ByteRange | undefined;
  length: number;
}

export interface FileAnswer {
  method: 'GET' | 'HEAD';
  file: FileRecord;
  /** The plane's headers for the file (from fileHeaders); its length and range are added here. */
  headers: Record<string, string | number>;
  /** The bytes the plane picked itself (S3's partNumber); without it, the Range header decides. */
  slice?: () => Slice;
  /** The plane's answer (sent, or thrown) when a precondition fails, and when the range starts past the end. */
  preconditionFailed: () => void;
  rangeNotSatisfiable: () => void;
  /** Counts the bytes of a GET once they are all sent. */
  sent: (length: number) => void;
}

/** The headers a stored file is sent with, before a plane adds its own. */
export function fileHeaders(file: FileRecord): Record<string, string | number> {
  return {
    etag: etagOf(file),
    'last-modified': new Date(file.changedAt).toUTCString(),
    'content-type': file.contentType ?? contentTypeOf(file.path),
    'accept-ranges': 'bytes',
  };
}

/** Answers a GET or HEAD of `answer.file` on `res`: 304, the plane's 412 or 416, or 200/206 with the bytes. */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  files: FileReader,
  answer: FileAnswer,
  logError: (error: unknown) => void,
): Promise<void> {
  const { method, file, headers } = answer;
  const validators: Validators = { etag: etagOf(file), lastModified: new Date(file.changedAt) };
  const outcome = evaluateConditions(method, req.headers, validators);
  if (outcome === 'not-modified') {
    res.writeHead(304, { etag: validators.etag, 'last-modified': validators.lastModified.toUTCString() });
    res.end();
    return;
  }
  if (outcome === 'precondition-failed') return answer.preconditionFailed();
  const slice = answer.slice ? answer.slice() : rangeOf(req, validators, file.size);
  if (slice === undefined) return answer.rangeNotSatisfiable();
  const { range, length } = slice;
  headers['content-length'] = length;
  if (range) headers['content-range'] = contentRange(range, file.size);
  const status = range ? 206 : 200;
  if (method === 'HEAD') {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  if (length <= SMALL_READ_BYTES) {
    // An empty slice of a file that is not (an empty last part) reads nothing: no range says "none of it".
    const bytes = length === 0 ? Buffer.alloc(0) : await files.readBytes(file, range);
    res.writeHead(status, headers);
    res.end(bytes);
    answer.sent(length);
    return;
  }
  const body = await files.read(file, range);
  // The client may have gone while the file was opened: nobody will read it, so close it now.
  if (res.destroyed) {
    body.destroy();
    return;
  }
  res.writeHead(status, headers);
  res.once('finish', () => answer.sent(length));
  body.once('error', (error) => {
    logError(error);
    res.destroy(error);
  });
  res.once('close', () => body.destroy());
  body.pipe(res);
}

/** The bytes the Range header asks for (all of them without one, or when If-Range names another version); undefined past the end. */
function rangeOf(req: IncomingMessage, validators: Validators, size: number): Slice | undefined {
  if (!rangeStillApplies(req.headers, validators)) return { range: undefined, length: size };
  const choice = chooseRange(header(req, 'range'), size);
  if (choice.kind === 'unsatisfiable') return undefined;
  if (choice.kind === 'whole') return { range: undefined, length: size };
  return { range: choice.range, length: choice.range.end - choice.range.start + 1 };
}
