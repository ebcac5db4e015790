/**
 * The start-up state of a store, used at start and by a reset: the first account (when the store
 * is empty), then the seed file, if one is configured.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { errors } from '../domain/errors.js';
import type { ResetGate } from '../planes/api/plugins/reset-gate.js';
import { applySeed, readSeed, type SeedResult } from './apply.js';

export interface Prepared {
  /** Set when the first account's key was generated here and must be shown once. */
  generatedKey?: string;
  accounts: number;
  seed?: SeedResult;
}

export async function prepareStore(app: FastifyInstance, config: Config, gate?: ResetGate): Promise<Prepared> {
  const boot = await app.services.accounts.bootstrap(config.bootstrapKey);
  const prepared: Prepared = { accounts: boot ? 1 : 0 };
  if (boot?.generatedKey) prepared.generatedKey = boot.generatedKey;
  if (config.seed) {
    prepared.seed = await applySeed(app, readSeed(config.seed), gate ? { 'x-edgeplane-internal': gate.internalToken } : {});
  }
  return prepared;
}

export async function resetStore(app: FastifyInstance, config: Config, gate: ResetGate, to: 'empty' | 'seed') {
  if (to === 'seed' && !config.seed) {
    throw errors.validation('to', 'No seed file is configured (EDGEPLANE_SEED or --seed).', 'reset.no_seed');
  }
  return gate.run(async () => {
    await app.services.store.wipe();
    const prepared = await prepareStore(app, { ...config, seed: to === 'seed' ? config.seed : undefined }, gate);
    return { to, accounts: prepared.accounts + (prepared.seed?.accounts ?? 0), created: prepared.seed?.created ?? 0 };
  });
}
