import { describe, expect, it } from 'vitest';
import { checkInputLimits, INPUT_LIMITS } from '../../src/planes/api/plugins/input-limits.js';

/** `levels` nested arrays: [[[…]]]. */
const nestedArrays = (levels: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
};

describe('checkInputLimits', () => {
  it('accepts values at every limit', () => {
    expect(checkInputLimits(nestedArrays(INPUT_LIMITS.maxDepth))).toBeUndefined();
    expect(checkInputLimits({ a: new Array(INPUT_LIMITS.maxArrayItems).fill(1) })).toBeUndefined();
    expect(checkInputLimits({ a: 'x'.repeat(INPUT_LIMITS.maxStringLength) })).toBeUndefined();
    expect(checkInputLimits(null)).toBeUndefined();
    expect(checkInputLimits('plain')).toBeUndefined();
  });

  it('names the field that breaks a limit, as the client sent it', () => {
    const deep = checkInputLimits({ a: { b: [nestedArrays(INPUT_LIMITS.maxDepth - 2)] } });
    expect(deep?.fields[0]?.field).toMatch(/^a\.b\[0\](\[0\])+$/);
    expect(deep?.code).toBe('validation');
    expect(checkInputLimits({ list: [{ tags: new Array(INPUT_LIMITS.maxArrayItems + 1).fill('t') }] })?.fields[0]?.field).toBe('list[0].tags');
    expect(checkInputLimits({ x: [1, 'y'.repeat(INPUT_LIMITS.maxStringLength + 1)] })?.fields[0]?.field).toBe('x[1]');
    expect(checkInputLimits({ ['k'.repeat(INPUT_LIMITS.maxStringLength + 1)]: 1 })?.fields[0]?.field).toBe('body');
  });

  it('walks 200,000 levels without exhausting the stack', () => {
    const depth = 200_000;
    const hostile = JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
    expect(checkInputLimits(hostile)?.message).toMatch(/nest/);
  });
});
