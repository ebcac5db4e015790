/** A DNS plane on a free loopback port over the fake authority, closed after each test. */
import { afterEach } from 'vitest';
import { type DnsPlaneOptions, listenDns, type RunningDnsPlane } from '../../../src/planes/dns/listen.js';
import { FakeAuthority } from './fake-authority.js';

const started: RunningDnsPlane[] = [];

afterEach(async () => {
  for (const plane of started.splice(0)) {
    plane.forceClose();
    await plane.close();
  }
});

export async function startPlane(
  options: DnsPlaneOptions = {},
  host = '127.0.0.1',
  authority = new FakeAuthority(),
): Promise<{ plane: RunningDnsPlane; authority: FakeAuthority }> {
  // The rate limit is the subject of its own tests; elsewhere it would only make tests depend on speed.
  const plane = await listenDns(authority, host, 0, { rateLimitPerSecond: 0, ...options });
  started.push(plane);
  return { plane, authority };
}

/**
 * The plane's two UDP sockets (src/planes/dns/datagrams/), for the tests every one must pass: the
 * batched one where the addon is built (Linux; CI fails in datagrams.test.ts if it is not), and
 * node:dgram, which answers elsewhere.
 */
export const UDP_SOCKETS = [
  ['batched', { udpBatching: true }],
  ['node:dgram', { udpBatching: false }],
] as const;
