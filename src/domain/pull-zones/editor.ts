/**
 * How account requests change a pull zone after creation: read, change, write back, in one transaction.
 * The write carries the version that was read, so two requests changing the same zone at once
 * never lose an update: the later one gets a 409 and can retry.
 */
import { PullZone, type PullZoneT } from '../../schemas/pull-zone.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { WriteOwner } from '../principal.js';
import type { DocumentRepo } from '../documents.js';
import { fastCopier } from '../fast-shape.js';

/**
 * A zone read from the store has 168 fields, which V8 keeps in a hash table, and every change
 * copies it (`{ ...zone, … }`), as sealing its credentials does again: ~31 µs a copy. The change
 * is handed a copy with a hidden class instead (~5 µs), so every copy after it costs ~0.2 µs.
 */
const withHiddenClass = fastCopier<PullZoneT>(Object.keys(PullZone.properties));

/**
 * Returns the changed zone, or undefined when nothing changes (then nothing is written). Builds a
 * new object rather than modifying `zone`, so a change that throws half-way leaves nothing behind.
 */
export type ZoneChange = (zone: PullZoneT, tx: StoreTx) => PullZoneT | undefined | Promise<PullZoneT | undefined>;

export class ZoneEditor {
  constructor(
    private readonly store: Store,
    readonly zones: DocumentRepo<PullZoneT>,
  ) {}

  /** Applies `change` to the owner's zone `id` (404 when it has none) and returns the zone as stored. */
  edit(owner: WriteOwner, id: number, change: ZoneChange): Promise<PullZoneT> {
    return this.store.transaction(async (tx) => {
      const current = await this.zones.get(tx, owner.accountId, id);
      const next = await change(withHiddenClass(current.doc), tx);
      if (next === undefined) return current.doc;
      await this.zones.update(tx, owner.accountId, current, next);
      return next;
    }, owner.durability);
  }
}
