/**
 * Enabling a replication region takes time on the platform (files are copied there), and the zone
 * says so with `ReplicationChangeInProgress`:
 *
 * | state | event | next state |
 * |---|---|---|
 * | settled (false) | a replication region is added (POST /storagezone/{id}, `ReplicationZones`) | in progress (true) |
 * | in progress (true) | the background job finishes, `EDGEPLANE_JOB_DELAY_MS` after the last addition | settled (false) |
 *
 * The job is a stored row enqueued in the same transaction as the change, so it survives restarts
 * and runs once across instances.
 */
import type { JobRunner } from '../../jobs/runner.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../principal.js';
import type { StorageZoneService } from './service.js';

export const REPLICATION_DONE_JOB = 'storageZone.replicationEnabled';

/** Internal field (never sent: not in the response schema): when the last addition is done. */
type WithDeadline = { replicationDoneAt?: number };

interface Payload {
  accountId: number;
  zoneId: number;
}

export function registerReplicationJob(storageZones: StorageZoneService, jobs: JobRunner, store: Store, clock: Clock, delayMs: number): void {
  storageZones.onReplicationRegionsAdded.push(async (tx, accountId, zone) => {
    const doneAt = clock().getTime() + delayMs;
    // The zone object is the one about to be written: mark it here, in the same transaction.
    Object.assign(zone, { ReplicationChangeInProgress: true, replicationDoneAt: doneAt } satisfies WithDeadline & { ReplicationChangeInProgress: boolean });
    await tx.jobs.enqueue(REPLICATION_DONE_JOB, { accountId, zoneId: zone.Id } satisfies Payload, doneAt);
  });

  jobs.register(REPLICATION_DONE_JOB, async (payload) => {
    const { accountId, zoneId } = payload as Payload;
    await store.transaction(async (tx) => {
      const zone = await storageZones.zones.find(tx, accountId, zoneId);
      if (!zone || zone.doc.Deleted) return;
      const doneAt = (zone.doc as WithDeadline).replicationDoneAt ?? 0;
      // A region added after this job was queued has a later job of its own, which settles the zone.
      if (clock().getTime() < doneAt || !zone.doc.ReplicationChangeInProgress) return;
      const { replicationDoneAt: _done, ...rest } = zone.doc as typeof zone.doc & WithDeadline;
      await storageZones.zones.update(tx, accountId, zone, { ...rest, ReplicationChangeInProgress: false });
    });
  });
}
