/**
 * Addresses and the address lists they are checked against, for every plane: the edge's BlockedIps
 * and RemoteIP triggers, the origin addresses it refuses, S3's aws:SourceIp conditions. An address
 * is parsed once into numbers, and a list is compiled once into prefix matchers, so that a check is
 * a few integer comparisons. IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`, what a dual-stack
 * socket reports for an IPv4 client) count as IPv4, in a list as in an address checked against it.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** An IPv4 address as one unsigned 32-bit number, or an IPv6 address as four. */
export type ParsedIp = { v4: number } | { v6: [number, number, number, number] };

function ipv4Number(text: string): number {
  const [a, b, c, d] = text.split('.').map(Number) as [number, number, number, number];
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** The 8 groups of an IPv6 address, `::` expanded and a trailing dotted IPv4 part folded in. */
function ipv6Groups(text: string): number[] {
  let hex = text;
  const lastColon = hex.lastIndexOf(':');
  if (hex.includes('.', lastColon)) {
    const v4 = ipv4Number(hex.slice(lastColon + 1));
    hex = `${hex.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const parse = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const gap = hex.indexOf('::');
  if (gap < 0) return parse(hex);
  const left = parse(hex.slice(0, gap));
  const right = parse(hex.slice(gap + 2));
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The address, or undefined when the text is not one. A zone suffix (`%eth0`) is ignored. */
export function parseIp(text: string): ParsedIp | undefined {
  const address = text.includes('%') ? text.slice(0, text.indexOf('%')) : text;
  if (isIPv4(address)) return { v4: ipv4Number(address) };
  if (!isIPv6(address)) return undefined;
  const g = ipv6Groups(address.toLowerCase());
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff) {
    return { v4: (((g[6]! << 16) | g[7]!) >>> 0) as number };
  }
  const word = (i: number) => ((g[i]! << 16) | g[i + 1]!) >>> 0;
  return { v6: [word(0), word(2), word(4), word(6)] };
}

/** The address as text, IPv4-mapped addresses written as plain IPv4 (what token signers hash). */
export function canonicalIpText(text: string): string {
  const ip = parseIp(text);
  if (!ip || !('v4' in ip)) return text;
  return [ip.v4 >>> 24, (ip.v4 >>> 16) & 0xff, (ip.v4 >>> 8) & 0xff, ip.v4 & 0xff].join('.');
}

/** The address in network byte order: 4 bytes, or 16 for IPv6. */
export function ipBytes(ip: ParsedIp): Buffer {
  if ('v4' in ip) {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(ip.v4);
    return bytes;
  }
  const bytes = Buffer.alloc(16);
  for (const [i, word] of ip.v6.entries()) bytes.writeUInt32BE(word, i * 4);
  return bytes;
}

const mask32 = (bits: number) => (bits <= 0 ? 0 : bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0);

export interface Prefix {
  ip: ParsedIp;
  bits: number;
}

function prefixContains(prefix: Prefix, ip: ParsedIp): boolean {
  if ('v4' in prefix.ip) {
    if (!('v4' in ip)) return false;
    const m = mask32(prefix.bits);
    return (prefix.ip.v4 & m) >>> 0 === (ip.v4 & m) >>> 0;
  }
  if (!('v6' in ip)) return false;
  for (let i = 0; i < 4; i++) {
    const m = mask32(prefix.bits - i * 32);
    if (m === 0) return true;
    if ((prefix.ip.v6[i]! & m) >>> 0 !== (ip.v6[i]! & m) >>> 0) return false;
  }
  return true;
}

/** `192.0.2.1`, `192.0.2.0/24`, `2001:db8::/32`; undefined when the text is neither an address nor a CIDR block. */
export function parsePrefix(text: string): Prefix | undefined {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const ip = parseIp(slash < 0 ? trimmed : trimmed.slice(0, slash));
  if (!ip) return undefined;
  const max = 'v4' in ip ? 32 : 128;
  if (slash < 0) return { ip, bits: max };
  const bitsText = trimmed.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return undefined;
  let bits = Number(bitsText);
  // `::ffff:192.0.2.0/120` names the same block as `192.0.2.0/24`.
  if ('v4' in ip && isIPv6(trimmed.slice(0, slash))) bits -= 96;
  if (bits < 0 || bits > max) return undefined;
  return { ip, bits };
}

/** A compiled list of addresses and CIDR blocks; entries that are neither are left out. */
export class IpList {
  private readonly prefixes: Prefix[];

  constructor(entries: readonly string[]) {
    this.prefixes = entries.map(parsePrefix).filter((p): p is Prefix => p !== undefined);
  }

  get size(): number {
    return this.prefixes.length;
  }

  contains(ip: ParsedIp | undefined): boolean {
    if (!ip) return false;
    for (const prefix of this.prefixes) if (prefixContains(prefix, ip)) return true;
    return false;
  }
}
