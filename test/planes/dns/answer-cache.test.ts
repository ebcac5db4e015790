/**
 * The UDP answer cache: used only for what the authority vouches for (a generation, cacheable
 * answers), dropped when the generation moves, and invisible to clients and statistics.
 */
import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../../src/planes/dns/answer-cache.js';
import { frame, query, TcpClient, udpAsk } from './clients.js';
import { FakeAuthority } from './fake-authority.js';
import { startPlane } from './start.js';

describe('answer cache', () => {
  it('answers a repeated query from the cache, with its own ID, and still reports every answer', async () => {
    const reported: string[] = [];
    let tallies = 0;
    const { plane, authority } = await startPlane(
      {
        tallyOf: () => {
          tallies++;
          return { count: (address, transport) => reported.push(`${transport} ${address}`) };
        },
      },
      '127.0.0.1',
      new FakeAuthority({ cacheable: true }),
    );
    const first = await udpAsk(plane.port, query('example.test', { id: 1, udpPayloadSize: 1232 }));
    const second = await udpAsk(plane.port, query('example.test', { id: 2, udpPayloadSize: 1232 }));
    expect(second).toEqual({ ...first, id: 2 });
    expect(authority.seen).toHaveLength(1);
    expect(reported).toEqual(['udp 127.0.0.1', 'udp 127.0.0.1']);
    // Asked once for the answer, counted at each sending of it.
    expect(tallies).toBe(1);
  });

  it('keys on every byte after the ID: the spelling of the name, the EDNS size, the DO bit', async () => {
    const { plane, authority } = await startPlane({}, '127.0.0.1', new FakeAuthority({ cacheable: true }));
    await udpAsk(plane.port, query('example.test'));
    const upper = await udpAsk(plane.port, query('EXAMPLE.test'));
    expect(upper!.questions![0]!.name).toBe('EXAMPLE.test');
    await udpAsk(plane.port, query('example.test', { udpPayloadSize: 1232 }));
    await udpAsk(plane.port, query('example.test', { udpPayloadSize: 1232, dnssecOk: true }));
    expect(authority.seen).toHaveLength(4);
  });

  it('keeps the truncated answer as sent, and TCP still asks the authority', async () => {
    const { plane, authority } = await startPlane({}, '127.0.0.1', new FakeAuthority({ cacheable: true }));
    for (const id of [1, 2]) expect(await udpAsk(plane.port, query('big.example.test', { id, type: 'TXT' }))).toMatchObject({ id, flag_tc: true, answers: [] });
    const tcp = await TcpClient.connect(plane.port);
    for (const id of [3, 4]) {
      await tcp.write(frame(query('big.example.test', { id, type: 'TXT' })));
      expect(await tcp.next()).toMatchObject({ id, answers: { length: 15 } });
    }
    tcp.destroy();
    expect(authority.seen.map((s) => s.context.transport)).toEqual(['udp', 'tcp', 'tcp']);
  });

  it('asks the authority again once its generation moves', async () => {
    const { plane, authority } = await startPlane({}, '127.0.0.1', new FakeAuthority({ cacheable: true }));
    await udpAsk(plane.port, query('example.test'));
    authority.generation! += 1;
    await udpAsk(plane.port, query('example.test'));
    await udpAsk(plane.port, query('example.test'));
    expect(authority.seen).toHaveLength(2);
  });

  it('never keeps an answer not marked cacheable, nor any answer of an authority without a generation, nor with the cache off', async () => {
    const cached = await startPlane({}, '127.0.0.1', new FakeAuthority({ cacheable: true }));
    for (let i = 0; i < 2; i++) await udpAsk(cached.plane.port, query('random.example.test'));
    expect(cached.authority.seen).toHaveLength(2);
    const plain = await startPlane();
    for (let i = 0; i < 2; i++) await udpAsk(plain.plane.port, query('example.test'));
    expect(plain.authority.seen).toHaveLength(2);
    const off = await startPlane({ answerCacheSize: 0 }, '127.0.0.1', new FakeAuthority({ cacheable: true }));
    for (let i = 0; i < 2; i++) await udpAsk(off.plane.port, query('example.test'));
    expect(off.authority.seen).toHaveLength(2);
  });

  it('gives an entry only to the query it was kept for: a query of the same key but other bytes gets nothing', () => {
    const cache = new AnswerCache({ generation: 0 }, 10);
    const a = query('a.example.test', { id: 1 });
    const b = query('b.example.test', { id: 2 });
    const key = cache.keyOf(a)!;
    expect(cache.keyOf(query('a.example.test', { id: 9 }))).toBe(key);
    cache.offer(key, a, cacheableAnswer('answer of a'), 0);
    expect(cache.get(key, b, 1)).toBeUndefined();
    const hit = cache.get(key, a, 1);
    expect(hit).toBeDefined();
    // The kept answer, under the ID of the query it now answers.
    expect(AnswerCache.answerTo(query('a.example.test', { id: 0x4142 }), hit!).toString()).toBe('ABswer of a');
    expect(cache.get(key, query('a.example.test', { id: 3, type: 'AAAA' }), 1)).toBeUndefined();
    // Nothing is kept for a query too short to be one.
    expect(cache.keyOf(Buffer.alloc(11))).toBeUndefined();
  });

  it('drops an entry 20 s after it was kept, whatever the generation says', () => {
    const cache = new AnswerCache({ generation: 0 }, 10);
    const a = query('a.example.test', { id: 1 });
    const key = cache.keyOf(a)!;
    cache.offer(key, a, cacheableAnswer('answer of a'), 1_000);
    expect(cache.get(key, a, 20_999)).toBeDefined();
    expect(cache.get(key, a, 21_000)).toBeUndefined();
    // Gone, not only stale: a later look finds nothing either.
    expect(cache.get(key, a, 1_000)).toBeUndefined();
  });
});

/** An answer the authority vouches for, made at generation 0, as the cache's own tests offer it. */
function cacheableAnswer(text: string) {
  return { bytes: Buffer.from(text), answered: { response: { type: 'response' as const }, cacheable: true }, generation: 0, tally: undefined };
}
