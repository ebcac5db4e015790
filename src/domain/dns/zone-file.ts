/**
 * The text zone-file format of RFC 1035 §5.1 (the "master file" BIND and most DNS software read
 * and write): syntax only, no knowledge of the platform. `ZoneFileReader` reads a file as it
 * arrives and turns it into its entries, in file order: resource records with absolute owner
 * names, and the comment lines (kept because the platform's own data travels in comments, see
 * zone-export.ts).
 *
 * Handled: `$ORIGIN` and `$TTL`; relative and absolute names and `@`; an omitted owner (the line
 * starts with a blank), TTL or class, in either order; `( … )` spanning lines; `;` comments;
 * quoted strings; `\X` and `\DDD` escapes; BIND's TTL units (`1h30m`). `$INCLUDE` is refused: an
 * uploaded file cannot reach other files.
 */

/** A word or a quoted string, with its escapes still in it (zone-text.ts resolves them). */
export interface ZoneFileToken {
  /** The word as written; for a quoted string, what is between the quotes. */
  text: string;
  quoted: boolean;
}

export interface ZoneFileRecord {
  kind: 'record';
  line: number;
  /** Absolute, with its final dot, in the case it was written. */
  owner: string;
  /** Seconds; undefined when neither the record, `$TTL` nor an earlier record gave one. */
  ttl: number | undefined;
  /** Upper case: `IN` unless the record says otherwise. */
  class: string;
  /** Upper case, as written (`A`, `MX`, `TYPE65`). */
  type: string;
  rdata: ZoneFileToken[];
  /** The `$ORIGIN` in effect, absolute, that relative names in the data complete with. */
  origin: string;
  /** The text of the comments on the record's lines, without the `;`. */
  comments: string[];
}

export interface ZoneFileComment {
  kind: 'comment';
  line: number;
  origin: string;
  text: string;
}

export type ZoneFileEntry = ZoneFileRecord | ZoneFileComment;

/** The file cannot be read past this point; nothing of it should be used. */
export class ZoneFileSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Line ${line}: ${message}`);
  }
}

/** Largest TTL DNS allows (RFC 2181 §8). */
export const MAX_TTL = 2147483647;

interface LogicalLine {
  line: number;
  /** The line starts with a blank: the record has the previous record's owner. */
  blankStart: boolean;
  tokens: ZoneFileToken[];
  comments: string[];
  /** Parentheses were used. */
  grouped: boolean;
}

const ENDS_WORD = new Set([' ', '\t', '\r', '\n', ';', '(', ')']);

/**
 * Turns physical lines, given one at a time, into logical lines: `( … )` joins several into one.
 * Everything but the parentheses ends with its line (a comment, a quoted string, an escape), so a
 * file can be read as it arrives, a line at a time, without holding its text.
 */
class LogicalLines {
  readonly lines: LogicalLine[] = [];
  private line = 0;
  private depth = 0;
  private openedAt = 0;
  private current: LogicalLine | undefined;

  /** The next physical line, without its line break. */
  add(text: string): void {
    const line = ++this.line;
    const blankStart = text[0] === ' ' || text[0] === '\t';
    const open = () => (this.current ??= { line, blankStart, tokens: [], comments: [], grouped: false });
    let i = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (c === ' ' || c === '\t' || c === '\r') {
        i++;
      } else if (c === ';') {
        open().comments.push(text.slice(i + 1).replace(/\r$/, ''));
        i = text.length;
      } else if (c === '(') {
        if (this.depth > 0) throw new ZoneFileSyntaxError(line, 'parentheses cannot be nested.');
        open().grouped = true;
        this.depth = 1;
        this.openedAt = line;
        i++;
      } else if (c === ')') {
        if (this.depth === 0) throw new ZoneFileSyntaxError(line, '")" without a matching "(".');
        this.depth = 0;
        i++;
      } else if (c === '"') {
        const end = skipQuoted(text, i, line);
        open().tokens.push({ text: text.slice(i + 1, end - 1), quoted: true });
        i = end;
      } else {
        let j = i;
        while (j < text.length && !ENDS_WORD.has(text[j]!)) {
          if (text[j] === '\\' && j + 1 < text.length) j += 2;
          else if (text[j] === '"')
            j = skipQuoted(text, j, line); // `key="a b"` stays one word (SVCB)
          else j++;
        }
        open().tokens.push({ text: text.slice(i, Math.min(j, text.length)), quoted: false });
        i = j;
      }
    }
    if (this.depth === 0 && this.current) {
      this.lines.push(this.current);
      this.current = undefined;
    }
  }

  end(): LogicalLine[] {
    if (this.depth > 0) throw new ZoneFileSyntaxError(this.openedAt, '"(" is never closed.');
    if (this.current) this.lines.push(this.current);
    this.current = undefined;
    return this.lines;
  }
}

function logicalLines(text: string): LogicalLine[] {
  const lines = new LogicalLines();
  for (const line of text.split('\n')) lines.add(line);
  return lines.end();
}

/** A zone file as read, its names not yet completed: what `entries` makes of it depends on the zone. */
export interface ZoneFileReading {
  /** Its entries with `origin` as the starting `$ORIGIN`; the first problem if the file cannot be read. */
  entries(origin: string): { entries: ZoneFileEntry[] } | { problem: ZoneFileSyntaxError };
}

/**
 * Reads a zone file as it arrives: `write` takes its text in pieces of any size, `end` answers
 * what was read. A syntax error stops the reading (what follows is not kept) and is what the
 * reading answers.
 */
export class ZoneFileReader {
  private readonly lines = new LogicalLines();
  /** The start of a line whose end has not arrived yet. */
  private partial = '';
  private problem: ZoneFileSyntaxError | undefined;

  write(text: string): void {
    if (this.problem) return;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const line = this.partial + text.slice(start, end);
      this.partial = '';
      start = end + 1;
      if (!this.attempt(() => this.lines.add(line))) return;
    }
    this.partial += text.slice(start);
  }

  end(): ZoneFileReading {
    let lines: LogicalLine[] = [];
    if (!this.problem) {
      const last = this.partial;
      this.partial = '';
      this.attempt(() => {
        this.lines.add(last);
        lines = this.lines.end();
      });
    }
    const problem = this.problem;
    return {
      entries: (origin) => {
        if (problem) return { problem };
        try {
          return { entries: resolveEntries(lines, origin) };
        } catch (error) {
          if (error instanceof ZoneFileSyntaxError) return { problem: error };
          throw error;
        }
      },
    };
  }

  private attempt(read: () => void): boolean {
    try {
      read();
      return true;
    } catch (error) {
      if (!(error instanceof ZoneFileSyntaxError)) throw error;
      this.problem = error;
      return false;
    }
  }
}

/** A whole zone file already in memory, read as ZoneFileReader reads one arriving. */
export function readZoneFile(text: string): ZoneFileReading {
  const reader = new ZoneFileReader();
  reader.write(text);
  return reader.end();
}

/** The index just past the closing quote of the string opening at `start`. */
function skipQuoted(text: string, start: number, line: number): number {
  let j = start + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  if (text[j] !== '"') throw new ZoneFileSyntaxError(line, 'a quoted string is not closed on its line.');
  return j + 1;
}

/** `300`, or BIND's `1w2d3h4m5s`; undefined when the word is not a TTL. */
export function parseTtl(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  if (!/^(?:\d+[wdhms])+$/i.test(word)) return undefined;
  const unit: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };
  return [...word.matchAll(/(\d+)([wdhms])/gi)].reduce((sum, m) => sum + Number(m[1]) * unit[m[2]!.toLowerCase()]!, 0);
}

const isClass = (word: string) => /^(?:IN|CH|CS|HS|CLASS\d+)$/i.test(word);
/** A name ending in a dot that is not itself escaped (`a\.` is relative). */
const isAbsolute = (name: string) => /(?:^|[^\\])(?:\\\\)*\.$/.test(name);

/** A name as written, completed with the origin unless absolute. */
export function absoluteName(name: string, origin: string): string {
  if (name === '@') return origin;
  if (isAbsolute(name)) return name;
  return origin === '.' ? `${name}.` : `${name}.${origin}`;
}

function checkedTtl(word: string | undefined, line: number): number {
  const ttl = word === undefined ? undefined : parseTtl(word);
  if (ttl === undefined) throw new ZoneFileSyntaxError(line, `"${word ?? ''}" is not a TTL.`);
  if (ttl > MAX_TTL) throw new ZoneFileSyntaxError(line, `the TTL ${ttl} is larger than ${MAX_TTL}.`);
  return ttl;
}

/** The entries of the logical lines; `origin` (absolute or not) is where `@` and relative names start. */
function resolveEntries(lines: LogicalLine[], origin: string): ZoneFileEntry[] {
  let currentOrigin = absoluteName(origin, '.');
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let lastOwner: string | undefined;
  const entries: ZoneFileEntry[] = [];

  for (const l of lines) {
    if (l.tokens.length === 0) {
      for (const comment of l.comments) entries.push({ kind: 'comment', line: l.line, origin: currentOrigin, text: comment });
      continue;
    }
    const tokens = l.tokens;
    const first = tokens[0]!;
    if (!l.blankStart && !first.quoted && first.text.startsWith('$')) {
      const directive = first.text.toUpperCase();
      const argument = tokens[1] && !tokens[1].quoted ? tokens[1].text : undefined;
      if (directive === '$ORIGIN') {
        if (argument === undefined) throw new ZoneFileSyntaxError(l.line, '$ORIGIN needs a domain name.');
        currentOrigin = absoluteName(argument, currentOrigin);
      } else if (directive === '$TTL') {
        defaultTtl = checkedTtl(argument, l.line);
      } else {
        throw new ZoneFileSyntaxError(l.line, `the directive ${first.text} is not supported (only $ORIGIN and $TTL).`);
      }
      continue;
    }

    let k = 0;
    let owner: string;
    if (l.blankStart) {
      if (lastOwner === undefined) throw new ZoneFileSyntaxError(l.line, 'the first record must name its owner.');
      owner = lastOwner;
    } else {
      if (first.quoted) throw new ZoneFileSyntaxError(l.line, 'an owner name cannot be a quoted string.');
      owner = absoluteName(first.text, currentOrigin);
      lastOwner = owner;
      k = 1;
    }
    let ttl: number | undefined;
    let recordClass: string | undefined;
    for (let seen = 0; seen < 2 && k < tokens.length && !tokens[k]!.quoted; seen++) {
      const word = tokens[k]!.text;
      if (ttl === undefined && parseTtl(word) !== undefined) ttl = checkedTtl(word, l.line);
      else if (recordClass === undefined && isClass(word)) recordClass = word.toUpperCase();
      else break;
      k++;
    }
    const type = tokens[k];
    if (!type || type.quoted || !/^[a-z][a-z0-9-]*$/i.test(type.text)) {
      throw new ZoneFileSyntaxError(l.line, 'a record needs a type (A, MX, TXT, …) after its owner, TTL and class.');
    }
    // Without a TTL of its own, a record takes $TTL, else the last one stated (RFC 2308 §4).
    if (ttl !== undefined) lastTtl = ttl;
    entries.push({
      kind: 'record',
      line: l.line,
      owner,
      ttl: ttl ?? defaultTtl ?? lastTtl,
      class: recordClass ?? 'IN',
      type: type.text.toUpperCase(),
      rdata: tokens.slice(k + 1),
      origin: currentOrigin,
      comments: l.comments,
    });
  }
  return entries;
}

/**
 * The words of one line of text written in zone-file syntax (record data, a comment's content);
 * undefined when the text is not a single line of words and quoted strings.
 */
export function tokenizeLine(text: string): ZoneFileToken[] | undefined {
  if (text.includes('\n')) return undefined;
  try {
    const lines = logicalLines(text);
    if (lines.length > 1 || lines.some((l) => l.comments.length > 0 || l.grouped)) return undefined;
    return lines[0]?.tokens ?? [];
  } catch (error) {
    if (error instanceof ZoneFileSyntaxError) return undefined;
    throw error;
  }
}
