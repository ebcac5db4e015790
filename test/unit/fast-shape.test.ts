import { describe, expect, it } from 'vitest';
import { fastCopier } from '../../src/domain/fast-shape.js';
import { PullZone } from '../../src/schemas/pull-zone.js';

const keys = Object.keys(PullZone.properties);
const copy = fastCopier<Record<string, unknown>>(keys);
const parsedZone = () => JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, i % 2 ? `v${i}` : { Nested: [i] }])))) as Record<string, unknown>;

describe('fastCopier', () => {
  it('rebuilds a parsed document as an equal plain object of its own', () => {
    const source = parsedZone();
    const out = copy(source);
    expect(out).toEqual(source);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out).not.toBe(source);
    out[keys[0]!] = 'changed';
    expect(source[keys[0]!]).not.toBe('changed');
  });

  it('leaves a missing field missing, not present as undefined', () => {
    const source = parsedZone();
    delete source[keys[5]!];
    const out = copy(source);
    expect(Object.hasOwn(out, keys[5]!)).toBe(false);
    expect(Object.keys(out)).toHaveLength(keys.length - 1);
    expect(JSON.stringify(out).length).toBe(JSON.stringify(source).length);
  });

  it('keeps fields the schema does not name, even ones named like built-in properties', () => {
    const source = JSON.parse('{"Name":"zone","Extra":{"a":1},"__proto__":{"polluted":true},"toString":"kept"}') as Record<string, unknown>;
    const out = copy(source);
    expect(out['Name']).toBe('zone');
    expect(out['Extra']).toEqual({ a: 1 });
    expect(out['toString']).toBe('kept');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(out).sort()).toEqual(Object.keys(source).sort());
  });

  it('copies documents of different fields one after another without mixing them', () => {
    const a = copy(JSON.parse('{"Name":"a","Extra":1}') as Record<string, unknown>);
    const b = copy(JSON.parse('{"Name":"b"}') as Record<string, unknown>);
    expect(a).toEqual({ Name: 'a', Extra: 1 });
    expect(b).toEqual({ Name: 'b' });
  });
});
