/**
 * Reading a file's bytes: a file is one blob, or several in order (an S3 multipart upload keeps
 * its parts as they were uploaded instead of copying them into one). A byte range maps onto the
 * segments it touches; the segments are streamed one after the other, each opened when the
 * previous one ends, so memory stays flat whatever the size.
 */
import { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from '../../files/types.js';
import type { BlobSegment } from '../../store/types.js';

export function readSegments(blobs: BlobStore, segments: readonly BlobSegment[], range?: ByteRange): Promise<Readable> {
  const first = segments[0];
  if (segments.length === 1 && first) return blobs.read(first.key, range);
  const pieces: { key: string; range: ByteRange }[] = [];
  let offset = 0;
  const start = range?.start ?? 0;
  const end = range?.end ?? Number.POSITIVE_INFINITY;
  for (const segment of segments) {
    const segmentEnd = offset + segment.size - 1;
    if (segment.size > 0 && segmentEnd >= start && offset <= end) {
      pieces.push({ key: segment.key, range: { start: Math.max(start, offset) - offset, end: Math.min(end, segmentEnd) - offset } });
    }
    offset += segment.size;
  }
  // One stream pulling from each segment in turn: piping every segment into a shared PassThrough
  // left a listener on it per segment (a MaxListenersExceededWarning past ten parts).
  async function* bytes() {
    for (const piece of pieces) yield* await blobs.read(piece.key, piece.range);
  }
  return Promise.resolve(Readable.from(bytes(), { objectMode: false }));
}
