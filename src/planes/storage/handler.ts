/**
 * The file API of every storage zone (the reference's storage-files document): upload, download,
 * list, DESCRIBE, delete. A thin layer: it reads the request, lets the domain decide, and answers
 * as the platform's storage servers do. Bodies stream both ways; nothing is held whole in memory.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { errors } from '../../domain/errors.js';
import type { FileService } from '../../domain/files/service.js';
import { storageObject } from '../../domain/files/storage-object.js';
import type { ZoneAccess } from '../../domain/files/types.js';
import type { UsageRecorder } from '../../domain/usage/recorder.js';
import type { FileRecord } from '../../store/types.js';
import { contentTypeOf } from '../common/content-types.js';
import { evaluateConditions, rangeStillApplies, type Validators } from '../common/conditions.js';
import { header } from '../common/headers.js';
import { guardedListener } from '../common/last-resort.js';
import { chooseRange, contentRange, unsatisfiedRange } from '../common/ranges.js';
import { sendFailure, sendJson, sendMessage } from './answers.js';
import { requestMethod } from './extension-methods.js';
import { targetOf } from './requests.js';

export interface StorageHandlerDeps {
  files: FileService;
  usage: UsageRecorder;
  logError: (error: unknown) => void;
}

const CHECKSUM = /^[0-9a-fA-F]{64}$/;
/** Reads up to this size are answered from one buffer; larger ones stream. */
const SMALL_READ_BYTES = 64 * 1024;

export function storageHandler(deps: StorageHandlerDeps): RequestListener {
  const { files } = deps;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = requestMethod(req);
    const { zoneName, target } = targetOf(req.url ?? '/');
    const key = header(req, 'accesskey');
    switch (method) {
      case 'GET':
      case 'HEAD': {
        const zone = await files.authorize(zoneName, key, 'read');
        if (target.isDirectory)
          return sendJson(
            res,
            200,
            (await files.list(zone, target.path)).map((f) => storageObject(zone, f)),
          );
        return download(req, res, zone, target.path, method);
      }
      case 'PUT': {
        const zone = await files.authorize(zoneName, key, 'write');
        if (target.isDirectory) {
          await files.createDirectory(zone, target);
          return sendMessage(res, 201, 'Directory created.');
        }
        return upload(req, res, zone, target);
      }
      case 'DELETE': {
        const zone = await files.authorize(zoneName, key, 'write');
        await files.remove(zone, target, allowRootDelete(req));
        return sendMessage(res, 200, target.isDirectory ? 'Directory deleted successfuly.' : 'File deleted successfuly.');
      }
      case 'DESCRIBE': {
        const zone = await files.authorize(zoneName, key, 'read');
        const file = await files.find(zone, target.path);
        if (!file) throw errors.notFound('object');
        return sendJson(res, 200, storageObject(zone, file));
      }
      default:
        return sendMessage(res, 405, `The method ${method} is not supported.`, { allow: 'GET, HEAD, PUT, DELETE, DESCRIBE' });
    }
  }

  async function upload(req: IncomingMessage, res: ServerResponse, zone: ZoneAccess, target: ReturnType<typeof targetOf>['target']): Promise<void> {
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (declared > files.maxFileBytes) throw errors.payloadTooLarge(`The file is larger than the ${files.maxFileBytes} bytes a file may have.`);
    const checksum = header(req, 'checksum');
    if (checksum !== undefined && !CHECKSUM.test(checksum)) {
      throw errors.validation('Checksum', 'The Checksum header must be the SHA-256 of the content in hexadecimal.', 'storage.checksum_invalid');
    }
    // A client that goes away mid-upload leaves nothing: the backend sees the body end early and
    // fails the write, removing what it had written.
    await files.upload(zone, target, req, { checksum, contentType: header(req, 'override-content-type') });
    sendMessage(res, 201, 'File uploaded.');
  }

  async function download(req: IncomingMessage, res: ServerResponse, zone: ZoneAccess, path: string, method: 'GET' | 'HEAD'): Promise<void> {
    const file = await files.find(zone, path);
    if (!file || file.isDirectory) throw errors.notFound('object');
    const validators: Validators = { etag: etagOf(file), lastModified: new Date(file.changedAt) };
    const headers: Record<string, string | number> = {
      'content-type': file.contentType ?? contentTypeOf(file.path),
      etag: validators.etag,
      'last-modified': validators.lastModified.toUTCString(),
      'accept-ranges': 'bytes',
    };
    const outcome = evaluateConditions(method, req.headers, validators);
    if (outcome === 'not-modified') {
      res.writeHead(304, { etag: validators.etag, 'last-modified': String(headers['last-modified']) });
      res.end();
      return;
    }
    if (outcome === 'precondition-failed') return sendMessage(res, 412, 'Precondition Failed');
    const choice = rangeStillApplies(req.headers, validators) ? chooseRange(header(req, 'range'), file.size) : ({ kind: 'whole' } as const);
    if (choice.kind === 'unsatisfiable') return sendMessage(res, 416, 'Range Not Satisfiable', { 'content-range': unsatisfiedRange(file.size) });
    const range = choice.kind === 'range' ? choice.range : undefined;
    const length = range ? range.end - range.start + 1 : file.size;
    headers['content-length'] = length;
    if (range) headers['content-range'] = contentRange(range, file.size);
    if (method === 'HEAD') {
      res.writeHead(range ? 206 : 200, headers);
      res.end();
      return;
    }
    if (length <= SMALL_READ_BYTES) {
      // One read instead of a stream: for small files the stream's machinery costs more than the bytes.
      const bytes = await files.readBytes(file, range);
      res.writeHead(range ? 206 : 200, headers);
      res.end(bytes);
      deps.usage.add(`storageZone:${zone.zoneId}`, 'egress.http', length);
      return;
    }
    const body = await files.read(file, range);
    // The client may have gone while the file was opened: nobody will read it, so close it now.
    if (res.destroyed) {
      body.destroy();
      return;
    }
    res.writeHead(range ? 206 : 200, headers);
    res.once('finish', () => deps.usage.add(`storageZone:${zone.zoneId}`, 'egress.http', length));
    body.once('error', (error) => {
      deps.logError(error);
      res.destroy(error);
    });
    res.once('close', () => body.destroy());
    body.pipe(res);
  }

  // Should answering the failure throw too, common/last-resort.ts has the last word.
  return guardedListener(
    (req, res) =>
      handle(req, res).catch((error: unknown) => {
        // The client went away mid-request: nobody is left to answer, and nothing went wrong here.
        if (res.destroyed || req.socket.destroyed) {
          res.destroy();
          return;
        }
        sendFailure(res, error, deps.logError);
      }),
    deps.logError,
  );
}

/** The MD5 of the bytes, as S3 names objects' versions: one ETag for a file, whichever API serves it. */
export const etagOf = (file: FileRecord) => `"${file.md5 ?? file.guid}"`;

/** The reference takes `allowRootDelete=true` in the query or as a header. */
function allowRootDelete(req: IncomingMessage): boolean {
  if (header(req, 'allowrootdelete')?.toLowerCase() === 'true') return true;
  const query = (req.url ?? '').split('?')[1];
  return query !== undefined && new URLSearchParams(query).get('allowRootDelete')?.toLowerCase() === 'true';
}
