/**
 * The addresses a script may not reach, as Deno's `--deny-net` entries, from the same policy as
 * pull zone origins (origin/addresses.ts): never link-local and metadata addresses, the
 * unspecified address or edgeplane's own listeners; loopback and private addresses only when the
 * operator allows them (EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES). Deno judges the name and the
 * addresses it resolves to (Deno 2.9: fetch, WebSocket, Deno.connect), and takes IPv4 ranges but
 * only single IPv6 addresses: IPv6 ranges are not caught here (README, edge scripts).
 */
import type { OriginAddresses } from '../../origin/addresses.js';

const NEVER = ['169.254.0.0/16', '100.100.100.200', '[fd00:ec2::254]', '0.0.0.0/8', '[::]', '224.0.0.0/4', '240.0.0.0/4', 'metadata.google.internal'];
const LOOPBACK_AND_PRIVATE = ['127.0.0.0/8', '[::1]', 'localhost', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'];

export function deniedNet(addresses: OriginAddresses): string[] {
  const { listenHost, privateAddresses } = addresses.policy;
  if (privateAddresses === 'deny') return [...NEVER, ...LOOPBACK_AND_PRIVATE];
  const ownHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
  if (listenHost && listenHost !== '0.0.0.0' && listenHost !== '::') ownHosts.add(listenHost.includes(':') ? `[${listenHost}]` : listenHost);
  const own = addresses.listenerPorts.flatMap((port) => [...ownHosts].map((host) => `${host}:${port}`));
  return [...NEVER, ...own];
}
