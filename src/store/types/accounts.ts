/** Accounts and their API keys. */
import type { Page } from './resources.js';

export interface Account {
  id: number;
  name: string;
  balance: number;
  createdAt: string;
}

export type KeyKind = 'account' | 'personal';

export interface ApiKeyRecord {
  id: number;
  accountId: number;
  kind: KeyKind;
  roles: string[];
  /** The key value, sealed (see security/secrets.ts). */
  sealedKey: string;
  createdAt: string;
}

export interface Accounts {
  create(name: string, balance: number, now: Date): Promise<Account>;
  get(id: number): Promise<Account | undefined>;
  list(): Promise<Account[]>;
  count(): Promise<number>;
  setBalance(id: number, balance: number): Promise<boolean>;
  /** Deletes the account with everything that references it (keys, documents, ledger, audit log). */
  remove(id: number): Promise<boolean>;
}

export interface ApiKeys {
  create(key: { accountId: number; kind: KeyKind; roles: string[]; lookupHash: string; sealedKey: string; createdAt: string }): Promise<ApiKeyRecord>;
  findByLookupHash(hash: string): Promise<ApiKeyRecord | undefined>;
  list(accountId: number, offset: number, limit: number): Promise<Page<ApiKeyRecord>>;
  revoke(accountId: number, id: number, now: Date): Promise<boolean>;
}
