/**
 * Where the key that seals stored credentials comes from: the configuration, else a key file
 * beside the SQLite database (created once, mode 0600), else — for an in-memory store that dies
 * with the process anyway — a random key.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config.js';
import { ConfigError } from '../config.js';

export function resolveMasterKey(config: Config): Buffer {
  if (config.masterKey) return Buffer.from(config.masterKey, 'hex');
  const sqlitePath = config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl.slice('sqlite:'.length) : undefined;
  if (sqlitePath === ':memory:') return randomBytes(32);
  if (!sqlitePath) {
    throw new ConfigError('EDGEPLANE_MASTER_KEY is required with PostgreSQL: every instance must share it (64 hex characters).');
  }
  const file = join(dirname(sqlitePath), 'master.key');
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new ConfigError(`${file} does not hold a 64-hex-character key`);
    return Buffer.from(hex, 'hex');
  }
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}
