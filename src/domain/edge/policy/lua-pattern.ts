/**
 * The platform's `pattern:` trigger values are Lua patterns (string.find semantics: unanchored
 * unless the pattern starts with `^` / ends with `$`). This turns one into an equivalent
 * JavaScript regular expression. `%b` (balanced match) has no regular-expression equivalent:
 * a pattern that uses it, or that is malformed, is refused (undefined) and its trigger never
 * matches, rather than matching something else than its author meant.
 */

const CLASSES: Record<string, string> = {
  a: 'A-Za-z',
  c: '\\x00-\\x1f\\x7f',
  d: '0-9',
  g: '\\x21-\\x7e',
  l: 'a-z',
  p: '!-/:-@\\[-`{-~',
  s: '\\t-\\r ',
  u: 'A-Z',
  w: 'A-Za-z0-9',
  x: '0-9A-Fa-f',
};

const escapeChar = (c: string) => (/[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c);

/** `%a` as a regex atom (`[A-Za-z]`), `%A` as its complement, `%.` as an escaped literal. */
function classAtom(letter: string): string {
  const set = CLASSES[letter.toLowerCase()];
  if (set === undefined) return escapeChar(letter);
  return letter === letter.toLowerCase() ? `[${set}]` : `[^${set}]`;
}

/** The body of a `[...]` set starting after `[`; returns the regex text and the index after `]`. */
function translateSet(pattern: string, start: number): { text: string; end: number } | undefined {
  let i = start;
  let out = '';
  if (pattern[i] === '^') {
    out += '^';
    i++;
  }
  let first = true;
  while (i < pattern.length && (pattern[i] !== ']' || first)) {
    const c = pattern[i]!;
    first = false;
    if (c === '%') {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      const set = CLASSES[next.toLowerCase()];
      if (set !== undefined && next === next.toLowerCase()) out += set;
      // A complemented class inside a set has no plain character-range form.
      else if (set !== undefined) return undefined;
      else out += escapeChar(next);
      i += 2;
    } else if (pattern[i + 1] === '-' && pattern[i + 2] !== undefined && pattern[i + 2] !== ']') {
      out += `${escapeChar(c)}-${escapeChar(pattern[i + 2]!)}`;
      i += 3;
    } else {
      out += escapeChar(c);
      i++;
    }
  }
  if (pattern[i] !== ']') return undefined;
  return { text: `[${out}]`, end: i + 1 };
}

export function luaPatternToRegExp(pattern: string): RegExp | undefined {
  let i = 0;
  let out = '';
  if (pattern.startsWith('^')) {
    out += '^';
    i = 1;
  }
  let groups = 0;
  let open = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '$' && i === pattern.length - 1) {
      out += '$';
      i++;
      continue;
    }
    let atom: string;
    if (c === '(') {
      out += '(';
      groups++;
      open++;
      i++;
      continue;
    }
    if (c === ')') {
      if (open === 0) return undefined;
      out += ')';
      open--;
      i++;
      continue;
    }
    if (c === '%') {
      const next = pattern[i + 1];
      if (next === undefined || next === 'b') return undefined;
      if (next === 'f') {
        if (pattern[i + 2] !== '[') return undefined;
        const set = translateSet(pattern, i + 3);
        if (!set) return undefined;
        // Frontier: the previous character is outside the set and the next one inside it.
        out += `(?<!${set.text})(?=${set.text})`;
        i = set.end;
        continue;
      }
      if (/[1-9]/.test(next)) {
        if (Number(next) > groups) return undefined;
        atom = `\\${next}`;
      } else atom = classAtom(next);
      i += 2;
    } else if (c === '[') {
      const set = translateSet(pattern, i + 1);
      if (!set) return undefined;
      atom = set.text;
      i = set.end;
    } else if (c === '.') {
      atom = '[\\s\\S]';
      i++;
    } else {
      atom = escapeChar(c);
      i++;
    }
    const q = pattern[i];
    if (q === '*' || q === '+' || q === '?') {
      out += atom + q;
      i++;
    } else if (q === '-') {
      out += `${atom}*?`;
      i++;
    } else out += atom;
  }
  if (open !== 0) return undefined;
  try {
    return new RegExp(out);
  } catch {
    return undefined;
  }
}
