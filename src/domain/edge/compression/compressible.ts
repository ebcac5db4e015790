/**
 * Which answers the edge compresses: an answer of a type that compresses well (one table, below),
 * whole (200), at least MIN_COMPRESSED_BYTES long, that the origin neither encoded already (its
 * `Content-Encoding` is passed on as is, never compressed twice) nor marked `no-transform`
 * (RFC 9110 §7.7: a proxy does not change such content). An edge rule's ForceCompression lifts
 * the type condition, not the others.
 *
 * The table: text (but not `text/event-stream`, whose events must leave as they come), scripts,
 * JSON and XML (with every `+json` and `+xml` type: SVG, RSS, Atom, web app manifests, DASH
 * manifests…), HLS playlists, WebAssembly, and the font and image formats stored uncompressed
 * (TrueType, OpenType, EOT, icons, bitmaps). Formats that are compressed already (JPEG, PNG, WebP, WOFF/WOFF2, video, archives)
 * would only cost CPU.
 */

/** Smaller answers are sent as they are: a coding's framing and a Vary-split cache cost more than the bytes saved. */
export const MIN_COMPRESSED_BYTES = 1024;

const COMPRESSIBLE_TYPES = new Set([
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/json',
  'application/x-ndjson',
  'application/xml',
  'application/wasm',
  'application/x-sh',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/sql',
  'application/graphql',
  'application/x-httpd-php',
  'application/vnd.apple.mpegurl',
  'application/x-mpegurl',
  'application/vnd.ms-fontobject',
  'application/x-font-ttf',
  'application/x-font-otf',
  'application/x-font-opentype',
  'application/x-font-truetype',
  'application/font-sfnt',
  'application/x-web-app-manifest+json',
  'font/ttf',
  'font/otf',
  'font/collection',
  'font/sfnt',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/** How an answer stands: compressed for clients that accept it, only under an edge rule's ForceCompression, or never. */
export type Compressibility = 'by-type' | 'if-forced' | 'never';

export function compressibilityOf(status: number, headers: Record<string, string | string[] | undefined>, length: number | undefined): Compressibility {
  if (status !== 200 || (length !== undefined && length < MIN_COMPRESSED_BYTES)) return 'never';
  const coding = text(headers['content-encoding']);
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') return 'never';
  if (headers['content-range'] !== undefined || /(^|,)\s*no-transform\s*(,|$)/i.test(text(headers['cache-control']) ?? '')) return 'never';
  return compressibleType(text(headers['content-type'])) ? 'by-type' : 'if-forced';
}

/** Whether a compressibility lets this request's answer be compressed (`forced`: an edge rule's ForceCompression). */
export const compresses = (compressibility: Compressibility, forced: boolean | undefined) =>
  compressibility === 'by-type' || (compressibility === 'if-forced' && forced === true);

/** Whether a `Content-Type` (parameters and case ignored) is one the table holds. */
export function compressibleType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semi = contentType.indexOf(';');
  const type = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (type.startsWith('text/')) return type !== 'text/event-stream';
  return COMPRESSIBLE_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml');
}

const text = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
