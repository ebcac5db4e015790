/**
 * The answers the preloading screen holds for its follow-ups: taken once and for their URL only,
 * bounded in number (in all and per client) and in bytes, let go after the hold, forgotten when
 * the origin request fails.
 */
import { describe, expect, it } from 'vitest';
import { HeldAnswers, type HeldLimits } from '../../../src/domain/edge/preloader/held-answers.js';

interface Answer {
  name: string;
  bytes: number;
}

const LIMITS: HeldLimits = { maxHeld: 3, maxPerClient: 2, maxBytes: 100, holdMs: 30 };

function store(limits: Partial<HeldLimits> = {}) {
  const discarded: string[] = [];
  const held = new HeldAnswers<Answer>({ ...LIMITS, ...limits }, { bytesOf: (a) => a.bytes, discard: (a) => discarded.push(a.name) });
  return { held, discarded };
}

const answer = (name: string, bytes = 10) => Promise.resolve({ name, bytes });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('held answers', () => {
  it('gives an answer once, to a request for its URL from its client, and tokens no one can guess', async () => {
    const { held } = store();
    const token = held.hold('192.0.2.1', 'zone /a', answer('a'))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(held.take(token, '192.0.2.1', 'zone /b')).toBeUndefined();
    expect(held.take(token, '192.0.2.2', 'zone /a')).toBeUndefined();
    expect(held.take('x'.repeat(24), '192.0.2.1', 'zone /a')).toBeUndefined();
    expect((await held.take(token, '192.0.2.1', 'zone /a'))?.name).toBe('a');
    expect(held.take(token, '192.0.2.1', 'zone /a')).toBeUndefined();
    expect(held.size).toBe(0);
  });

  it('holds at most maxHeld answers, maxPerClient per client', () => {
    const { held } = store();
    const pending = () => new Promise<Answer>(() => undefined);
    expect(held.hold('192.0.2.1', 'u1', pending())).toBeDefined();
    expect(held.hold('192.0.2.1', 'u2', pending())).toBeDefined();
    expect(held.hold('192.0.2.1', 'u3', pending())).toBeUndefined();
    expect(held.hold('192.0.2.2', 'u4', pending())).toBeDefined();
    expect(held.hold('192.0.2.3', 'u5', pending())).toBeUndefined();
    expect(held.size).toBe(3);
  });

  it('lets an answer go after the hold, and one that would pass the byte budget at once', async () => {
    const { held, discarded } = store();
    const kept = held.hold('192.0.2.1', 'u1', answer('kept', 60))!;
    held.hold('192.0.2.2', 'u2', answer('too big', 60));
    await settle();
    expect(discarded).toEqual(['too big']);
    expect(held.size).toBe(1);
    await sleep(LIMITS.holdMs + 20);
    expect(discarded).toEqual(['too big', 'kept']);
    expect(held.take(kept, '192.0.2.1', 'u1')).toBeUndefined();
    // The bytes went with it: a new answer fits again.
    held.hold('192.0.2.1', 'u3', answer('next', 60));
    await settle();
    expect(discarded).toHaveLength(2);
  });

  it('an answer taken before it is ready is the taker’s; a failed one is forgotten', async () => {
    const { held, discarded } = store();
    let resolve!: (a: Answer) => void;
    const token = held.hold('192.0.2.1', 'u1', new Promise<Answer>((r) => (resolve = r)))!;
    const taken = held.take(token, '192.0.2.1', 'u1')!;
    resolve({ name: 'late', bytes: 10 });
    expect((await taken).name).toBe('late');
    await sleep(LIMITS.holdMs + 20);
    expect(discarded).toEqual([]);

    const failing = Promise.reject(new Error('origin broke off'));
    const lost = held.hold('192.0.2.1', 'u2', failing)!;
    await settle();
    expect(held.take(lost, '192.0.2.1', 'u2')).toBeUndefined();
    expect(held.size).toBe(0);
  });
});
