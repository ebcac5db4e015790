/**
 * The perma-cache's background writes stay within their bounds: so many at once, so many waiting,
 * so many bytes held, one per key; a failure is reported and the next write runs; closing drops
 * what waits and lets what runs finish.
 */
import { describe, expect, it } from 'vitest';
import { BackgroundWrites } from '../../src/domain/edge/perma-cache/background-writes.js';

/** A write that runs until the test ends it. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { done, open, fail };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('BackgroundWrites', () => {
  it('runs two at once, keeps three waiting, one per key, and drops the rest', async () => {
    const writes = new BackgroundWrites({ concurrency: 2, maxQueued: 3, maxQueuedBytes: 1000 }, () => undefined);
    const gates = Array.from({ length: 6 }, gate);
    const started: number[] = [];
    const added = gates.map((g, i) =>
      writes.add(`k${i}`, 10, () => {
        started.push(i);
        return g.done;
      }),
    );
    expect(added).toEqual([true, true, true, true, true, false]);
    expect(writes.add('k2', 10, () => Promise.resolve())).toBe(false);
    expect(started).toEqual([0, 1]);
    gates[0]!.open();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await writes.idle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    // The key is free again once its write is done.
    expect(writes.add('k2', 10, () => Promise.resolve())).toBe(true);
    await writes.idle();
  });

  it('holds at most maxQueuedBytes of bodies, unless nothing else is pending', async () => {
    const writes = new BackgroundWrites({ concurrency: 1, maxQueued: 10, maxQueuedBytes: 100 }, () => undefined);
    const g = gate();
    expect(writes.add('big', 500, () => g.done)).toBe(true);
    expect(writes.add('small', 1, () => Promise.resolve())).toBe(false);
    g.open();
    await writes.idle();
    expect(writes.add('a', 60, () => Promise.resolve())).toBe(true);
    expect(writes.add('b', 60, () => Promise.resolve())).toBe(false);
    await writes.idle();
  });

  it('reports a failure and goes on; closing drops what waits and waits for what runs', async () => {
    const errors: unknown[] = [];
    const writes = new BackgroundWrites({ concurrency: 1, maxQueued: 10, maxQueuedBytes: 1000 }, (e) => errors.push(e));
    const failing = gate();
    const running = gate();
    let ran = 0;
    writes.add('fails', 1, () => failing.done);
    writes.add('runs', 1, () => running.done);
    writes.add('dropped', 1, async () => {
      ran++;
    });
    failing.fail(new Error('disk full'));
    await turn();
    expect(errors.map(String)).toEqual(['Error: disk full']);
    let closed = false;
    const closing = writes.close().then(() => (closed = true));
    await turn();
    expect(closed).toBe(false);
    running.open();
    await closing;
    expect(ran).toBe(0);
    expect(writes.add('late', 1, () => Promise.resolve())).toBe(false);
    await writes.idle();
  });
});
