/**
 * Store.holdLock on both stores: what makes one instance among several on one PostgreSQL run the
 * containers (domain/containers/runtime/supervisor.ts). On PostgreSQL the lock is exclusive across
 * connections, and free again once released; on SQLite, whose file one server serves, it is granted.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

it('is held by one holder at a time across instances, and taken over once released', async () => {
  const other = await t.openStore();
  try {
    const first = await t.store.holdLock('supervisor');
    expect(first?.held()).toBe(true);
    const second = await other.holdLock('supervisor');
    if (t.store.dialect === 'postgres') {
      expect(second).toBeUndefined();
      expect((await other.holdLock('another lock'))?.held()).toBe(true);
      await first!.release();
      expect(first!.held()).toBe(false);
      const taken = await other.holdLock('supervisor');
      expect(taken?.held()).toBe(true);
      await taken!.release();
    } else {
      expect(second?.held()).toBe(true);
    }
  } finally {
    await other.close();
  }
});
