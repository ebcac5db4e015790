/**
 * The addresses a script may not reach, as Deno's `--deny-net` entries, from the same policy as
 * pull zone origins (origin/addresses.ts): never link-local and metadata addresses, the
 * unspecified address or edgeplane's own listeners; loopback and private addresses only when the
 * operator allows them (EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES). Deno judges the name and the
 * addresses it resolves to (Deno 2.9: fetch, WebSocket, Deno.connect, an IPv4 address written as
 * IPv6 judged as the IPv4 one), and takes IPv4 ranges but only single IPv6 addresses. So:
 * - edgeplane's own listeners are denied on every address that reaches them: loopback, the
 *   listening address, and every address of this host's interfaces when listening on all of them;
 * - with private addresses denied, this host's own private IPv6 addresses (fc00::/7, fe80::/10)
 *   are denied whole; other hosts' in those ranges are not caught (README, edge scripts).
 * Computed when a script's process starts: interfaces come and go (a container network's bridge).
 */
import { isIPv6 } from 'node:net';
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import type { OriginAddresses } from '../../origin/addresses.js';

const NEVER = ['169.254.0.0/16', '100.100.100.200', '[fd00:ec2::254]', '0.0.0.0/8', '[::]', '224.0.0.0/4', '240.0.0.0/4', 'metadata.google.internal'];
const LOOPBACK_AND_PRIVATE = ['127.0.0.0/8', '[::1]', 'localhost', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'];
const WILDCARD = new Set(['', '0.0.0.0', '::', '[::]']);

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** `host` as a deny entry names it: an IPv6 address in brackets. */
const entry = (host: string) => (isIPv6(host) ? `[${host}]` : host);

/** Unique local (fc00::/7) and link-local (fe80::/10) IPv6 addresses. */
const privateIpv6 = (address: string) => isIPv6(address) && /^(f[cd]|fe[89ab])/i.test(address);

export function deniedNet(addresses: OriginAddresses, interfaces: Interfaces = networkInterfaces()): string[] {
  const { listenHost, privateAddresses } = addresses.policy;
  const hostAddresses = Object.values(interfaces).flatMap((list) => (list ?? []).map((i) => i.address.replace(/%.*$/, '')));
  const ownHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
  if (WILDCARD.has(listenHost)) for (const address of hostAddresses) ownHosts.add(entry(address));
  else ownHosts.add(entry(listenHost.replace(/^\[|\]$/g, '')));
  const own = addresses.listenerPorts.flatMap((port) => [...ownHosts].map((host) => `${host}:${port}`));
  if (privateAddresses !== 'deny') return [...NEVER, ...own];
  const ownPrivateIpv6 = hostAddresses.filter(privateIpv6).map(entry);
  return [...new Set([...NEVER, ...LOOPBACK_AND_PRIVATE, ...ownPrivateIpv6, ...own])];
}
