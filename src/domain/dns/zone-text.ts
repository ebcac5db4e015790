/**
 * Text inside zone files (RFC 1035 §5.1): `\X` and `\DDD` escapes, quoted strings, and the
 * character-strings of at most 255 octets that TXT data is made of.
 */

/**
 * The octets a character-string stands for (RFC 1035 §5.1): `\X` is X, `\DDD` the octet DDD, other
 * text its UTF-8 bytes. Undefined for a malformed escape.
 */
export function charStringOctets(raw: string): Buffer | undefined {
  const out: number[] = [];
  for (let i = 0; i < raw.length; ) {
    const c = raw.charCodeAt(i);
    if (c !== 0x5c) {
      const ch = String.fromCodePoint(raw.codePointAt(i)!);
      out.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
      continue;
    }
    const digits = /^\d{3}/.exec(raw.slice(i + 1, i + 4));
    if (digits) {
      const octet = Number(digits[0]);
      if (octet > 255) return undefined;
      out.push(octet);
      i += 4;
    } else if (i + 1 < raw.length) {
      const ch = String.fromCodePoint(raw.codePointAt(i + 1)!);
      out.push(...Buffer.from(ch, 'utf8'));
      i += 1 + ch.length;
    } else {
      return undefined;
    }
  }
  return Buffer.from(out);
}

/** The text a word or quoted string (without its quotes) stands for: its octets read as UTF-8. */
export function decodeText(raw: string): string | undefined {
  return charStringOctets(raw)?.toString('utf8');
}

/** Bytes written as themselves: printable ASCII but the quote and the backslash. */
function escapeBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b <= 0x7e) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return out;
}

/** One quoted string holding `value`; anything outside printable ASCII is written `\DDD`. */
export function quoted(value: string): string {
  return `"${escapeBytes(Buffer.from(value, 'utf8'))}"`;
}

/**
 * `value` as quoted character-strings of at most 255 octets each (RFC 1035 §3.3), the form a TXT
 * record's text takes; readers join them back together.
 */
export function characterStrings(value: string, max = 255): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const parts: string[] = [];
  for (let at = 0; at < bytes.length || parts.length === 0; at += max) {
    parts.push(`"${escapeBytes(bytes.subarray(at, at + max))}"`);
  }
  return parts;
}
