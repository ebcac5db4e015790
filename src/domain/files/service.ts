/**
 * Files of storage zones, for every plane that serves them (the file API, S3, the edge): upload,
 * download, list, describe, delete, the zone's counters and statistics. Bytes go to the files
 * backend first, then the metadata commits in one transaction with the zone's counters, so a 2xx
 * means both are durable and `FilesStored`/`StorageUsed` are exact. Blobs a change leaves behind
 * are removed after a grace period (see FileSweeper).
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobStore, type ByteRange } from '../../files/types.js';
import type { DailyFileUsage, FileRecord, FileUsage, Store, StoreTx } from '../../store/types.js';
import { errors } from '../errors.js';
import type { Clock } from '../principal.js';
import { ancestorsOf, parentOf, type ZonePath } from './paths.js';
import { readSegments } from './segments.js';
import type { ZoneAccess } from './types.js';
import type { ZoneKeys } from './zone-keys.js';

/** How long a replaced or deleted blob stays readable for reads already streaming it. */
export const DEAD_BLOB_GRACE_MS = 60_000;
/** Entries removed per statement when a directory or a zone goes. */
const REMOVE_BATCH = 1000;

export interface UploadOptions {
  /** SHA-256 the client says the body has (hex, any case); a mismatch stores nothing. */
  checksum?: string | undefined;
  contentType?: string | undefined;
  metadata?: Record<string, string> | null;
  signal?: AbortSignal | undefined;
  /** Runs first in the upload's transaction: what it throws refuses the upload (nothing is stored). */
  precondition?: ((tx: StoreTx) => Promise<void>) | undefined;
}

export interface FileContent {
  file: FileRecord;
  body: Readable;
}

export class FileService {
  constructor(
    private readonly store: Store,
    readonly blobs: BlobStore,
    readonly keys: ZoneKeys,
    private readonly clock: Clock,
    readonly maxFileBytes: number,
  ) {}

  /** The access a key grants in a zone; a wrong key and an unknown zone are the same 401. */
  async authorize(zoneName: string, presented: string | undefined, need: 'read' | 'write'): Promise<ZoneAccess> {
    const access = await this.keys.access(zoneName, presented);
    if (!access || (need === 'write' && !access.canWrite)) throw errors.unauthorized('Unauthorized');
    return access;
  }

  /** Stores `body` as the file at `target`, replacing what was there: readers see the old bytes or the new, never a mix. */
  async upload(zone: ZoneAccess, target: ZonePath, body: Readable, options: UploadOptions = {}): Promise<FileRecord> {
    if (target.isDirectory) throw errors.validation('path', 'A file name is required; a path ending in "/" names a directory.', 'storage.path_invalid');
    const guid = randomUUID();
    const key = blobKey(zone.zoneId, guid);
    let written: Awaited<ReturnType<BlobStore['write']>>;
    try {
      written = await this.blobs.write(key, body, { maxBytes: this.maxFileBytes, signal: options.signal });
    } catch (error) {
      if (error instanceof BlobTooLargeError) {
        throw errors.payloadTooLarge(`The file is larger than the ${this.maxFileBytes} bytes a file may have.`, 'storage.file_too_large');
      }
      throw error;
    }
    try {
      if (options.checksum !== undefined && options.checksum.toLowerCase() !== written.sha256) {
        throw errors.validation('Checksum', 'The Checksum header does not match the SHA-256 of the uploaded content.', 'storage.checksum_mismatch');
      }
      const now = this.clock().toISOString();
      return await this.store.transaction(async (tx) => {
        await options.precondition?.(tx);
        await this.makeRoom(tx, zone, target.path, now);
        const previous = await this.replaceable(tx, zone.zoneId, target.path);
        const file: FileRecord = {
          zoneId: zone.zoneId,
          accountId: zone.accountId,
          path: target.path,
          parent: parentOf(target.path),
          isDirectory: false,
          size: written.size,
          sha256: written.sha256,
          md5: written.md5,
          contentType: options.contentType ?? null,
          guid,
          blobs: [{ key, size: written.size }],
          metadata: options.metadata ?? null,
          createdAt: previous?.createdAt ?? now,
          changedAt: now,
        };
        await this.replace(tx, file, previous, now);
        return file;
      });
    } catch (error) {
      await this.blobs.delete(key).catch(() => {});
      throw error;
    }
  }

  /**
   * Commits a file whose bytes are already in the backend (an S3 multipart upload completing, a
   * copy): `file.blobs` must be blobs no other file points at. `alsoDo` runs in the same
   * transaction first (the upload's own bookkeeping), so both commit or neither does.
   */
  async commit(zone: ZoneAccess, file: FileRecord, alsoDo?: (tx: StoreTx) => Promise<void>): Promise<FileRecord> {
    const now = file.changedAt;
    return this.store.transaction(async (tx) => {
      await alsoDo?.(tx);
      await this.makeRoom(tx, zone, file.path, now);
      const previous = await this.replaceable(tx, zone.zoneId, file.path);
      const committed = { ...file, createdAt: previous?.createdAt ?? file.createdAt };
      await this.replace(tx, committed, previous, now);
      return committed;
    });
  }

  /**
   * Changes a file's metadata and nothing else: its bytes, ETag, identity and dates stay (S3 object
   * tags are set this way). 404 for a directory or a missing file.
   */
  async editMetadata(zone: Pick<ZoneAccess, 'zoneId'>, path: string, edit: (metadata: FileRecord['metadata']) => FileRecord['metadata']): Promise<FileRecord> {
    return this.store.transaction(async (tx) => {
      const file = await tx.files.get(zone.zoneId, path);
      if (!file || file.isDirectory) throw errors.notFound('object');
      const edited = { ...file, metadata: edit(file.metadata) };
      await tx.files.put(edited);
      return edited;
    });
  }

  /** Creates an empty directory (and its parents); creating one that exists changes nothing. */
  async createDirectory(zone: ZoneAccess, target: ZonePath): Promise<void> {
    if (target.path === '') return;
    const now = this.clock().toISOString();
    await this.store.transaction(async (tx) => {
      await this.makeRoom(tx, zone, target.path, now);
      const asFile = await tx.files.get(zone.zoneId, target.path.slice(0, -1));
      if (asFile) throw errors.validation('path', `"${asFile.path}" is a file.`, 'storage.path_is_file');
      await tx.files.ensureDirectories(zone.zoneId, zone.accountId, [target.path], now);
    });
  }

  async find(zone: Pick<ZoneAccess, 'zoneId'>, path: string): Promise<FileRecord | undefined> {
    return this.store.files.get(zone.zoneId, path);
  }

  /** A file's bytes, or a range of them; 404 for a directory or a missing file. */
  async open(zone: Pick<ZoneAccess, 'zoneId'>, path: string, range?: ByteRange): Promise<FileContent> {
    const file = await this.store.files.get(zone.zoneId, path);
    if (!file || file.isDirectory) throw errors.notFound('object');
    return { file, body: await this.read(file, range) };
  }

  read(file: FileRecord, range?: ByteRange): Promise<Readable> {
    return readSegments(this.blobs, file.blobs, range);
  }

  /** The bytes of a small file (or range), at once; larger reads stream (see `read`). */
  async readBytes(file: FileRecord, range: ByteRange = { start: 0, end: file.size - 1 }): Promise<Buffer> {
    const [only] = file.blobs;
    if (file.size === 0) return Buffer.alloc(0);
    if (file.blobs.length === 1 && only) return this.blobs.readBytes(only.key, range);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.read(file, range)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * The entries directly in a directory; an unknown directory has none. A path that names a file
   * (`a.txt/`), or lies under one (`a.txt/b/`), names no directory: 404, as for a missing file.
   */
  async list(zone: Pick<ZoneAccess, 'zoneId'>, directory: string): Promise<FileRecord[]> {
    const entries = await this.store.files.children(zone.zoneId, directory);
    if (entries.length > 0 || directory === '') return entries;
    const asFiles = [directory, ...ancestorsOf(directory)].map((path) => path.slice(0, -1));
    if ((await this.store.files.getMany(zone.zoneId, asFiles)).some((f) => !f.isDirectory)) throw errors.notFound('object');
    return entries;
  }

  /**
   * Files (no directories) whose paths start with `prefix`, in byte order after `after` (exclusive),
   * at most `limit`: how S3 lists a bucket, a page at a time across folders.
   */
  async listInKeyOrder(zone: Pick<ZoneAccess, 'zoneId'>, prefix: string, after: string | undefined, limit: number): Promise<FileRecord[]> {
    return this.store.files.range(zone.zoneId, { prefix, after, limit, filesOnly: true });
  }

  /**
   * Removes a file, or a directory with all it holds; the zone's root only when `allowRoot`. With
   * `onlyGuid`, a file is removed only while it is still that version (404 otherwise): what the
   * S3 lifecycle sweep found old is what it removes, never a file uploaded again since.
   */
  async remove(zone: Pick<ZoneAccess, 'zoneId' | 'accountId'>, target: ZonePath, allowRoot = false, onlyGuid?: string): Promise<void> {
    if (target.path === '' && !allowRoot) {
      throw errors.validation('allowRootDelete', 'Deleting the root directory of a storage zone needs allowRootDelete=true.', 'storage.root_delete_refused');
    }
    const now = this.clock();
    await this.store.transaction(async (tx) => {
      if (!target.isDirectory) {
        const removed = await tx.files.remove(zone.zoneId, target.path);
        if (!removed || removed.isDirectory || (onlyGuid !== undefined && removed.guid !== onlyGuid)) throw errors.notFound('object');
        await this.forget(tx, zone, [removed], now);
        return;
      }
      if (target.path !== '' && !(await tx.files.get(zone.zoneId, target.path))) throw errors.notFound('object');
      for (;;) {
        const removed = await tx.files.removeUnder(zone.zoneId, target.path, REMOVE_BATCH);
        if (removed.length === 0) break;
        await this.forget(tx, zone, removed, now);
      }
    });
  }

  /**
   * Removes these entries (files, or directories already emptied) inside the caller's transaction,
   * their bytes swept as any removed file's; paths not there are skipped. Answers those removed.
   */
  async removeIn(tx: StoreTx, zone: Pick<ZoneAccess, 'zoneId' | 'accountId'>, paths: readonly string[]): Promise<FileRecord[]> {
    const removed: FileRecord[] = [];
    for (const path of paths) {
      const entry = await tx.files.remove(zone.zoneId, path);
      if (entry) removed.push(entry);
    }
    await this.forget(tx, zone, removed, this.clock());
    return removed;
  }

  /**
   * Runs in the transaction that deletes a storage zone: its files go with it, at once (the
   * zone's tombstone keeps no files), and every blob under the zone's prefix is swept.
   */
  async removeZone(tx: StoreTx, zoneId: string, accountId: number): Promise<void> {
    while ((await tx.files.removeUnder(zoneId, '', REMOVE_BATCH)).length > 0);
    const usage = (await tx.files.usage([zoneId])).get(zoneId);
    if (usage && (usage.files !== 0 || usage.bytes !== 0)) {
      await tx.files.changeUsage(zoneId, accountId, { files: -usage.files, bytes: -usage.bytes }, dayOf(this.clock()));
    }
    await tx.deadBlobs.add([`${zoneId}/`], this.clock().getTime() + DEAD_BLOB_GRACE_MS);
  }

  /** `FilesStored` and `StorageUsed` of each zone. */
  usage(zoneIds: string[]) {
    return this.store.files.usage(zoneIds);
  }

  /** Each day's closing storage used and file count, from `from` to `to`, days without a change carrying the day before. */
  async dailyUsage(zoneId: string, from: Date, to: Date): Promise<DailyFileUsage[]> {
    const fromDay = dayOf(from);
    const toDay = dayOf(to);
    const changes = await this.store.files.dailyUsage(zoneId, fromDay, toDay);
    const before = await this.store.files.usageBefore(zoneId, fromDay);
    return everyDay(changes, before, fromDay, toDay);
  }

  /** `dailyUsage` of each storage zone of the account that ever held a file, by zone id. */
  async accountDailyUsage(accountId: number, from: Date, to: Date): Promise<Map<string, DailyFileUsage[]>> {
    const fromDay = dayOf(from);
    const toDay = dayOf(to);
    const byZone = new Map<string, DailyFileUsage[]>();
    for (const row of await this.store.files.accountDailyUsage(accountId, fromDay, toDay)) {
      const rows = byZone.get(row.zoneId);
      if (rows) rows.push(row);
      else byZone.set(row.zoneId, [row]);
    }
    const out = new Map<string, DailyFileUsage[]>();
    for (const [zoneId, rows] of byZone) {
      const before = rows[0]!.day < fromDay ? rows.shift() : undefined;
      out.set(zoneId, everyDay(rows, before, fromDay, toDay));
    }
    return out;
  }

  /**
   * Adds the directories a path implies, refusing when one of them is a file, in the zone that must
   * still exist (a zone deleted while the bytes were on their way takes no file). When the parent
   * directory exists, so do its ancestors, all checked when it was made: one lookup in the usual case.
   */
  private async makeRoom(tx: StoreTx, zone: ZoneAccess, path: string, now: string): Promise<void> {
    if (!(await tx.docs.holdsName('storageZone', zone.zoneId))) throw errors.unauthorized('Unauthorized');
    const parent = parentOf(path);
    if (parent === '') return;
    const [found] = await tx.files.getMany(zone.zoneId, [parent]);
    if (found) return;
    const directories = ancestorsOf(path);
    const clash = await tx.files.getMany(
      zone.zoneId,
      directories.map((d) => d.slice(0, -1)),
    );
    if (clash[0]) throw errors.validation('path', `"${clash[0].path}" is a file, so it cannot hold "${path}".`, 'storage.path_is_file');
    await tx.files.ensureDirectories(zone.zoneId, zone.accountId, directories, now);
  }

  /** The file a new one at `path` replaces, if any; refused when a directory has that name. */
  private async replaceable(tx: StoreTx, zoneId: string, path: string): Promise<FileRecord | undefined> {
    const found = await tx.files.getMany(zoneId, [path, `${path}/`]);
    if (found.some((f) => f.isDirectory)) throw errors.validation('path', `"${path}" is a directory.`, 'storage.path_is_directory');
    return found[0];
  }

  private async replace(tx: StoreTx, file: FileRecord, previous: FileRecord | undefined, now: string): Promise<void> {
    await tx.files.put(file);
    await tx.files.changeUsage(file.zoneId, file.accountId, { files: previous ? 0 : 1, bytes: file.size - (previous?.size ?? 0) }, now.slice(0, 10));
    if (previous)
      await tx.deadBlobs.add(
        previous.blobs.map((b) => b.key),
        Date.parse(now) + DEAD_BLOB_GRACE_MS,
      );
  }

  private async forget(tx: StoreTx, zone: Pick<ZoneAccess, 'zoneId' | 'accountId'>, removed: FileRecord[], now: Date): Promise<void> {
    const files = removed.filter((f) => !f.isDirectory);
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    if (files.length > 0) await tx.files.changeUsage(zone.zoneId, zone.accountId, { files: -files.length, bytes: -bytes }, dayOf(now));
    const keys = files.flatMap((f) => f.blobs.map((b) => b.key));
    if (keys.length > 0) await tx.deadBlobs.add(keys, now.getTime() + DEAD_BLOB_GRACE_MS);
  }
}

/** Blobs of a zone live under its id, so a deleted zone's blobs are found by prefix. */
export const blobKey = (zoneId: string, guid: string, part?: number) => `${zoneId}/${guid}${part === undefined ? '' : `.${part}`}`;

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Every day from `fromDay` to `toDay`, each with the figures of its last change or, without one, the day before's. */
function everyDay(changes: DailyFileUsage[], before: FileUsage | undefined, fromDay: string, toDay: string): DailyFileUsage[] {
  const byDay = new Map(changes.map((d) => [d.day, d]));
  let last = before ?? { files: 0, bytes: 0 };
  const out: DailyFileUsage[] = [];
  for (let day = new Date(`${fromDay}T00:00:00Z`); dayOf(day) <= toDay; day = new Date(day.getTime() + 86_400_000)) {
    const changed = byDay.get(dayOf(day));
    if (changed) last = changed;
    out.push({ day: dayOf(day), files: last.files, bytes: last.bytes });
  }
  return out;
}
