/**
 * A pull zone may point at storage zones (its origin, its permanent cache, its log storage); each
 * must be a live storage zone of the same account, or the link would cross the account wall or
 * dangle. Checked on create and on every update that sends one of these fields.
 */
import type { StoreTx } from '../../store/types.js';
import { errors } from '../errors.js';

const STORAGE_LINKS = ['StorageZoneId', 'PermaCacheStorageZoneId', 'LoggingStorageZoneId'] as const;

type StorageLinks = Partial<Record<(typeof STORAGE_LINKS)[number], number | null>>;

export async function checkStorageLinks(tx: StoreTx, accountId: number, input: StorageLinks): Promise<void> {
  for (const field of STORAGE_LINKS) {
    const id = input[field];
    if (id == null || id === 0) continue;
    const zone = await tx.docs.get<{ Deleted?: boolean }>('storageZone', accountId, String(id));
    if (!zone || zone.doc.Deleted) {
      throw errors.validation(field, `Storage zone ${id} does not exist.`, 'pullzone.storagezone_not_found');
    }
  }
}
