/**
 * Domain names as the authority handles them: text without the final dot (`www.example.com`, the
 * root is `.`), compared in ASCII lower case (RFC 4343), turned into wire form for DNSSEC.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: "anything outside ASCII", control characters included.
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Lower case as DNS defines it: only A-Z change (RFC 4343). `toLowerCase` does just that on ASCII
 * text and is fast; other text (a label of raw octets) is folded letter by letter so that the
 * name signed is the name a validator folds.
 */
export function lowerName(name: string): string {
  if (!NON_ASCII.test(name)) return name.toLowerCase();
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** A name from the query or a record, without its final dot; the root is `.`. */
export function bareName(name: string): string {
  if (name === '' || name === '.') return '.';
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** A host name stored in a record (`Target.Example.com.`), as served: lower case, no final dot. */
export const hostName = (value: string): string => lowerName(bareName(value.trim()));

export function labelCount(name: string): number {
  if (name === '.') return 0;
  let count = 1;
  for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) count++;
  return count;
}

/** The name one label up; undefined for the root. */
export function parentName(name: string): string | undefined {
  if (name === '.') return undefined;
  const dot = name.indexOf('.');
  return dot === -1 ? '.' : name.slice(dot + 1);
}

/** Whether `name` is `apex` or below it (both in lower case). */
export const isWithin = (name: string, apex: string): boolean =>
  name === apex || (name.length > apex.length && name.endsWith(apex) && name.charCodeAt(name.length - apex.length - 1) === 46);

/** The absolute name of a record's relative `Name` in the zone `apex`: `''`, `@` and null are the apex. */
export function ownerName(relative: string | null, apex: string): string {
  const name = relative == null ? '' : relative.trim();
  if (name === '' || name === '@') return apex;
  return `${lowerName(bareName(name))}.${apex}`;
}

/**
 * The SOA RNAME of a mailbox, in the form dns-packet encodes (a `\.` keeps a dot inside the first
 * label): `hostmaster@example.com` → `hostmaster.example.com`, `john.doe@x.org` → `john\.doe.x.org`.
 * The zone export writes the same mailbox.
 */
export function mailboxName(email: string | null | undefined, apex: string): string {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at <= 0) return `hostmaster.${apex}`;
  const local = email.slice(0, at).replace(/([.\\])/g, '\\$1');
  return lowerName(`${local}.${bareName(email.slice(at + 1))}`);
}

/**
 * A name in canonical wire form (RFC 4034 §6.2): labels in lower case, uncompressed. `\.` inside
 * a label is a dot of the label (the SOA mailbox); no other escapes occur in served names.
 */
export function nameWire(name: string): Buffer {
  if (name === '.') return Buffer.alloc(1);
  const labels = lowerName(name)
    .split(/(?<!\\)\./)
    .map((label) => Buffer.from(label.replace(/\\\./g, '.'), 'utf8'));
  const out = Buffer.alloc(labels.reduce((n, l) => n + l.length + 1, 1));
  let at = 0;
  for (const label of labels) {
    out[at++] = label.length;
    label.copy(out, at);
    at += label.length;
  }
  return out;
}
