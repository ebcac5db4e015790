/**
 * Applies a seed file. Safe to apply again: accounts are matched by name, keys by value, and each
 * resource item is remembered (a `seedMark` document named after its place and content) so it is
 * created once. Resources go through the app's own routes, with the account's key.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { fieldPath } from '../schemas/field-problems.js';
import { Seed, type SeedAccountT, type SeedT } from './schema.js';

export class SeedError extends Error {}

/** Reads and checks a seed file; a problem names the path inside the file. */
export function readSeed(file: string): SeedT {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SeedError(`seed ${file}: ${(error as Error).message}`);
  }
  if (!Value.Check(Seed, raw)) {
    const first = [...Value.Errors(Seed, raw)][0]!;
    throw new SeedError(`seed ${file}: ${fieldPath(first.instancePath) || '(top level)'}: ${first.message}`);
  }
  return raw;
}

type Kind = 'storageZones' | 'pullZones' | 'dnsZones' | 'videoLibraries' | 'containerApps';
const ROUTES: Record<Kind, string> = {
  storageZones: '/storagezone',
  pullZones: '/pullzone',
  dnsZones: '/dnszone',
  videoLibraries: '/videolibrary',
  containerApps: '/mc/apps',
};
/** Storage zones first: pull zones may refer to them by name. */
const ORDER: Kind[] = ['storageZones', 'pullZones', 'dnsZones', 'videoLibraries', 'containerApps'];

export interface SeedResult {
  accounts: number;
  created: number;
  skipped: number;
}

/** `internalHeaders` let the seed's own requests through the reset gate (see plugins/reset-gate.ts). */
export async function applySeed(app: FastifyInstance, seed: SeedT, internalHeaders: Record<string, string> = {}): Promise<SeedResult> {
  const result: SeedResult = { accounts: 0, created: 0, skipped: 0 };
  const { store, accounts: accountService, apiKeys } = app.services;
  const existing = await store.accounts.list();

  for (const [a, spec] of seed.accounts.entries()) {
    const at = `accounts[${a}]`;
    let account = existing.find((x) => x.name === spec.name);
    let key: string;
    if (!account) {
      const created = await accountService.create(spec.name);
      account = created.account;
      key = created.apiKey;
      result.accounts++;
    } else {
      key = await apiKeys.anyFullAccessKey(account.id);
    }
    if (spec.balance !== undefined) await app.services.operator.setBalance(account.id, spec.balance);
    for (const k of spec.apiKeys ?? []) {
      if (await apiKeys.authenticate(k.key)) {
        result.skipped++;
        continue;
      }
      await store.transaction((tx) => apiKeys.issue(tx, account.id, 'personal', k.roles?.length ? k.roles : ['FullAccess'], k.key));
      result.created++;
    }
    await applyResources(app, spec, at, account.id, key, internalHeaders, result);
  }
  return result;
}

async function applyResources(
  app: FastifyInstance,
  spec: SeedAccountT,
  at: string,
  accountId: number,
  key: string,
  internalHeaders: Record<string, string>,
  result: SeedResult,
): Promise<void> {
  const storageIds = new Map<string, number>();
  for (const kind of ORDER) {
    for (const [i, item] of (spec[kind] ?? []).entries()) {
      const where = `${at}.${kind}[${i}]`;
      const body: Record<string, unknown> = { ...item };
      if (kind === 'pullZones' && typeof body['StorageZoneName'] === 'string') {
        const id = storageIds.get(body['StorageZoneName']);
        if (id === undefined)
          throw new SeedError(`seed: ${where}.StorageZoneName: no storage zone "${String(body['StorageZoneName'])}" in this account's seed`);
        body['StorageZoneId'] = id;
        delete body['StorageZoneName'];
      }
      const mark = `${accountId}/${kind}/${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32)}`;
      const marked = await app.services.store.docs.nameExists('seedMark', mark);
      if (marked) {
        result.skipped++;
        if (kind === 'storageZones') await rememberStorageZone(app, accountId, mark, item, storageIds);
        continue;
      }
      const res = await app.inject({
        method: 'POST',
        url: ROUTES[kind],
        headers: { accesskey: key, 'content-type': 'application/json', ...internalHeaders },
        payload: JSON.stringify(body),
      });
      if (res.statusCode >= 300) {
        const problem = res.json() as { errors?: { field: string; message: string }[]; detail?: string };
        const first = problem.errors?.[0];
        throw new SeedError(`seed: ${where}${first ? `.${first.field}: ${first.message}` : `: ${problem.detail ?? res.statusCode}`}`);
      }
      const created = res.json() as { Id?: number; id?: string };
      await app.services.store.docs.insert('seedMark', { id: mark, accountId, name: mark, doc: { id: created.Id ?? created.id ?? null } });
      if (kind === 'storageZones' && typeof item['Name'] === 'string' && typeof created.Id === 'number') storageIds.set(item['Name'], created.Id);
      result.created++;
    }
  }
}

async function rememberStorageZone(
  app: FastifyInstance,
  accountId: number,
  mark: string,
  item: Record<string, unknown>,
  ids: Map<string, number>,
): Promise<void> {
  const stored = await app.services.store.docs.get<{ id: number | null }>('seedMark', accountId, mark);
  if (typeof item['Name'] === 'string' && typeof stored?.doc.id === 'number') ids.set(item['Name'], stored.doc.id);
}
