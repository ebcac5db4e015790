/**
 * A field's label when its schema declares no `title`: its name in words, written as people write
 * them. Plain TypeScript (no browser API), so the server's tests check it too.
 */

/** Words written in capitals wherever they appear in a field's name (`OriginUrl`, `EnableTLS1`, `imageRegistryId`), and their plurals (`BlockedIps`). */
const ACRONYMS = new Set([
  'ai',
  'api',
  'cdn',
  'cms',
  'cname',
  'cors',
  'css',
  'dns',
  'ds',
  'gb',
  'html',
  'http',
  'https',
  'id',
  'ip',
  'sni',
  'ssl',
  'tls',
  'ttl',
  'url',
  'waf',
]);
/** Words written in one piece with capitals inside, kept so (`EnableWebPVary`: "Enable WebP vary"). */
const WHOLE_WORDS = ['WebSockets', 'WebSocket', 'JavaScript', 'WebP', 'DDoS', 'DDos', 'IPv4', 'IPv6'];
const WORD = new RegExp(`${WHOLE_WORDS.join('|')}|\\d+X{2}|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\\d+(?:\\.\\d+)*`, 'g');

function wordOf(word: string, first: boolean): string {
  if (WHOLE_WORDS.includes(word)) return word === 'DDos' ? 'DDoS' : word;
  const lower = word.toLowerCase();
  if (ACRONYMS.has(lower)) return lower.toUpperCase();
  if (lower.endsWith('s') && ACRONYMS.has(lower.slice(0, -1))) return `${lower.slice(0, -1).toUpperCase()}s`;
  if (word.length > 1 && word === word.toUpperCase() && /[A-Z]/.test(word)) return word;
  return first ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
}

/** A field's name as words: `CacheControlMaxAgeOverride` is "Cache control max age override", `imageRegistryId` "Image registry ID", `EnableTLS1_1` "Enable TLS 1.1". */
export function labelOf(name: string): string {
  const last = name.split('.').pop() ?? name;
  const words = last
    .replace(/(\d)_(\d)/g, '$1.$2')
    .replace(/[_-]+/g, ' ')
    .match(WORD) ?? [last];
  return words.map((word, at) => wordOf(word, at === 0)).join(' ');
}
