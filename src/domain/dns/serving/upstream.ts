/**
 * Addresses of Flatten targets outside the store, asked of the upstream resolver and kept for their
 * TTL (at most five minutes), so a flattened apex under load asks upstream once per TTL rather than
 * once per query. Concurrent questions for one name share one upstream query.
 */
import { ExpiringMap } from '../../bounded-map.js';
import type { Clock } from '../../principal.js';
import type { Maybe } from './maybe.js';
import type { UpstreamResolver } from './types.js';

export interface Addresses {
  data: string[];
  ttl: number;
}
export type Resolved = Addresses | 'servfail';

const MAX_KEEP_SECONDS = 300;
/** An empty answer (the target has no such address) is kept this long: upstream gave no SOA to say more. */
const EMPTY_KEEP_SECONDS = 60;
const LIMIT = 10000;

interface Kept {
  value: Addresses;
  until: number;
}

export class UpstreamAddresses {
  private readonly kept = new ExpiringMap<string, Kept>(LIMIT);
  private readonly pending = new Map<string, Promise<Resolved>>();

  constructor(
    private readonly resolver: UpstreamResolver | undefined,
    private readonly clock: Clock,
  ) {}

  lookup(name: string, type: 'A' | 'AAAA'): Maybe<Resolved> {
    if (!this.resolver) return 'servfail';
    const key = `${type} ${name}`;
    const now = this.clock().getTime();
    const kept = this.kept.getFresh(key, now);
    if (kept) return { data: kept.value.data, ttl: Math.max(0, Math.floor((kept.until - now) / 1000)) };
    const pending = this.pending.get(key);
    if (pending) return pending;

    const asked = this.ask(name, type).then((value) => {
      this.pending.delete(key);
      if (value !== 'servfail') this.keep(key, value, now);
      return value;
    });
    this.pending.set(key, asked);
    return asked;
  }

  private async ask(name: string, type: 'A' | 'AAAA'): Promise<Resolved> {
    try {
      const answers = await this.resolver!(name, type);
      if (!answers) return 'servfail';
      const matching = answers.filter((a): a is typeof a & { data: string; ttl?: number } => a.type === type && typeof a.data === 'string');
      const ttl = matching.reduce((min, a) => Math.min(min, a.ttl ?? 0), MAX_KEEP_SECONDS);
      return { data: [...new Set(matching.map((a) => a.data))], ttl: matching.length > 0 ? ttl : EMPTY_KEEP_SECONDS };
    } catch {
      return 'servfail';
    }
  }

  private keep(key: string, value: Addresses, now: number): void {
    this.kept.set(key, { value, until: now + Math.min(value.ttl, MAX_KEEP_SECONDS) * 1000 });
  }
}
