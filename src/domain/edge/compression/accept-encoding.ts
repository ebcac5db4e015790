/**
 * Which content coding a client gets, from its `Accept-Encoding` (RFC 9110 §12.5.3): the offered
 * coding with the highest q-value above 0, ties going to the one listed first in OFFERED (Brotli,
 * then gzip: the smaller output first). `*` stands for every coding the header does not name,
 * `x-gzip` is gzip (§8.4.1.3), a malformed q-value makes its entry unacceptable. Identity wins over
 * a coding only when the client names it with a higher q-value (`gzip;q=0.5, identity`).
 *
 * No header, or nothing acceptable: identity. That holds for `identity;q=0` too (or `*;q=0` with no
 * coding the edge offers), where RFC 9110 allows a 415: a client that refuses every coding the
 * edge has still gets the bytes, as from most servers, rather than an error.
 */

/** The content codings the edge compresses with, most preferred first. */
export const OFFERED = ['br', 'gzip'] as const;
export type Coding = (typeof OFFERED)[number];

/** The coding to answer with, or undefined for identity. */
export function negotiateCoding(acceptEncoding: string | undefined): Coding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...params] = part.split(';');
    let name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim().toLowerCase());
      if (key === 'q') q = qValue(value);
    }
    // A coding named twice keeps its best weight.
    weights.set(name, Math.max(q, weights.get(name) ?? 0));
  }
  const star = weights.get('*');
  let best: Coding | undefined;
  let bestQ = 0;
  for (const coding of OFFERED) {
    const q = weights.get(coding) ?? star ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  const identity = weights.get('identity');
  if (best !== undefined && identity !== undefined && identity > bestQ) return undefined;
  return best;
}

/** `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`; anything else is 0. */
function qValue(text: string | undefined): number {
  if (text === undefined || !/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(text)) return 0;
  return Number(text);
}
