/**
 * What the DNS plane's packet cache relies on: the authority's generations say exactly when an
 * answer may have changed, and answers that depend on chance, on an upstream or on another zone
 * are never offered for caching.
 */
import { describe, expect, it } from 'vitest';
import { authority, contextOf, queryPacket, rec, zone } from './helpers.js';

const answer = async (served: ReturnType<typeof authority>, name: string, type = 'A') => served.answer(queryPacket(name, type), contextOf());

describe('generations and cacheable answers', () => {
  it("moves a zone's generation with each of its versions, and the global one only when the set of zones changes", () => {
    const a = zone('a.test', [rec({ Type: 0, Name: 'www', Value: '192.0.2.1' })]);
    const b = zone('b.test', []);
    const served = authority([a, b]);
    const global = served.generation;
    const [genA, genB] = [served.zoneGeneration(a.id), served.zoneGeneration(b.id)];
    served.setZone({ ...a, records: [rec({ Type: 0, Name: 'www', Value: '192.0.2.2' })] });
    expect(served.zoneGeneration(a.id)).not.toBe(genA);
    expect(served.zoneGeneration(b.id)).toBe(genB);
    expect(served.generation).toBe(global);
    served.setZone(zone('c.test', []));
    expect(served.generation).not.toBe(global);
    served.removeZone(b.id);
    expect(served.zoneGeneration(b.id)).toBeUndefined();
  });

  it('offers plain answers for caching, and not those drawn by weight, flattened, or crossing zones', async () => {
    const served = authority([
      zone('a.test', [
        rec({ Type: 0, Name: 'plain', Value: '192.0.2.1' }),
        rec({ Type: 0, Name: 'weighted', Value: '192.0.2.1', Weight: 1 }),
        rec({ Type: 0, Name: 'weighted', Value: '192.0.2.2', Weight: 3 }),
        rec({ Type: 2, Name: 'elsewhere', Value: 'www.b.test' }),
        rec({ Type: 6, Name: 'flat', Value: 'www.b.test' }),
      ]),
      zone('b.test', [rec({ Type: 0, Name: 'www', Value: '192.0.2.9' })]),
    ]);
    expect((await answer(served, 'plain.a.test')).cacheable).toBe(true);
    expect((await answer(served, 'missing.a.test')).cacheable).toBe(true);
    expect((await answer(served, 'weighted.a.test')).cacheable).toBe(false);
    expect((await answer(served, 'flat.a.test')).cacheable).toBe(false);
    expect((await answer(served, 'elsewhere.a.test')).cacheable).toBe(false);
  });
});
