/** API keys: issuing, listing (values shown again, as the platform does), revoking, authenticating. */
import { errors } from '../errors.js';
import { canWrite, type Clock, type Principal, type Role } from '../principal.js';
import { newCredential, type Secrets } from '../../security/secrets.js';
import type { ApiKeyRecord, KeyKind, Store, StoreTx } from '../../store/types.js';
import { BoundedMap } from '../bounded-map.js';

/** Keys authenticated recently; a revocation (here or by another process) empties it. */
const MAX_CACHED_PRINCIPALS = 10_000;
/** Opened key values by sealed value: a listing of 1,000 keys would otherwise decrypt 1,000 values per call. */
const MAX_OPENED_KEYS = 20_000;

export interface ApiKeyView {
  Id: number;
  /** Null when the caller may not see it: a read-only key is never shown a key that can write. */
  Key: string | null;
  Roles: string[];
}

/** A key just issued: its value is always shown, once, to whoever issued it. */
export type IssuedApiKey = ApiKeyView & { Key: string };

export interface ApiKeyPage {
  Items: ApiKeyView[];
  CurrentPage: number;
  TotalItems: number;
  HasMoreItems: boolean;
}

export class ApiKeyService {
  private readonly principals = new BoundedMap<string, Principal>(MAX_CACHED_PRINCIPALS);
  private readonly openedKeys = new BoundedMap<string, string>(MAX_OPENED_KEYS);

  constructor(
    private readonly store: Store,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {
    store.changes.subscribe((change) => {
      if (change.type !== 'doc') this.principals.clear();
    });
  }

  /**
   * Every request calls this, so a key seen before is answered from memory — but only while the
   * store can say that no key was revoked since (its ChangeFeed, which on PostgreSQL hears other
   * instances too). Unknown keys are never cached: a key issued later must work at once.
   */
  async authenticate(presented: string): Promise<Principal | undefined> {
    const hit = this.cached(presented);
    if (hit) return hit;
    const changes = this.store.changes;
    const generation = changes.generation();
    const principal = await this.lookup(presented);
    if (principal && changes.generation() === generation) this.principals.set(presented, principal);
    return principal;
  }

  /** The principal of a key authenticated before, while the store vouches nothing revoked it; no I/O. */
  cached(presented: string): Principal | undefined {
    const changes = this.store.changes;
    // First: it notices a revocation by another process, which empties the cache.
    changes.generation();
    return this.principals.get(presented);
  }

  private async lookup(presented: string): Promise<Principal | undefined> {
    // The lookup is by keyed hash, so timing reveals nothing about stored values.
    const record = await this.store.apiKeys.findByLookupHash(this.secrets.lookupHash(presented));
    return record && Object.freeze({ accountId: record.accountId, keyId: record.id, keyKind: record.kind, roles: Object.freeze(record.roles) });
  }

  async list(principal: Principal, page: number, perPage: number): Promise<ApiKeyPage> {
    const offset = (page - 1) * perPage;
    const result = await this.store.apiKeys.list(principal.accountId, offset, perPage);
    return {
      Items: result.items.map((k) => (canWrite(principal) || !k.roles.includes('FullAccess') ? this.view(k) : { Id: k.id, Key: null, Roles: k.roles })),
      CurrentPage: page,
      TotalItems: result.total,
      HasMoreItems: offset + result.items.length < result.total,
    };
  }

  async create(principal: Principal, roles: Role[]): Promise<IssuedApiKey> {
    const kept = roles.length > 0 ? [...new Set(roles)] : ['FullAccess'];
    return this.store.transaction((tx) => this.issue(tx, principal.accountId, 'personal', kept), principal.durability);
  }

  async revoke(principal: Principal, id: number): Promise<void> {
    const revoked = await this.store.transaction((tx) => tx.apiKeys.revoke(principal.accountId, id, this.clock()), principal.durability);
    if (!revoked) throw errors.notFound('API key');
  }

  /** A full-access personal key of the account to act for it (the seed's requests); issued if none. */
  async anyFullAccessKey(accountId: number): Promise<string> {
    const keys = await this.store.apiKeys.list(accountId, 0, 1000);
    const found = keys.items.find((k) => k.kind === 'personal' && k.roles.includes('FullAccess'));
    if (found) return this.secrets.open(found.sealedKey);
    return (await this.issue(this.store, accountId, 'personal', ['FullAccess'])).Key;
  }

  /** Issues a key; `presetValue` lets the operator choose the bootstrap key. */
  async issue(tx: StoreTx, accountId: number, kind: KeyKind, roles: string[], presetValue?: string): Promise<IssuedApiKey> {
    const value = presetValue ?? newCredential();
    const record = await tx.apiKeys.create({
      accountId,
      kind,
      roles,
      lookupHash: this.secrets.lookupHash(value),
      sealedKey: this.secrets.seal(value),
      createdAt: this.clock().toISOString(),
    });
    return { Id: record.id, Key: value, Roles: record.roles };
  }

  private view(record: ApiKeyRecord): IssuedApiKey {
    // A sealed value always opens to the same key, so the cache needs no invalidation.
    let key = this.openedKeys.get(record.sealedKey);
    if (key === undefined) {
      key = this.secrets.open(record.sealedKey);
      this.openedKeys.set(record.sealedKey, key);
    }
    return { Id: record.id, Key: key, Roles: record.roles };
  }
}
