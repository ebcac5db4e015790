/** LineBytes: log lines kept as UTF-8 bytes while they wait for the store, read back as written, the oldest dropped first. */
import { describe, expect, it } from 'vitest';
import { LineBytes } from '../../src/domain/edge/logs/line-bytes.js';

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
});
