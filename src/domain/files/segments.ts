/**
 * Reading a file's bytes: a file is one blob, or several in order (an S3 multipart upload keeps
 * its parts as they were uploaded instead of copying them into one). A byte range maps onto the
 * segments it touches; the segments are streamed one after the other, each opened when the
 * previous one ends, so memory stays flat whatever the size.
 */
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
  const out = new PassThrough();
  void (async () => {
    try {
      for (const piece of pieces) await pipeline(await blobs.read(piece.key, piece.range), out, { end: false });
      out.end();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return Promise.resolve(out);
}
