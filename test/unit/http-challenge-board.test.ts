/**
 * The edge's board of open HTTP challenges (domain/certificates/http-challenges.ts): a read that
 * finds a challenge gone keeps any older read from bringing it back, yet gives way to this
 * process's own later commit of the same id (ids are drawn anew once a store is emptied: an
 * operator's reset, the test suite's kept PostgreSQL store).
 */
import { describe, expect, it } from 'vitest';
import type { PendingChallenge } from '../../src/domain/certificates/challenges.js';
import { HttpChallengeBoard } from '../../src/domain/certificates/http-challenges.js';
import type { StoreChange } from '../../src/store/types.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const challenge = (token: string): PendingChallenge => ({
  Kind: 'http',
  Hostname: 'cdn.example.com',
  HostnameId: 1,
  PullZoneId: 1,
  Token: token,
  Value: `${token}.proof`,
  ExpiresAt: '2026-01-02T00:00:00.000Z',
  Completed: false,
  Published: null,
});

/** A board over a store whose one document the test sets, and whose change feed it drives. */
async function board() {
  let listener: (change: StoreChange) => void = () => {};
  const stored: { doc?: { version: number; doc: PendingChallenge } } = {};
  const store = { changes: { subscribe: (l: (change: StoreChange) => void) => (listener = l), generation: () => 0 } };
  const repo = { scan: async () => [], findAnyAccount: async () => stored.doc };
  const b = new HttpChallengeBoard(store as never, repo as never, () => new Date(NOW));
  await b.start();
  const changed = async () => {
    listener({ type: 'doc', kind: 'certificateChallenge', accountId: 1, id: 'http:1' } as StoreChange);
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { b, stored, changed };
}

const path = (token: string) => `/.well-known/acme-challenge/${token}`;

describe('the HTTP challenge board', () => {
  it("answers this process's new challenge under an id a read had found gone", async () => {
    const { b, changed } = await board();
    // Another process's change heard while the id names nothing (the store was just emptied).
    await changed();
    b.committed('http:1', 1, challenge('t1'));
    expect(b.answer('cdn.example.com', path('t1'))).toBe('t1.proof');
  });

  it('never lets a read from before a deletion bring the challenge back', async () => {
    const { b, stored, changed } = await board();
    b.committed('http:1', 1, challenge('t1'));
    b.committed('http:1', Number.POSITIVE_INFINITY, undefined);
    expect(b.answer('cdn.example.com', path('t1'))).toBeUndefined();
    // A read that began before the deletion, answering after it.
    stored.doc = { version: 1, doc: challenge('t1') };
    await changed();
    expect(b.answer('cdn.example.com', path('t1'))).toBeUndefined();
  });

  it('keeps a newer version read from the store over an older commit of this process', async () => {
    const { b, stored, changed } = await board();
    stored.doc = { version: 3, doc: challenge('t3') };
    await changed();
    b.committed('http:1', 2, challenge('t2'));
    expect(b.answer('cdn.example.com', path('t3'))).toBe('t3.proof');
    expect(b.answer('cdn.example.com', path('t2'))).toBeUndefined();
  });
});
