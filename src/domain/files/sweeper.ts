/**
 * Removes from the files backend the blobs no file points at:
 * - dead blobs, recorded in the transaction that replaced or deleted their file (or their whole
 *   zone, as a key prefix), once their grace period is over, every 30 seconds;
 * - orphans, blobs nothing records: bytes written by a process that died before committing them
 *   (an upload, a multipart part cut short by a crash). Found by listing the backend when the
 *   sweeper starts (in the background) and every hour after: a blob last written over an hour ago
 *   that no claim names exactly is one. A key names its owner (`<zone>/<guid>[.<part>]`), but only
 *   the owner's record says whether it uses that very blob: a completed multipart upload's file
 *   takes the upload's id as its guid, and a part a crash cut short carries that id too.
 * Several instances may sweep at once: deleting a blob twice is harmless. A write in progress is
 * never an hour old: its blob's time is its last write, and a transfer that stalls is cut long
 * before (EDGEPLANE_TRANSFER_IDLE_TIMEOUT_MS).
 */
import type { BlobStore } from '../../files/types.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../principal.js';

const DEAD_EVERY_MS = 30_000;
const ORPHANS_EVERY_MS = 3_600_000;
const ORPHAN_AGE_MS = 3_600_000;
const BATCH = 500;

/** A blob the sweep found, its key read as `<zoneId>/<guid>[.<part>]`. */
export interface SweptBlob {
  key: string;
  zoneId: string;
  guid: string;
}

/** Says whether something besides a committed file records this very blob (an S3 multipart upload's part, a video library's image). */
export type BlobClaim = (blob: SweptBlob) => Promise<boolean>;

export class FileSweeper {
  private timers: NodeJS.Timeout[] = [];
  private readonly claims: BlobClaim[] = [];

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  claim(claim: BlobClaim): void {
    this.claims.push(claim);
  }

  /** Sweeps now, in the background, then on the timers: a process restarted often still reclaims what a crash left. */
  start(onError = this.onError): void {
    const every = (ms: number, work: () => Promise<unknown>) => {
      void work().catch(onError);
      const timer = setInterval(() => void work().catch(onError), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(DEAD_EVERY_MS, () => this.sweepDead());
    every(ORPHANS_EVERY_MS, () => this.sweepOrphans());
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Deletes the dead blobs whose grace is over; answers how many keys (or prefixes) were handled. */
  async sweepDead(): Promise<number> {
    let handled = 0;
    for (;;) {
      const due = await this.store.deadBlobs.due(this.clock().getTime(), BATCH);
      if (due.length === 0) return handled;
      for (const key of due) {
        if (key.endsWith('/')) {
          for await (const blob of this.blobs.list(key)) await this.blobs.delete(blob.key);
        } else {
          await this.blobs.delete(key);
        }
      }
      await this.store.deadBlobs.forget(due);
      handled += due.length;
    }
  }

  /** Deletes blobs last written over an hour ago that nothing records (a write cut short included); answers how many. */
  async sweepOrphans(): Promise<number> {
    const before = this.clock().getTime() - ORPHAN_AGE_MS;
    let deleted = 0;
    for await (const blob of this.blobs.list('')) {
      if (blob.modified.getTime() > before) continue;
      const parsed = /^([^/]+)\/([^/.]+)(?:\.\d+)?$/.exec(blob.key);
      if (parsed && (await this.claimed({ key: blob.key, zoneId: parsed[1]!, guid: parsed[2]! }))) continue;
      await this.blobs.delete(blob.key);
      deleted++;
    }
    return deleted;
  }

  /**
   * The other claims first, the files' last: an upload becomes a file in one transaction, so a part
   * asked about in that order is found in the one or the other, whenever the completion commits.
   */
  private async claimed(blob: SweptBlob): Promise<boolean> {
    for (const claim of this.claims) if (await claim(blob)) return true;
    return this.store.files.usesBlob(blob.zoneId, blob.guid, blob.key);
  }
}
