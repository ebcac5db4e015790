/**
 * HTTP byte ranges (RFC 9110 §14), as the planes that serve files use them (storage, S3, the edge).
 * One range is served; a request for several is answered whole, which the RFC allows and every
 * client copes with. A malformed Range header is ignored, as the RFC asks.
 */
import type { ByteRange } from '../../files/types.js';

export type RangeChoice = { kind: 'whole' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/i;

export function chooseRange(header: string | undefined, size: number): RangeChoice {
  if (header === undefined) return { kind: 'whole' };
  const match = SINGLE.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end } };
}

export const contentRange = (range: ByteRange, size: number) => `bytes ${range.start}-${range.end}/${size}`;
export const unsatisfiedRange = (size: number) => `bytes */${size}`;
