import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { serializerCompiler } from '../../src/planes/common/serialization.js';
import { AnswerCache } from '../../src/planes/api/answer-cache.js';
import type { ChangeFeed, StoreChange } from '../../src/store/types.js';

/** The ChangeFeed contract, driven by hand: the test decides when a write happens. */
class HandFeed implements ChangeFeed {
  private current = 0;
  private readonly listeners: ((change: StoreChange) => void)[] = [];
  generation = () => this.current;
  subscribe(listener: (change: StoreChange) => void): void {
    this.listeners.push(listener);
  }
  write(change: StoreChange): void {
    this.current++;
    for (const l of this.listeners) l(change);
  }
  /** The generation moves with nothing heard: a PostgreSQL feed that is not listening. */
  unheard(): void {
    this.current++;
  }
}

const Zone = Type.Object({ name: Type.String() });
const key = { kind: 'pullZone' as const, accountId: 1, id: 7, variant: '' };

function appWith(cache: AnswerCache, load: () => Promise<{ name: string }>) {
  const app = Fastify();
  app.setSerializerCompiler(serializerCompiler);
  app.get('/zone', { schema: { response: { 200: Zone } } }, (_req, reply) => cache.send(reply, key, load));
  return app;
}

let app: ReturnType<typeof appWith> | undefined;
afterEach(async () => app?.close());

describe('AnswerCache', () => {
  it('answers from memory until the document is written, then loads it again', async () => {
    const feed = new HandFeed();
    let name = 'first';
    let loads = 0;
    app = appWith(new AnswerCache(feed, 100), async () => (loads++, { name }));
    expect((await app.inject('/zone')).json()).toEqual({ name: 'first' });
    expect((await app.inject('/zone')).json()).toEqual({ name: 'first' });
    expect(loads).toBe(1);
    name = 'second';
    feed.write({ type: 'doc', kind: 'pullZone', accountId: 1, id: '7' });
    expect((await app.inject('/zone')).json()).toEqual({ name: 'second' });
    expect(loads).toBe(2);
  });

  it('keeps nothing computed while a write happened: a racing write never leaves a stale answer', async () => {
    const feed = new HandFeed();
    let name = 'old';
    let loads = 0;
    app = appWith(new AnswerCache(feed, 100), async () => {
      loads++;
      const seen = name;
      if (loads === 1) {
        // Another request writes the document after this one read it.
        name = 'new';
        feed.write({ type: 'doc', kind: 'pullZone', accountId: 1, id: '7' });
      }
      return { name: seen };
    });
    expect((await app.inject('/zone')).json()).toEqual({ name: 'old' });
    expect((await app.inject('/zone')).json()).toEqual({ name: 'new' });
    expect(loads).toBe(2);
  });

  it('forgets everything on a change of every document, and ignores writes to other documents', async () => {
    const feed = new HandFeed();
    let loads = 0;
    app = appWith(new AnswerCache(feed, 100), async () => (loads++, { name: 'z' }));
    await app.inject('/zone');
    feed.write({ type: 'doc', kind: 'pullZone', accountId: 2, id: '7' });
    feed.write({ type: 'doc', kind: 'storageZone', accountId: 1, id: '7' });
    await app.inject('/zone');
    expect(loads).toBe(1);
    feed.write({ type: 'all' });
    await app.inject('/zone');
    expect(loads).toBe(2);
  });

  it('caches nothing with a size of 0', async () => {
    let loads = 0;
    app = appWith(new AnswerCache(new HandFeed(), 0), async () => (loads++, { name: 'z' }));
    await app.inject('/zone');
    await app.inject('/zone');
    expect(loads).toBe(2);
  });

  it('caches nothing without a change feed', async () => {
    let loads = 0;
    app = appWith(new AnswerCache(undefined, 100), async () => (loads++, { name: 'z' }));
    await app.inject('/zone');
    await app.inject('/zone');
    expect(loads).toBe(2);
  });

  it('keeps an answer computed while other documents were written, not one computed while changes went unheard', async () => {
    const feed = new HandFeed();
    let loads = 0;
    let during: (() => void) | undefined;
    app = appWith(new AnswerCache(feed, 100), async () => {
      loads++;
      during?.();
      return { name: 'zone' };
    });
    // A busy store: another document is written while this one's answer is computed.
    during = () => feed.write({ type: 'doc', kind: 'pullZone', accountId: 1, id: '8' });
    await app.inject('/zone');
    await app.inject('/zone');
    expect(loads).toBe(1);
    // The feed stopped listening meanwhile: what it missed is unknown, so nothing is kept.
    feed.write({ type: 'doc', kind: 'pullZone', accountId: 1, id: '7' });
    during = () => feed.unheard();
    await app.inject('/zone');
    during = undefined;
    await app.inject('/zone');
    expect(loads).toBe(3);
  });
});
