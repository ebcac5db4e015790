/**
 * Which addresses the edge may fetch from: a pull zone's `OriginUrl` (and an edge rule's origin, and
 * a redirect it follows) is a request edgeplane makes on an account's behalf, from inside the
 * operator's network.
 *
 * - Never: link-local addresses (169.254.0.0/16, fe80::/10), which hold the cloud metadata
 *   services (169.254.169.254 and its IPv6 and vendor forms), the unspecified addresses (0.0.0.0/8,
 *   `::`, which reach this host), multicast and reserved ranges; nor edgeplane's own listeners
 *   (the API, storage, S3 and edge ports on loopback or the listening address), which would let an
 *   origin request carry a client's headers to the management API, or loop through the edge.
 * - Loopback and private addresses (127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, 100.64/10,
 *   fc00::/7): allowed, since local development pulls from them; refused with
 *   `EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES=deny`.
 * An IPv4 address written as IPv6 (`::ffff:169.254.169.254`, IPv4-compatible `::a9fe:a9fe`,
 * NAT64 `64:ff9b::a9fe:a9fe`) is judged as the IPv4 address.
 *
 * Judged twice: when an OriginUrl naming an address (or `localhost`) is written through the API,
 * and when the edge connects, on every address a host name resolves to (a name may point anywhere,
 * and change: DNS rebinding). A storage zone origin is read without a network request: not judged.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { IpList, type ParsedIp, parseIp } from '../../../security/ip-list.js';

export type PrivateAddressPolicy = 'allow' | 'deny';

export interface OriginAddressOptions {
  /** EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES. */
  privateAddresses: PrivateAddressPolicy;
  /** The address edgeplane's listeners bind to (HOST). */
  listenHost: string;
  /** The ports they listen on, as configured (0 and `off` are left out: `listening` adds the bound ones). */
  ownPorts: readonly number[];
  /** Resolves a host name at connection time (default `dns.lookup`; tests give their own). */
  lookup?: LookupFunction | undefined;
}

/** The error a refused origin address fails the connection with. */
export const ORIGIN_REFUSED = 'EDGEPLANE_ORIGIN_REFUSED';

const NEVER: readonly [IpList, string][] = [
  [new IpList(['169.254.0.0/16', 'fe80::/10']), 'a link-local address (where cloud metadata services answer)'],
  [new IpList(['fd00:ec2::254', '100.100.100.200']), 'a cloud metadata address'],
  [new IpList(['0.0.0.0/8', '::']), 'an unspecified address (this host)'],
  [new IpList(['224.0.0.0/4', '240.0.0.0/4', 'ff00::/8']), 'a multicast or reserved address'],
];
const LOOPBACK = new IpList(['127.0.0.0/8', '::1']);
const PRIVATE = new IpList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7', 'fec0::/10']);
const UNSPECIFIED = new IpList(['0.0.0.0', '::']);
const LOCALHOST = /^(?:localhost|.+\.localhost)\.?$/i;

export class OriginAddresses {
  private readonly ownPorts: Set<number>;
  private readonly listenIp: ParsedIp | undefined;
  private readonly resolve: LookupFunction;

  constructor(private readonly options: OriginAddressOptions) {
    this.ownPorts = new Set(options.ownPorts.filter((port) => port > 0));
    this.listenIp = LOCALHOST.test(options.listenHost) ? parseIp('127.0.0.1') : parseIp(options.listenHost);
    this.resolve = options.lookup ?? (dnsLookup as LookupFunction);
  }

  /** A listener bound to a port the system picked (configured as 0). */
  listening(port: number): void {
    if (port > 0) this.ownPorts.add(port);
  }

  /** The ports of edgeplane's own listeners (configured and bound), for what judges addresses elsewhere (edge scripts). */
  get listenerPorts(): number[] {
    return [...this.ownPorts];
  }

  /** The address edgeplane listens on, and whether loopback and private addresses may be reached. */
  get policy(): { listenHost: string; privateAddresses: PrivateAddressPolicy } {
    return { listenHost: this.options.listenHost, privateAddresses: this.options.privateAddresses };
  }

  /** Why the edge may not fetch from this address and port, or undefined when it may. */
  refusal(address: string, port: number): string | undefined {
    const ip = asIpv4(parseIp(address));
    if (ip === undefined) return undefined;
    for (const [list, why] of NEVER) if (list.contains(ip)) return why;
    if (this.ownPorts.has(port) && this.isOwnIp(ip)) return `edgeplane's own listener (port ${port})`;
    if (this.options.privateAddresses === 'deny' && (LOOPBACK.contains(ip) || PRIVATE.contains(ip))) {
      return 'a loopback or private address (EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES is deny)';
    }
    return undefined;
  }

  /**
   * Why an origin URL may not be written, judged from what it says without resolving it: an address,
   * or a `localhost` name (loopback). Other names are judged when the edge connects.
   */
  urlRefusal(url: URL): string | undefined {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const addresses = LOCALHOST.test(host) ? ['127.0.0.1', '::1'] : parseIp(host) ? [host] : [];
    for (const address of addresses) {
      const why = this.refusal(address, port);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** A `lookup` for the connection to an origin on `port`: every address the name resolves to is judged first. */
  lookupFor(port: number): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname, options, (error, address, family) => {
        if (error) return callback(error, address, family);
        const found: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
        for (const candidate of found) {
          const why = this.refusal(candidate.address, port);
          if (why !== undefined) return callback(refused(`${hostname} resolves to ${candidate.address}, ${why}`), address, family);
        }
        callback(null, address, family);
      });
    };
  }

  /** Whether an address reaches this host's listeners (the listening address, loopback, or an interface's when listening on every address). */
  isOwnAddress(address: string): boolean {
    const ip = asIpv4(parseIp(address));
    return ip !== undefined && this.isOwnIp(ip);
  }

  private isOwnIp(ip: ParsedIp): boolean {
    const bound = this.listenIp;
    if (bound === undefined) return false;
    if (sameIp(bound, ip)) return true;
    // A listener on a loopback address, or on every address, is reached through any loopback address.
    if (LOOPBACK.contains(ip) && (LOOPBACK.contains(bound) || UNSPECIFIED.contains(bound))) return true;
    if (!UNSPECIFIED.contains(bound)) return false;
    for (const entries of Object.values(networkInterfaces())) {
      for (const entry of entries ?? []) {
        const local = asIpv4(parseIp(entry.address));
        if (local && sameIp(local, ip)) return true;
      }
    }
    return false;
  }
}

/** The error a connection to a refused address fails with (code ORIGIN_REFUSED: not retried). */
export function refused(message: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${message}: edgeplane does not fetch origins there`);
  error.code = ORIGIN_REFUSED;
  return error;
}

/** IPv4 addresses written as IPv6 (IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) as IPv4; `::ffff:` ones parseIp already turns. */
function asIpv4(ip: ParsedIp | undefined): ParsedIp | undefined {
  if (ip === undefined || 'v4' in ip) return ip;
  const [a, b, c, d] = ip.v6;
  const compatible = a === 0 && b === 0 && c === 0 && d > 1;
  const nat64 = a === 0x0064ff9b && b === 0 && c === 0;
  return compatible || nat64 ? { v4: d } : ip;
}

function sameIp(x: ParsedIp, y: ParsedIp): boolean {
  if ('v4' in x) return 'v4' in y && x.v4 === y.v4;
  return 'v6' in y && x.v6.every((word, i) => word === y.v6[i]);
}
