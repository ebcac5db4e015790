/** The DNS plane's UDP socket: batched where the addon is built (and not turned off), node:dgram otherwise. */
import { isIP } from 'node:net';
import { udpBatching } from '../../../native/udp-batch.js';
import { BatchedDatagrams } from './batched.js';
import type { Datagrams } from './datagrams.js';
import { bindNodeDatagrams } from './node-dgram.js';

export type { Datagrams } from './datagrams.js';

/** `address`: an IP literal. Rejects as a socket's bind does (`code`: EADDRINUSE, …). */
export async function bindDatagrams(address: string, port: number, batching: boolean, logError: (error: unknown) => void): Promise<Datagrams> {
  const family = isIP(address) === 6 ? 6 : 4;
  // A scoped IPv6 address (`fe80::1%eth0`) is left to node:dgram, which resolves the interface.
  const addon = batching && !address.includes('%') ? udpBatching() : undefined;
  if (addon !== undefined && !(addon instanceof Error)) return new BatchedDatagrams(addon, address, family, port) as Datagrams;
  return (await bindNodeDatagrams(address, family, port, logError)) as Datagrams;
}
