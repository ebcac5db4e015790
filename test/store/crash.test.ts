/**
 * Nothing acknowledged is lost: under concurrent writes the server process is killed with SIGKILL
 * at a random moment, restarted on the same data, and every write that got a 2xx must be there,
 * intact. Runs on SQLite and on PostgreSQL (the project decides), several kill points per run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { testStoreLocation, type TestStoreLocation } from '../helpers/store.js';
import { within } from '../helpers/within.js';

const KEY = 'crash-test-key-0123456789';
let dir: string;
let location: TestStoreLocation;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-crash-'));
  location = await testStoreLocation(join(dir, 'db.sqlite'));
  env = {
    DATABASE_URL: location.databaseUrl,
    EDGEPLANE_BOOTSTRAP_KEY: KEY,
    EDGEPLANE_MASTER_KEY: randomBytes(32).toString('hex'),
    // PostgreSQL has no default files backend (instances must share one); these tests store none.
    EDGEPLANE_FILES_URL: `file:${join(dir, 'files')}`,
    LOG_LEVEL: 'warn',
    // The read-back below is one key asking as fast as it can: not what the rate limit is about.
    EDGEPLANE_RATE_LIMIT_PER_SECOND: '0',
  };
});
afterAll(async () => {
  await location.destroy();
  rmSync(dir, { recursive: true, force: true });
});

interface Ack {
  id: number;
  name: string;
}

/** Writers create storage zones until the server dies, `killAfterMs` after the first acknowledgement; returns what was acknowledged. */
async function writeUntilKilled(server: ServerProcess, round: number, killAfterMs: number): Promise<Ack[]> {
  const acks: Ack[] = [];
  let n = 0;
  let dead = false;
  const writer = async (w: number) => {
    while (!dead) {
      const name = `r${round}-w${w}-${n++}`;
      try {
        const res = await fetch(`${server.base}/storagezone`, {
          method: 'POST',
          headers: { AccessKey: KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ Name: name, Region: 'DE', ReplicationRegions: ['NY'] }),
        });
        if (res.status === 201) acks.push({ id: ((await res.json()) as { Id: number }).Id, name });
      } catch {
        return; // connection refused or reset: the server is gone
      }
    }
  };
  const writers = Array.from({ length: 8 }, (_, w) => writer(w));
  // Killed while writes are under way: some time after the first was acknowledged (a loaded machine
  // may take a while to answer the first one).
  await within(15_000, async () => acks.length > 0);
  await new Promise((r) => setTimeout(r, killAfterMs));
  dead = true;
  await server.stop('SIGKILL');
  await Promise.all(writers);
  return acks;
}

describe('durability under SIGKILL', () => {
  it('keeps every acknowledged write across several kills', async () => {
    const all: Ack[] = [];
    for (let round = 0; round < 3; round++) {
      const server = await startServer(env);
      const acks = await writeUntilKilled(server, round, Math.floor(Math.random() * 400));
      expect(acks.length).toBeGreaterThan(0);
      all.push(...acks);
    }
    const server = await startServer(env);
    try {
      for (const ack of all) {
        const res = await fetch(`${server.base}/storagezone/${ack.id}`, { headers: { AccessKey: KEY } });
        expect(res.status, `zone ${ack.name}`).toBe(200);
        const zone = (await res.json()) as { Name: string; Region: string; ReplicationRegions: string[]; Password: string };
        expect(zone).toMatchObject({ Name: ack.name, Region: 'DE', ReplicationRegions: ['NY'] });
        expect(zone.Password.length).toBeGreaterThan(20);
      }
    } finally {
      await server.stop();
    }
  }, 120_000);
});
