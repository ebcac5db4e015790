/**
 * The start-up state of a store, used at start and by a reset: the first account (when the store
 * is empty), then the seed file, if one is configured.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Services } from '../domain/services.js';
import { errors } from '../domain/errors.js';
import type { ResetGate } from '../planes/api/plugins/reset-gate.js';
import { applySeed, readSeed, type SeedResult } from './apply.js';

export interface Prepared {
  /** Set when the first account's key was generated here and must be shown once. */
  generatedKey?: string;
  accounts: number;
  seed?: SeedResult;
}

/** The seed is applied through the API's own routes (`api`), which the server builds whenever a seed is configured. */
export async function prepareStore(services: Services, config: Config, api: FastifyInstance | undefined): Promise<Prepared> {
  const boot = await services.accounts.bootstrap(config.bootstrapKey);
  const prepared: Prepared = { accounts: boot ? 1 : 0 };
  if (boot?.generatedKey) prepared.generatedKey = boot.generatedKey;
  if (config.seed) {
    if (!api) throw new Error('A seed is applied through the API, and none was built.');
    prepared.seed = await applySeed(api, readSeed(config.seed), { 'x-edgeplane-internal': api.resetGate.internalToken });
  }
  return prepared;
}

export async function resetStore(app: FastifyInstance, config: Config, gate: ResetGate, to: 'empty' | 'seed') {
  if (to === 'seed' && !config.seed) {
    throw errors.validation('to', 'No seed file is configured (EDGEPLANE_SEED or --seed).', 'reset.no_seed');
  }
  return gate.run(async () => {
    await app.services.store.wipe();
    const prepared = await prepareStore(app.services, { ...config, seed: to === 'seed' ? config.seed : undefined }, app);
    return { to, accounts: prepared.accounts + (prepared.seed?.accounts ?? 0), created: prepared.seed?.created ?? 0 };
  });
}
