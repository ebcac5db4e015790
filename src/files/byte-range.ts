import type { ByteRange } from './types.js';

/** Refuses a malformed range up front: it is a bug in the caller, and each backend would fail it differently. */
export function checkRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`invalid byte range ${start}-${end}`);
  }
}
