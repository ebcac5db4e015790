/**
 * BoundedMap keeps exactly the most recently set entries, whatever the mix of sets, deletes and
 * clears (checked against a plain model), and stays fast once full under constant eviction.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedMap, ExpiringMap } from '../../src/domain/bounded-map.js';

type Op = { kind: 'set'; key: number; value: number } | { kind: 'delete'; key: number } | { kind: 'clear' } | { kind: 'get'; key: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 30 }), value: fc.integer() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 30 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 30 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

describe('BoundedMap', () => {
  it('holds what a model of "the last N keys set" holds, after any operations', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 300 }), (size, ops) => {
        const map = new BoundedMap<number, number>(size);
        let model: [number, number][] = [];
        for (const o of ops) {
          if (o.kind === 'set') {
            model = [...model.filter(([k]) => k !== o.key), [o.key, o.value]];
            if (model.length > size) model.shift();
            map.set(o.key, o.value);
          } else if (o.kind === 'delete') {
            model = model.filter(([k]) => k !== o.key);
            map.delete(o.key);
          } else if (o.kind === 'clear') {
            model = [];
            map.clear();
          } else {
            expect(map.get(o.key)).toBe(model.find(([k]) => k === o.key)?.[1]);
          }
        }
        for (let key = 0; key <= 30; key++) expect(map.get(key)).toBe(model.find(([k]) => k === key)?.[1]);
      }),
      { numRuns: 500 },
    );
  });

  it('evicts in constant time once full: twenty times the size, about the same cost an insert', () => {
    // A ratio on the same machine, not a figure: the walk from a fresh iterator per eviction cost
    // in proportion to the size (about 20x between these two), the kept iterator does not.
    const perInsert = (size: number) => {
      const map = new BoundedMap<string, number>(size);
      const keys = Array.from({ length: size * 1.5 }, (_, i) => `name-${i}`);
      for (let i = 0; i < size * 2; i++) map.set(keys[i % keys.length]!, i);
      const started = performance.now();
      for (let i = 0; i < 100_000; i++) map.set(keys[(i * 31) % keys.length]!, i);
      return (performance.now() - started) / 100_000;
    };
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) best = Math.min(best, perInsert(20_000) / perInsert(1_000));
    expect(best).toBeLessThan(5);
  });
});

describe('ExpiringMap', () => {
  it('gives an entry until its end, not at it, and forgets it then', () => {
    const map = new ExpiringMap<string, { until: number; value: string }>(10);
    const entry = { until: 1_000, value: 'a' };
    map.set('a', entry);
    expect(map.getFresh('a', 0)).toBe(entry);
    expect(map.getFresh('a', 999)).toBe(entry);
    expect(map.getFresh('a', 1_000)).toBeUndefined();
    expect(map.get('a')).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('stays bounded, the oldest set giving its place, ended or not', () => {
    const map = new ExpiringMap<number, { until: number }>(3);
    for (let i = 0; i < 5; i++) map.set(i, { until: i < 2 ? 10 : 1_000 });
    expect(map.size).toBe(3);
    expect([0, 1, 2, 3, 4].map((i) => map.getFresh(i, 50) !== undefined)).toEqual([false, false, true, true, true]);
  });
});
