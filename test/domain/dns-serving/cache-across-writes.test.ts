/**
 * The DNS plane's packet cache keeps an answer across writes to its zone that touched nothing the
 * answer was made from (zone-changes.ts). Over random zones and writes, every answer the cache
 * still gives after a write must be the answer an authority given that version whole would make.
 */
import { decode, encode } from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../../src/planes/dns/answer-cache.js';
import { ZoneChanges } from '../../../src/domain/dns/serving/zone-changes.js';
import type { ServingAuthority } from '../../../src/domain/dns/serving/authority.js';
import { authority, contextOf, type Decoded, queryPacket } from './helpers.js';
import { DOMAIN, DRAW, HeldZone, NAMES, request, unsigned, type Write, write } from './random-zones.js';

/** Every name the records use, and names near them that only a wildcard or nothing answers. */
const QUERIED = [...NAMES.map((n) => n.replace('*', 'star')), 'zz.a.b', 'zz.b', 'zz.x.a.b', 'zz.in.sub', 'zz.w', 'nothing'];
const QUESTIONS = QUERIED.flatMap((name) =>
  ['A', 'AAAA', 'CNAME', 'TXT', 'NS', 'MX', 'SOA', 'ANY', 'DS'].flatMap((type) =>
    [false, true].map((dnssec) => ({ name: name === '' ? DOMAIN : `${name}.${DOMAIN}`, type, dnssec })),
  ),
);

interface Question {
  message: Buffer;
  key: number;
}

async function answerFresh(served: ServingAuthority, message: Buffer, dnssec: boolean) {
  return served.answer(decode(message), contextOf({ dnssec }));
}

describe('the packet cache across writes', () => {
  it('gives, after each write, only answers a fresh authority gives too', async () => {
    let keptAcrossWrites = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(request, { maxLength: 12 }), fc.array(write, { minLength: 1, maxLength: 8 }), async (initial, writes) => {
        const held = new HeldZone(9);
        held.apply({ added: initial, changed: [], removed: [], settings: null });
        const served = authority([held.served()], { random: DRAW });
        const cache = new AnswerCache(served, 100_000);
        const questions = QUESTIONS.map((q) => {
          const message = Buffer.from(encode(queryPacket(q.name, q.type, { dnssec: q.dnssec })));
          return { ...q, message, key: cache.keyOf(message)! } satisfies Question & typeof q;
        });
        /** Asks every question, answering misses through the authority and keeping what it vouches for. */
        const fill = async () => {
          for (const q of questions) {
            const now = performance.now();
            if (cache.get(q.key, q.message, now)) continue;
            const answered = await answerFresh(served, q.message, q.dnssec);
            cache.offer(q.key, q.message, { bytes: Buffer.from(encode(answered.response)), answered, generation: served.generation, tally: undefined }, now);
          }
        };
        await fill();
        for (const w of writes) {
          const changes = held.apply(w);
          served.setZone(held.served(), changes);
          const whole = authority([held.served()], { random: DRAW });
          for (const q of questions) {
            const hit = cache.get(q.key, q.message, performance.now());
            if (!hit) continue;
            keptAcrossWrites++;
            const kept = decode(AnswerCache.answerTo(q.message, hit)) as Decoded;
            const fresh = decode(encode((await answerFresh(whole, q.message, q.dnssec)).response)) as Decoded;
            expect(unsigned(kept), `${q.name} ${q.type}${q.dnssec ? ' +dnssec' : ''}`).toEqual(unsigned(fresh));
          }
          await fill();
        }
      }),
      { numRuns: 80 },
    );
    // The property held over answers really kept across writes, not only over misses.
    expect(keptAcrossWrites).toBeGreaterThan(1000);
  });

  it('keeps an answer of an untouched name; drops those of the name written, of names under a new empty name, of a CNAME whose target changed, of a referral whose glue changed, and every negative answer', async () => {
    const held = new HeldZone(11);
    const record = (Name: string, n = 1) => ({ Name, kind: 'A' as const, n, Weight: 0 as const, Disabled: false, offline: false });
    held.apply({ added: [record('www'), record('*'), record('mail')], changed: [], removed: [], settings: null });
    const served = authority([held.served()], { random: DRAW });
    const cache = new AnswerCache(served, 1000);
    const kept = async (name: string, type = 'A') => {
      const message = Buffer.from(encode(queryPacket(`${name}.${DOMAIN}`, type)));
      const key = cache.keyOf(message)!;
      const hit = cache.get(key, message, performance.now()) !== undefined;
      if (!hit) {
        const answered = await answerFresh(served, message, false);
        cache.offer(
          key,
          message,
          { bytes: Buffer.from(encode(answered.response)), answered, generation: served.generation, tally: undefined },
          performance.now(),
        );
      }
      return hit;
    };
    const written = (w: Write) => {
      const changes = held.apply(w);
      served.setZone(held.served(), changes);
    };
    for (const name of ['www', 'mail', 'x.e', 'y.e', 'nothing-here']) await kept(name);
    await kept('www', 'TXT');
    // Adds a.e: e.example.com appears as an empty name, so y.e no longer takes the wildcard's answer.
    written({ added: [record('a.e')], changed: [], removed: [], settings: null });
    expect(await kept('www')).toBe(true);
    expect(await kept('mail')).toBe(true);
    expect(await kept('x.e')).toBe(false);
    expect(await kept('y.e')).toBe(false);
    expect(await kept('www', 'TXT')).toBe(false);
    // Changes www: its answers go, mail's stays.
    written({ added: [], changed: [[0, record('www', 2)]], removed: [], settings: null });
    expect(await kept('www')).toBe(false);
    expect(await kept('mail')).toBe(true);
    // A CNAME's answer goes when its target changes; a referral's when its glue does.
    written({
      added: [{ ...record('alias'), kind: 'CNAME', n: 4 }, record('b'), { ...record('sub'), kind: 'NS', n: 2 }, record('ns1')],
      changed: [],
      removed: [],
      settings: null,
    });
    expect(await kept('alias')).toBe(false);
    expect(await kept('host.sub')).toBe(false);
    written({ added: [record('ns1', 3)], changed: [], removed: [], settings: null });
    expect(await kept('alias')).toBe(true);
    expect(await kept('host.sub')).toBe(false);
    written({ added: [record('b', 2)], changed: [], removed: [], settings: null });
    expect(await kept('alias')).toBe(false);
    expect(await kept('host.sub')).toBe(true);
    expect(await kept('mail')).toBe(true);
    // A new setting of the zone drops everything.
    written({ added: [], changed: [], removed: [], settings: { customNs: true, signed: false } });
    expect(await kept('mail')).toBe(false);
  });

  it('tells nothing of an answer older than the 64 versions it remembers', () => {
    const changes = new ZoneChanges();
    for (let generation = 1; generation <= 70; generation++) changes.add(generation, ['other.example.com']);
    const depends = { names: ['www.example.com'], serial: false };
    expect(changes.unchangedSince(10, depends)).toBe(true);
    expect(changes.unchangedSince(5, depends)).toBe(false);
    expect(changes.unchangedSince(70, { names: ['other.example.com'], serial: true })).toBe(true);
    changes.add(71, ['x.other.example.com']);
    expect(changes.unchangedSince(70, { names: ['other.example.com'], serial: false })).toBe(true);
    expect(changes.unchangedSince(70, { names: ['y.x.other.example.com'], serial: false })).toBe(false);
  });
});
