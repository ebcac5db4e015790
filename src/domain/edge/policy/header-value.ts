/**
 * Header names and values that edge rules make. A value filled from request data (a rule's
 * `%{Query.x}`, `{{path}}` …) may hold anything the client sent, decoded: CR and LF (which would
 * split the header and add one of the client's choosing), NUL, or text outside Latin-1 (which
 * node:http refuses to send, throwing). Such a value is made valid before it is set, as a browser
 * makes a URL valid: visible ASCII and spaces stay as they are, every other character is
 * percent-encoded as UTF-8 (`€` → `%E2%82%AC`, CR LF → `%0D%0A`). A `%` stays: text that is
 * already escaped (a path) keeps its meaning, and a Location header stays a valid URL.
 */

/** Any character that is not visible ASCII or a space (one code point at a time). */
const UNSAFE = /[^\x20-\x7e]/u;
const UNSAFE_ALL = /[^\x20-\x7e]/gu;

/** The value with every character other than visible ASCII and spaces percent-encoded as UTF-8. */
export function headerSafe(value: string): string {
  if (!UNSAFE.test(value)) return value;
  // Buffer.from writes a lone surrogate as U+FFFD's bytes, where encodeURIComponent would throw.
  return value.replace(UNSAFE_ALL, (char) => {
    let out = '';
    for (const byte of Buffer.from(char, 'utf8')) out += `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
    return out;
  });
}

/** An HTTP field name (RFC 9110 §5.1: a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const isHeaderName = (name: string): boolean => TOKEN.test(name);
