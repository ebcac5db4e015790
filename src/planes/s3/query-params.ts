/** The query parameters several operations read alike: a part number, a count with a ceiling, the listings' encoding type. */
import { MAX_PART_NUMBER } from '../../domain/s3/multipart.js';
import { s3Errors } from './errors.js';
import { uriEncode } from './sigv4.js';

/** `?partNumber`, of an upload's part or of an object read by parts: 1 to 10,000. */
export function partNumberOf(query: Map<string, string>): number {
  const raw = query.get('partNumber') ?? '';
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= MAX_PART_NUMBER))
    throw s3Errors.invalidArgument(`Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`, 'partNumber', raw);
  return n;
}

/** A count (`max-keys`, `max-parts` …): at most `max`, which is also what an absent one means. */
export function countOf(query: Map<string, string>, name: string, max: number): number {
  return Math.min(max, numberOf(query, name, max));
}

/** A whole number (`part-number-marker` …), `fallback` when absent. */
export function numberOf(query: Map<string, string>, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw s3Errors.invalidArgument(`Provided ${name} not an integer or within integer range`, name, raw);
  return Number(raw);
}

/** `encoding-type=url`: how a listing writes keys and prefixes (as they are, or URL-encoded). */
export function encoder(query: Map<string, string>): (s: string) => string {
  const type = query.get('encoding-type');
  if (type === undefined) return (s) => s;
  if (type !== 'url') throw s3Errors.invalidArgument('Invalid Encoding Method specified in Request', 'encoding-type', type);
  return (s) => uriEncode(s, true);
}
