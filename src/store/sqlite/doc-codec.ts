/**
 * How documents are stored in SQLite's `doc` column: compressed, when that is smaller. A pull zone
 * is ~4.8 KB of JSON, mostly field names and defaults, so plain text made a store of a million
 * zones 5.4 GB — more than stays in the page cache, and two pages per row. Deflate with a preset
 * dictionary stores it in ~200 bytes, and inflating (~7 µs) costs less than the page reads it saves.
 *
 * Only pull zones are compressed: the dictionary is one, they are the resource stored by the
 * million, and they change rarely. A DNS zone holds all its records and is rewritten on every
 * record write; compressing it cost more per write than the sync does.
 *
 * Stored values: text is JSON (other kinds, and rows of earlier versions); a blob
 * is one encoding byte then the payload. The encoding byte keeps old rows readable if the format
 * ever changes. PostgreSQL is not concerned: it compresses large values itself (TOAST).
 */
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';
import type { DocCodec } from '../tables/dumped-table.js';
import type { ResourceKind } from '../types.js';
import { DOC_DICTIONARY_1 } from './doc-dictionary.js';

const DEFLATE_WITH_DICTIONARY_1 = 1;
const dictionary1 = Buffer.from(DOC_DICTIONARY_1, 'utf8');
/** Below this, compression cannot pay for its byte of header and the call. */
const MIN_COMPRESSED_LENGTH = 64;

export function encodeDoc(kind: ResourceKind, json: string): string | Buffer {
  if (kind !== 'pullZone' || json.length < MIN_COMPRESSED_LENGTH) return json;
  const packed = deflateRawSync(json, { dictionary: dictionary1, level: constants.Z_BEST_SPEED });
  if (packed.length + 1 >= Buffer.byteLength(json)) return json;
  return Buffer.concat([Buffer.of(DEFLATE_WITH_DICTIONARY_1), packed]);
}

export function decodeDoc(stored: string | Buffer): string {
  if (typeof stored === 'string') return stored;
  if (stored[0] !== DEFLATE_WITH_DICTIONARY_1) throw new Error(`stored document has unknown encoding ${stored[0]}`);
  return inflateRawSync(stored.subarray(1), { dictionary: dictionary1 }).toString('utf8');
}

/** What a dump reads and writes documents with (see DocCodec). */
export const sqliteDocs: DocCodec = { encode: encodeDoc, decode: decodeDoc };
