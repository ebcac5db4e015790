/**
 * Where a name lands in a zone (RFC 1034 §4.3.2 with RFC 4592's wildcards): under a delegation, at
 * a name that exists, at the wildcard of its closest encloser, or nowhere.
 *
 * A wildcard `*.x` stands for names below `x` that do not exist: a name that exists, empty
 * non-terminals included, is never answered from a wildcard, and a wildcard deeper than the
 * closest encloser (`*.b.x` for `a.c.x`) does not apply.
 */
import { parentName } from './names.js';
import type { NameNode, ZoneIndex } from './zone-index.js';

export type Found = { kind: 'node'; node: NameNode; wildcard: boolean } | { kind: 'referral'; cut: NameNode } | { kind: 'nxdomain' };

/** `name` is lower case and inside the zone. */
export function lookup(index: ZoneIndex, name: string, qtype: string): Found {
  if (index.hasCuts && name !== index.apex) {
    const cut = highestCut(index, name);
    // DS sits on the parent side of a cut (RFC 4035 §3.1.4.1): this zone answers it.
    if (cut && !(qtype === 'DS' && cut.name === name)) return { kind: 'referral', cut };
  }
  const node = index.nodes.get(name);
  if (node) return { kind: 'node', node, wildcard: false };

  let encloser = parentName(name)!;
  while (!index.nodes.has(encloser)) encloser = parentName(encloser)!;
  const source = index.nodes.get(`*.${encloser}`);
  return source ? { kind: 'node', node: source, wildcard: true } : { kind: 'nxdomain' };
}

/** The delegation closest to the apex on the way down to `name`: it hides everything under it. */
function highestCut(index: ZoneIndex, name: string): NameNode | undefined {
  let found: NameNode | undefined;
  for (let n: string | undefined = name; n !== undefined && n !== index.apex; n = parentName(n)) {
    const node = index.nodes.get(n);
    if (node?.cut) found = node;
  }
  return found;
}
