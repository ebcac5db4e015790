/** The origin shield's concurrency limit, rule by rule: the places, the queue's order and size, the wait, changed bounds. */
import { describe, expect, it } from 'vitest';
import { type ConcurrencyBounds, ConcurrencyLimit, type Turn, ZoneConcurrencyLimits } from '../../../src/domain/edge/shield/concurrency-limit.js';

const bounds = (maxConcurrent: number, maxQueued: number, maxWaitMs = 10_000): ConcurrencyBounds => ({ maxConcurrent, maxQueued, maxWaitMs });

/** A turn that was given at once (not a promise), and went. */
function went(turn: Turn | Promise<Turn>): Turn & { kind: 'go' } {
  if (turn instanceof Promise || turn.kind !== 'go') throw new Error(`expected an immediate go, got ${turn instanceof Promise ? 'a wait' : turn.why}`);
  return turn;
}

/** Records the order in which waiting turns settle. */
function settled(turn: Turn | Promise<Turn>, log: string[], name: string): Promise<Turn> {
  return Promise.resolve(turn).then((t) => {
    log.push(`${name}:${t.kind === 'go' ? 'go' : t.why}`);
    return t;
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('lets maxConcurrent through at once, queues the next and refuses what finds the queue full, telling each (the queue statistics)', async () => {
    const events: string[] = [];
    const limit = new ConcurrencyLimit(undefined, (event) => events.push(event));
    const first = went(limit.take(bounds(2, 5)));
    went(limit.take(bounds(2, 5)));
    const third = limit.take(bounds(2, 5));
    expect(third).toBeInstanceOf(Promise);
    expect([limit.running, limit.waiting]).toEqual([2, 1]);
    // The queue holds one: a fourth is refused at once.
    expect(limit.take(bounds(2, 1))).toEqual({ kind: 'refused', why: 'queue-full' });
    first.release();
    expect((await third).kind).toBe('go');
    expect([limit.running, limit.waiting]).toEqual([2, 0]);
    expect(events).toEqual(['ran', 'ran', 'queued', 'refused', 'ran']);
  });

  it('hands freed places to the waiting requests first come, first served', async () => {
    const limit = new ConcurrencyLimit();
    const log: string[] = [];
    const running = went(limit.take(bounds(1, 3)));
    const waits = ['a', 'b', 'c'].map((name) => settled(limit.take(bounds(1, 3)), log, name));
    running.release();
    const a = await waits[0]!;
    await tick();
    expect(log).toEqual(['a:go']);
    (a as Turn & { kind: 'go' }).release();
    const b = await waits[1]!;
    (b as Turn & { kind: 'go' }).release();
    await waits[2];
    expect(log).toEqual(['a:go', 'b:go', 'c:go']);
  });

  it('refuses at once what finds the queue full, and a queue of 0 holds nobody', () => {
    const limit = new ConcurrencyLimit();
    went(limit.take(bounds(1, 1)));
    expect(limit.take(bounds(1, 1))).toBeInstanceOf(Promise);
    expect(limit.take(bounds(1, 1))).toEqual({ kind: 'refused', why: 'queue-full' });
    const none = new ConcurrencyLimit();
    went(none.take(bounds(1, 0)));
    expect(none.take(bounds(1, 0))).toEqual({ kind: 'refused', why: 'queue-full' });
  });

  it('refuses a request that waited maxWaitMs, which leaves its place in the queue to the next', async () => {
    const limit = new ConcurrencyLimit();
    const running = went(limit.take(bounds(1, 2, 30)));
    const early = limit.take(bounds(1, 2, 30));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const late = limit.take(bounds(1, 2, 200));
    expect(await early).toEqual({ kind: 'refused', why: 'waited-too-long' });
    expect(limit.waiting).toBe(1);
    running.release();
    expect((await late).kind).toBe('go');
  });

  it('refuses at once when the wait allowed is 0', () => {
    const limit = new ConcurrencyLimit();
    went(limit.take(bounds(1, 10, 0)));
    expect(limit.take(bounds(1, 10, 0))).toEqual({ kind: 'refused', why: 'queue-full' });
  });

  it('counts a release once, however often it is called', async () => {
    const limit = new ConcurrencyLimit();
    const first = went(limit.take(bounds(1, 5)));
    const second = limit.take(bounds(1, 5));
    const third = limit.take(bounds(1, 5));
    first.release();
    first.release();
    expect((await second).kind).toBe('go');
    await tick();
    expect([limit.running, limit.waiting]).toEqual([1, 1]);
    expect(third).toBeInstanceOf(Promise);
  });

  it('applies new bounds from the next request: a raised limit lets the waiting go, a lowered one holds new requests back', async () => {
    const limit = new ConcurrencyLimit();
    const a = went(limit.take(bounds(1, 5)));
    const waiting = limit.take(bounds(1, 5));
    // Raised to 3: the waiting request goes first, then the new one.
    expect((await Promise.resolve(limit.take(bounds(3, 5)))).kind).toBe('go');
    expect((await waiting).kind).toBe('go');
    expect(limit.running).toBe(3);
    // Lowered to 1 with 3 in flight: a new request waits until only 0 are left in flight.
    const held = limit.take(bounds(1, 5));
    expect(held).toBeInstanceOf(Promise);
    a.release();
    await tick();
    expect(limit.waiting).toBe(1);
  });
});

describe('ZoneConcurrencyLimits', () => {
  it('keeps one limit per zone, and forgets a zone with nothing in flight or waiting', async () => {
    const limits = new ZoneConcurrencyLimits();
    const one = went(limits.take(1, bounds(1, 1)));
    went(limits.take(2, bounds(1, 1)));
    const waiting = limits.take(1, bounds(1, 1));
    expect(limits.of(1)).toEqual({ running: 1, waiting: 1 });
    expect(limits.of(2)).toEqual({ running: 1, waiting: 0 });
    one.release();
    const next = (await waiting) as Turn & { kind: 'go' };
    next.release();
    expect(limits.of(1)).toEqual({ running: 0, waiting: 0 });
    // A new request for the forgotten zone starts a fresh limit.
    went(limits.take(1, bounds(1, 1)));
    expect(limits.of(1)).toEqual({ running: 1, waiting: 0 });
  });
});
