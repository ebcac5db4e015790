/**
 * Pieces of the zone-file presentation format that record values written as rdata text use (SVCB,
 * HTTPS, TLSA): value-lists, names in wire form, RFC 3597's generic `\# len hex` (character-strings
 * as octets: zone-text.ts).
 */
import { tokenizeLine } from '../zone-file.js';

/**
 * The words of a value, each with its quotes removed but its escapes kept (`key="a b"` → `key=a b`).
 * Undefined when the value is not one line of words.
 */
export function words(value: string): string[] | undefined {
  const tokens = tokenizeLine(value);
  if (!tokens || tokens.length === 0) return undefined;
  return tokens.map((t) => (t.quoted ? t.text : t.text.replace(/^([^"=]*=)"(.*)"$/s, '$1$2')));
}

/**
 * A comma-separated value-list (RFC 9460 App. A.1) from its octets after character-string
 * decoding: `\,` is a comma inside an item, `\\` a backslash. Undefined for an empty item.
 */
export function valueList(octets: Buffer): Buffer[] | undefined {
  const items: Buffer[] = [];
  let item: number[] = [];
  for (let i = 0; i < octets.length; i++) {
    const o = octets[i]!;
    if (o === 0x5c && i + 1 < octets.length) item.push(octets[++i]!);
    else if (o === 0x2c) {
      if (item.length === 0) return undefined;
      items.push(Buffer.from(item));
      item = [];
    } else item.push(o);
  }
  if (item.length === 0) return undefined;
  items.push(Buffer.from(item));
  return items;
}

const LABEL = /^[a-z0-9_*-]{1,63}$/i;

/**
 * A domain name in uncompressed wire form, lower case (what the platform's other host names are).
 * Relative names are taken as absolute: record values name hosts in full. Undefined when not a name.
 */
export function domainWire(name: string): Buffer | undefined {
  if (name === '.') return Buffer.alloc(1);
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  const labels = bare.toLowerCase().split('.');
  if (bare.length === 0 || bare.length > 253 || !labels.every((l) => LABEL.test(l))) return undefined;
  return Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')])), Buffer.alloc(1)]);
}

/** RFC 3597 generic rdata, `\# 3 000100`; undefined when the words are not that form or do not agree. */
export function genericRdata(parts: readonly string[]): Buffer | undefined {
  if (parts[0] !== '\\#' || parts.length < 2) return undefined;
  const length = Number(parts[1]);
  const hex = parts.slice(2).join('');
  if (!/^\d+$/.test(parts[1]!) || !/^(?:[0-9a-f]{2})*$/i.test(hex) || hex.length !== length * 2) return undefined;
  return Buffer.from(hex, 'hex');
}

export const isU8 = (word: string | undefined): boolean => word !== undefined && /^\d{1,3}$/.test(word) && Number(word) <= 255;
export const isU16 = (word: string | undefined): boolean => word !== undefined && /^\d{1,5}$/.test(word) && Number(word) <= 65535;
