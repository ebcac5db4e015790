/**
 * Asking a real resolver (`EDGEPLANE_DNS_UPSTREAM`) about names outside the store: the addresses
 * of a `Flatten` target elsewhere. Node's own resolver (c-ares) does the asking; the answers keep
 * their TTLs so the authority can cache them no longer than they live.
 */
import { Resolver } from 'node:dns/promises';
import type { Answer } from 'dns-packet';
import type { UpstreamResolver } from './serving/types.js';

/** `192.0.2.53`, `192.0.2.53:5353`, `[2001:db8::53]:53`. */
export function upstreamResolver(server: string, timeoutMs = 2000): UpstreamResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  resolver.setServers([server]);
  return async (name, type) => {
    try {
      const found = type === 'A' ? await resolver.resolve4(name, { ttl: true }) : await resolver.resolve6(name, { ttl: true });
      return found.map((r): Answer => ({ name, type, ttl: r.ttl, class: 'IN', data: r.address }));
    } catch (error) {
      // No such name, or no address of that family: nothing to answer, which is not a failure.
      const code = (error as { code?: string }).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      return undefined;
    }
  };
}
