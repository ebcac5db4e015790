/**
 * Writes what S3 keeps in a bucket's configuration sub-resources (`?tagging`, `?cors`, `?policy`
 * …; the documents are in types.ts), for the zone that is the bucket. They live in the storage zone's own document (a field the
 * management API neither takes nor shows), so they go where the zone goes: the backup dump, the
 * change feed that tells every instance the zone changed (the zones kept by name drop it, and the
 * next request sees the new settings), and the deletion of the zone.
 */
import type { Store } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { StoredStorageZone } from '../storage-zones/service.js';
import type { BucketSettings, LifecycleRule } from './types.js';

export class BucketSettingsService {
  constructor(
    private readonly store: Store,
    private readonly zones: DocumentRepo<StoredStorageZone>,
  ) {}

  /** Sets one configuration of the zone's bucket, or removes it (`undefined`). */
  async set<K extends keyof BucketSettings>(zone: { zoneId: string; accountId: number }, name: K, value: BucketSettings[K] | undefined): Promise<void> {
    await this.store.transaction(async (tx) => {
      const current = await this.zones.find(tx, zone.accountId, zone.zoneId);
      if (!current || current.doc.Deleted) throw errors.notFound('storage zone');
      const settings: BucketSettings = { ...current.doc.S3Settings };
      if (value === undefined) delete settings[name];
      else settings[name] = value;
      const next: StoredStorageZone = { ...current.doc };
      if (Object.keys(settings).length === 0) delete next.S3Settings;
      else next.S3Settings = settings;
      await this.zones.update(tx, zone.accountId, current, next);
    });
  }

  /** Every zone with a lifecycle configuration, for the sweep that applies them. */
  async withLifecycle(offset: number, limit: number): Promise<{ zoneId: string; accountId: number; rules: LifecycleRule[] }[]> {
    const docs = await this.zones.scan(this.store, offset, limit);
    return docs
      .filter((d) => d.doc && !d.doc.Deleted && (d.doc.S3Settings?.lifecycle?.length ?? 0) > 0)
      .map((d) => ({ zoneId: d.id, accountId: d.accountId, rules: d.doc.S3Settings!.lifecycle! }));
  }
}
