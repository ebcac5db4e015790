/** LineBytes: log lines kept as UTF-8 bytes while they wait for the store, read back as written, the oldest dropped first. */
import { describe, expect, it } from 'vitest';
import { LineBytes, SpareBuffers } from '../../src/domain/edge/logs/line-bytes.js';

const text = (lines: LineBytes) => lines.bytes().toString();

describe('LineBytes', () => {
  it('keeps lines of any size and script, newline between them, growing as needed', () => {
    const lines = new LineBytes();
    const long = 'x'.repeat(10_000);
    lines.push('HIT|200|a');
    lines.push(long);
    lines.push('MISS|ünïcödé|✓');
    expect(lines.count).toBe(3);
    expect(text(lines)).toBe(`HIT|200|a\n${long}\nMISS|ünïcödé|✓`);
    expect(lines.byteLength).toBe(Buffer.byteLength(text(lines)));
    const sized = new LineBytes(lines.byteLength);
    for (const line of text(lines).split('\n')) sized.push(line);
    expect(text(sized)).toBe(text(lines));
  });

  it('puts older lines before its own, and drops the oldest first', () => {
    const older = new LineBytes();
    for (const line of ['a1', 'a2']) older.push(line);
    const newer = new LineBytes();
    for (const line of ['b1', 'b2', 'b3']) newer.push(line);
    newer.prepend(older);
    expect([newer.count, text(newer)]).toEqual([5, 'a1\na2\nb1\nb2\nb3']);
    newer.dropOldest(3);
    expect([newer.count, text(newer)]).toEqual([2, 'b2\nb3']);
    newer.push('b4');
    expect(text(newer)).toBe('b2\nb3\nb4');
    newer.dropOldest(5);
    expect([newer.count, text(newer)]).toEqual([0, '']);
    const empty = new LineBytes();
    empty.prepend(older);
    expect(text(empty)).toBe('a1\na2');
  });

  it('hands its buffer back once its lines are written out, and the next lines reuse it without seeing the old ones', () => {
    const spares = new SpareBuffers();
    const first = new LineBytes(10_000, spares);
    for (let i = 0; i < 100; i++) first.push(`first ${i}`);
    const buffer = first.bytes().buffer;
    first.release();
    expect([first.count, first.byteLength]).toEqual([0, 0]);
    const second = new LineBytes(10_000, spares);
    expect(second.bytes().buffer).toBe(buffer);
    second.push('second');
    expect([second.count, text(second)]).toEqual([1, 'second']);
    // A spare too small for what is expected is not taken; a grown buffer's old one goes back.
    const third = new LineBytes(1 << 20, spares);
    expect(third.bytes().buffer).not.toBe(buffer);
    for (let i = 0; i < 100_000; i++) third.push('a line long enough to grow the buffer beyond its first size');
    expect(third.count).toBe(100_000);
    expect(
      text(third)
        .split('\n')
        .every((line) => line === 'a line long enough to grow the buffer beyond its first size'),
    ).toBe(true);
  });
});
