/**
 * Recognises the images a video library takes (watermarks, live thumbnails) from their bytes: the
 * format from its signature, the size from its header (PNG IHDR, JPEG start-of-frame, GIF logical
 * screen, WebP VP8/VP8L/VP8X). The header is all that is read; a file that merely starts like an
 * image but has no readable size is refused.
 */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageInfo {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
}

const CONTENT_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function png(b: Buffer): [number, number] | undefined {
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE) || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

/** Start-of-frame markers carry the size; the others are skipped by their length. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Buffer): [number, number] | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return undefined;
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    // Markers without a length: TEM, RST0-7, SOI. EOI or SOS before a frame header: no size.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return undefined;
    if (SOF.has(marker)) return i + 8 < b.length ? [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)] : undefined;
    i += 2 + length;
  }
  return undefined;
}

function gif(b: Buffer): [number, number] | undefined {
  const signature = b.toString('latin1', 0, 6);
  if (b.length < 10 || (signature !== 'GIF87a' && signature !== 'GIF89a')) return undefined;
  return [b.readUInt16LE(6), b.readUInt16LE(8)];
}

function webp(b: Buffer): [number, number] | undefined {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  switch (b.toString('latin1', 12, 16)) {
    case 'VP8 ':
      // A key frame: start code 9d 01 2a, then 14-bit width and height.
      if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
      return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
    case 'VP8L': {
      if (b[20] !== 0x2f) return undefined;
      const bits = b.readUInt32LE(21);
      return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
    }
    case 'VP8X':
      return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
    default:
      return undefined;
  }
}

const READERS: [ImageFormat, (b: Buffer) => [number, number] | undefined][] = [
  ['png', png],
  ['jpeg', jpeg],
  ['gif', gif],
  ['webp', webp],
];

/** The image's format and size, or undefined when the bytes are not a PNG, JPEG, GIF or WebP image. */
export function readImage(bytes: Buffer): ImageInfo | undefined {
  for (const [format, read] of READERS) {
    const size = read(bytes);
    if (size) return { format, contentType: CONTENT_TYPES[format], width: size[0], height: size[1] };
  }
  return undefined;
}
