/** DeleteObject and DeleteObjects (each key checked against the bucket policy): deleting what is not there succeeds, as in S3. */
import { keyPath } from '../../domain/files/paths.js';
import { requireWrite } from './access.js';
import { asS3Error, s3Errors } from './errors.js';
import { smallBody } from './request-body.js';
import { sendEmpty, sendXml } from './respond.js';
import type { S3Call } from './types.js';
import { element, parseXml, rootElement, textOf } from './xml.js';

const MAX_DELETE_KEYS = 1000;

/** Deletes a file; a folder key (`a/`) only when the folder is empty, as S3 would delete a marker object only. */
async function deleteKey(call: S3Call, key: string): Promise<void> {
  const target = keyPath(key);
  try {
    if (target.isDirectory) {
      if ((await call.deps.files.list(call.zone, target.path)).length > 0) return;
      if (!(await call.deps.files.find(call.zone, target.path))) return;
    }
    await call.deps.files.remove(call.zone, target);
  } catch (error) {
    // Deleting what is not there succeeds in S3.
    if (asS3Error(error)?.status === 404) return;
    throw error;
  }
}

export async function deleteObject(call: S3Call): Promise<void> {
  requireWrite(call);
  await deleteKey(call, call.key!);
  sendEmpty(call.res, 204);
}

export async function deleteObjects(call: S3Call): Promise<void> {
  requireWrite(call);
  const doc = parseXml(await smallBody(call, 2 * 1024 * 1024), 'Delete');
  const objects = (doc.Object as Record<string, unknown>[] | undefined) ?? [];
  if (objects.length === 0 || objects.length > MAX_DELETE_KEYS) throw s3Errors.malformedXml();
  const quiet = textOf(doc.Quiet).trim() === 'true';
  const results: string[] = [];
  for (const object of objects) {
    const key = textOf(object?.Key);
    try {
      call.authorize('s3:DeleteObject', key);
      await deleteKey(call, key);
      if (!quiet) results.push(element('Deleted', [element('Key', key)]));
    } catch (error) {
      const s3 = asS3Error(error);
      if (!s3) throw error;
      results.push(element('Error', [element('Key', key), element('Code', s3.code), element('Message', s3.message)]));
    }
  }
  sendXml(call.res, 200, rootElement('DeleteResult', results));
}
