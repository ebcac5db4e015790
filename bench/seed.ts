/**
 * Test data. Small seeds go through the HTTP API like any client's; the large pull zone seeds go
 * straight into the SQLite file (server stopped) through the project's own store and repositories,
 * so they are sealed, indexed and numbered exactly as the API would have done it, only faster.
 */
import { request as httpRequest } from 'node:http';
import { readConfig } from '../src/config.js';
import { newPullZone } from '../src/domain/pull-zones/defaults.js';
import { hostnameClaims } from '../src/domain/pull-zones/hostnames.js';
import { pullZoneRepo } from '../src/domain/pull-zones/repo.js';
import { userIdOf } from '../src/domain/principal.js';
import { resolveMasterKey } from '../src/security/master-key.js';
import { Secrets } from '../src/security/secrets.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { CapturedResponse } from './baseline.js';

const REQUEST_TIMEOUT_MS = 10_000;
const SEED_CONCURRENCY = 16;

export class Client {
  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  /** One API call; anything but the `expected` status is an error that stops the benchmark. */
  async call<T>(method: string, path: string, expected: number, body?: unknown): Promise<T> {
    const response = await fetch(this.base + path, {
      method,
      headers: body === undefined ? { AccessKey: this.key } : { AccessKey: this.key, 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${response.status}: ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * The exact bytes and headers of a response, for the baseline to replay. Read with node:http
   * rather than fetch, which would hide how the body was framed on the wire.
   */
  capture(path: string): Promise<CapturedResponse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(this.base + path, { headers: { AccessKey: this.key }, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i]!;
            // node:http writes these itself on every response, so copying them would double them.
            if (!/^(date|connection|keep-alive|transfer-encoding)$/i.test(name)) headers[name] = res.rawHeaders[i + 1]!;
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
      req.on('error', reject);
      req.end();
    });
  }
}

/** Runs `task(0..count-1)` with at most `concurrency` in flight; stops at the first failure. */
async function inParallel<T>(count: number, task: (i: number) => Promise<T>, concurrency = SEED_CONCURRENCY): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < count && !failed) {
      const i = next++;
      try {
        results[i] = await task(i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** Tops the account up to `total` API keys (the bootstrap key counts). */
export async function seedApiKeys(client: Client, total: number): Promise<void> {
  const page = await client.call<{ TotalItems: number }>('GET', '/apikey?perPage=5', 200);
  await inParallel(Math.max(0, total - page.TotalItems), () => client.call('POST', '/apikey', 201, {}));
}

export async function createPullZones(client: Client, tag: string, count: number): Promise<number[]> {
  return inParallel(count, async (i) => {
    const zone = await client.call<{ Id: number }>('POST', '/pullzone', 201, { Name: `${tag}-pz-${i}`, OriginUrl: `https://origin-${i}.example.com` });
    return zone.Id;
  });
}

export async function createDnsZones(client: Client, tag: string, count: number): Promise<number[]> {
  return inParallel(count, async (i) => (await client.call<{ Id: number }>('POST', '/dnszone', 201, { Domain: `${tag}-${i}.example` })).Id);
}

const SEED_BATCH = 20_000;

export interface DirectSeed {
  dbFile: string;
  bootstrapKey: string;
  count: number;
  /** Prefix of the zone names, unique per run. */
  tag: string;
  onProgress?: (done: number) => void;
}

/**
 * Adds `count` pull zones to the bootstrap key's account, each with its system hostname claimed,
 * in transactions of 20,000. The server must be stopped; it reads the same master key file.
 * Returns the new zones' ids.
 */
export async function seedPullZonesDirect(seed: DirectSeed): Promise<number[]> {
  const config = readConfig({ DATABASE_URL: `sqlite:${seed.dbFile}` });
  const secrets = new Secrets(resolveMasterKey(config));
  const zones = pullZoneRepo(secrets);
  const claims = hostnameClaims(secrets);
  const store = await SqliteStore.open(seed.dbFile);
  try {
    const key = await store.apiKeys.findByLookupHash(secrets.lookupHash(seed.bootstrapKey));
    if (!key) throw new Error('the bootstrap key is not in the store');
    const accountId = key.accountId;
    const ids: number[] = [];
    while (ids.length < seed.count) {
      const batch = Math.min(SEED_BATCH, seed.count - ids.length);
      await store.transaction(async (tx) => {
        for (let i = 0; i < batch; i++) {
          const id = await tx.nextId('pullZone');
          const hostname = { id: await tx.nextId('hostname'), value: `${seed.tag}-seed-${id}.${config.cdnDomain}` };
          const zone = newPullZone({
            id,
            userId: userIdOf(accountId),
            name: `${seed.tag}-seed-${id}`,
            originUrl: `https://origin-${id}.example.com`,
            type: 0,
            systemHostname: hostname,
          });
          await zones.insert(tx, accountId, id, zone);
          await claims.insert(tx, accountId, hostname.id, { PullZoneId: id, Value: hostname.value });
          ids.push(id);
        }
      });
      seed.onProgress?.(ids.length);
    }
    return ids;
  } finally {
    await store.close();
  }
}
