/**
 * The object at a key, and reading it: GetObject and HeadObject, with S3's conditions, ranges and
 * part numbers, the headers kept with the object, and the egress counted in the zone's statistics.
 */
import { validateHeaderValue } from 'node:http';
import { SYSTEM_PREFIX } from '../../domain/files/kept-headers.js';
import { keyPath } from '../../domain/files/paths.js';
import type { ZoneAccess } from '../../domain/files/types.js';
import { TAG_PREFIX } from '../../domain/s3/object-tags.js';
import { EGRESS_METRICS } from '../../domain/storage-zones/statistics.js';
import type { FileRecord } from '../../store/types.js';
import { header } from '../common/headers.js';
import { unsatisfiedRange } from '../common/ranges.js';
import { fileHeaders, type Slice, sendFile } from '../common/send-file.js';
import { S3Error, s3Errors } from './errors.js';
import { partNumberOf } from './query-params.js';
import type { S3Call } from './types.js';

/** The file at `key`, or NoSuchKey (directories are not objects). */
export async function objectAt(call: Pick<S3Call, 'deps'>, zone: Pick<ZoneAccess, 'zoneId'>, key: string): Promise<FileRecord> {
  const target = keyPath(key);
  const file = target.isDirectory ? undefined : await call.deps.files.find(zone, target.path);
  if (!file || file.isDirectory) throw s3Errors.noSuchKey(key);
  return file;
}

/** The file's headers, and those S3 keeps with an object: what the write gave, user metadata, how many tags. */
function objectHeaders(file: FileRecord): Record<string, string | number> {
  const headers = fileHeaders(file);
  let tags = 0;
  for (const [name, value] of Object.entries(file.metadata ?? {})) {
    if (name.startsWith(SYSTEM_PREFIX)) headers[name.slice(SYSTEM_PREFIX.length)] = value;
    else if (name.startsWith(TAG_PREFIX)) tags++;
    else headers[`x-amz-meta-${name}`] = value;
  }
  if (tags > 0) headers['x-amz-tagging-count'] = String(tags);
  return headers;
}

/**
 * The parts a completed multipart upload left, as byte ranges of the object: its segments are the
 * parts as they were uploaded (see domain/s3/multipart.ts), and its ETag ends in `-<count>`. An
 * object uploaded whole (or copied) has none.
 */
function partsOf(file: FileRecord): { start: number; size: number }[] | undefined {
  const count = /-(\d+)$/.exec(file.md5 ?? '')?.[1];
  if (count === undefined || Number(count) !== file.blobs.length) return undefined;
  let start = 0;
  return file.blobs.map((blob) => {
    const part = { start, size: blob.size };
    start += blob.size;
    return part;
  });
}

/**
 * `?partNumber=N`: the bytes of part N, and how many parts there are. An object uploaded whole is
 * its own part 1, answered without a parts count, as S3 answers it.
 */
function partSlice(call: S3Call, file: FileRecord, headers: Record<string, string | number>): Slice {
  const partNumber = partNumberOf(call.query);
  if (header(call.req, 'range') !== undefined) throw s3Errors.invalidRequest('Cannot specify both Range header and partNumber query parameter');
  const parts = partsOf(file);
  const count = parts?.length ?? 1;
  if (partNumber > count)
    throw new S3Error(
      'InvalidPartNumber',
      'The requested partnumber is not satisfiable',
      416,
      { PartNumberRequested: String(partNumber), ActualPartCount: String(count) },
      { 'content-range': unsatisfiedRange(file.size) },
    );
  if (parts) headers['x-amz-mp-parts-count'] = String(count);
  const part = parts?.[partNumber - 1] ?? { start: 0, size: file.size };
  // A part is read as a range of the object; an empty one (a last part of no bytes) is answered 200, empty.
  return { range: part.size > 0 ? { start: part.start, end: part.start + part.size - 1 } : undefined, length: part.size };
}

/** `response-content-type` and its kin override the headers of a GET's answer. */
const OVERRIDES = ['content-type', 'content-language', 'expires', 'cache-control', 'content-disposition', 'content-encoding'];

/** An override's value, when node:http can send it in a header (no CR, LF or other control, nothing beyond Latin-1); else InvalidArgument. */
function overrideValue(parameter: string, value: string): string {
  try {
    validateHeaderValue(parameter, value);
  } catch {
    throw s3Errors.invalidArgument(`The value of ${parameter} cannot be sent in a header.`, parameter, '');
  }
  return value;
}

export const getObject = (call: S3Call) => sendObject(call, 'GET');
export const headObject = (call: S3Call) => sendObject(call, 'HEAD');

/** The object's bytes (GET) or only its headers (HEAD), under the request's conditions, range or part number. */
async function sendObject(call: S3Call, method: 'GET' | 'HEAD'): Promise<void> {
  const { req, res, deps, zone } = call;
  const file = await objectAt(call, zone, call.key!);
  const headers = objectHeaders(file);
  for (const name of OVERRIDES) {
    const value = call.query.get(`response-${name}`);
    if (value !== undefined) headers[name] = overrideValue(`response-${name}`, value);
  }
  // The zone's egress statistics tell S3 downloads, and those through presigned URLs, apart.
  const metric = call.auth.presigned ? EGRESS_METRICS.s3Presigned : EGRESS_METRICS.s3;
  return sendFile(
    req,
    res,
    deps.files,
    {
      method,
      file,
      headers,
      slice: call.query.has('partNumber') ? () => partSlice(call, file, headers) : undefined,
      preconditionFailed: () => {
        throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412);
      },
      rangeNotSatisfiable: () => {
        throw new S3Error(
          'InvalidRange',
          'The requested range is not satisfiable',
          416,
          { RangeRequested: header(req, 'range') ?? '', ActualObjectSize: String(file.size) },
          { 'content-range': unsatisfiedRange(file.size) },
        );
      },
      sent: (length) => deps.usage.add(`storageZone:${zone.zoneId}`, metric, length),
    },
    deps.logError,
  );
}
