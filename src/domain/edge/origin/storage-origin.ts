/**
 * A storage zone as a pull zone's origin: its files are read through the storage domain (the same
 * metadata and blob store the storage plane serves), with no HTTP hop. The answer looks like the
 * storage plane's: the file's type, ETag (its MD5), Last-Modified and length, and the headers the
 * file keeps (kept-headers.ts: the Cache-Control, Content-Encoding … an S3 write gave it); without
 * a kept Cache-Control, the zone's cache settings (or the heuristic lifetime from Last-Modified)
 * decide. A path that names no file, a directory, or an invalid path answers 404. Directory
 * listings are not served.
 */
import { Readable } from 'node:stream';
import type { FileRecord } from '../../../store/types.js';
import { keptHeadersOf } from '../../files/kept-headers.js';
import { zonePath } from '../../files/paths.js';
import type { FileService } from '../../files/service.js';
import { mimeTypes } from '../../../files/media-types.js';
import { etagOf } from '../../files/etag.js';

export interface StorageAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | Readable;
}

/** Files up to this size are read into one buffer; larger ones stream. */
const SMALL_READ_BYTES = 1024 * 1024;

const NOT_FOUND: StorageAnswer = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from('Not Found') };

export async function readStorageOrigin(files: FileService, storageZoneId: number, path: string): Promise<StorageAnswer> {
  const filePath = filePathOf(path);
  if (filePath === undefined) return NOT_FOUND;
  const file = await files.find({ zoneId: String(storageZoneId) }, filePath);
  if (!file || file.isDirectory) return NOT_FOUND;
  return storedFileAnswer(files, file);
}

/** A stored file as a 200 answer: its kept headers, type, validators and length, and its bytes (a stream when large). */
export async function storedFileAnswer(files: FileService, file: FileRecord): Promise<StorageAnswer> {
  const headers = keptHeadersOf(file.metadata);
  headers['content-type'] = file.contentType ?? (mimeTypes().lookup(file.path) || 'application/octet-stream');
  headers['etag'] = etagOf(file);
  headers['last-modified'] = new Date(file.changedAt).toUTCString();
  headers['content-length'] = String(file.size);
  const body = file.size <= SMALL_READ_BYTES ? await files.readBytes(file) : await files.read(file);
  return { status: 200, headers, body };
}

/** `/a/b%20c.txt` → `a/b c.txt`, checked as the storage plane checks paths; undefined when it names no file. */
function filePathOf(path: string): string | undefined {
  const raw = path.split('/').slice(1);
  if (raw.length === 0 || raw.at(-1) === '') return undefined;
  try {
    return zonePath(raw.map(decodeURIComponent), false).path;
  } catch {
    return undefined;
  }
}

export const asStream = (body: Buffer | Readable): Readable => (Buffer.isBuffer(body) ? Readable.from([body]) : body);
