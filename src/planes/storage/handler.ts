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
import { header } from '../common/headers.js';
import { guardedListener } from '../common/last-resort.js';
import { unsatisfiedRange } from '../common/ranges.js';
import { fileHeaders, sendFile } from '../common/send-file.js';
import { sendFailure, sendJson, sendMessage } from './answers.js';
import { requestMethod } from './extension-methods.js';
import { targetOf } from './requests.js';

export interface StorageHandlerDeps {
  files: FileService;
  usage: UsageRecorder;
  logError: (error: unknown) => void;
}

const CHECKSUM = /^[0-9a-fA-F]{64}$/;

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
    return sendFile(
      req,
      res,
      files,
      {
        method,
        file,
        headers: fileHeaders(file),
        preconditionFailed: () => sendMessage(res, 412, 'Precondition Failed'),
        rangeNotSatisfiable: () => sendMessage(res, 416, 'Range Not Satisfiable', { 'content-range': unsatisfiedRange(file.size) }),
        sent: (length) => deps.usage.add(`storageZone:${zone.zoneId}`, 'egress.http', length),
      },
      deps.logError,
    );
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

/** The reference takes `allowRootDelete=true` in the query or as a header. */
function allowRootDelete(req: IncomingMessage): boolean {
  if (header(req, 'allowrootdelete')?.toLowerCase() === 'true') return true;
  const query = (req.url ?? '').split('?')[1];
  return query !== undefined && new URLSearchParams(query).get('allowRootDelete')?.toLowerCase() === 'true';
}
