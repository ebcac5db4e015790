/**
 * What DNS says about a name, asked the way a certificate authority asks: the DNS plane's own
 * authority for names inside the store's zones (a real query, answered from what it serves, so a
 * disabled record, a CNAME in the way or a delegation count), and the configured upstream resolver
 * (`EDGEPLANE_DNS_UPSTREAM`) for every other name.
 */
import { Resolver } from 'node:dns/promises';
import type { Answer, Packet } from 'dns-packet';
import type { Authority } from '../dns/serving/types.js';

/** The authority holds no zone for the name. */
const REFUSED = 5;

export type Looked<T> = { served: 'store'; values: T[] } | { served: 'upstream'; values: T[] } | { served: 'nowhere'; reason: string };

export interface DnsViewOptions {
  authority: Authority;
  /** Loads the store's zones into the authority (once; the DNS plane may have done it already). */
  ensureZonesLoaded: () => Promise<void>;
  /** `EDGEPLANE_DNS_UPSTREAM`; without it, names outside the store cannot be looked up. */
  upstream?: string | undefined;
}

const CONTEXT = { address: '127.0.0.1', transport: 'tcp', maxSize: 65535, dnssecOk: false } as const;

function textOf(data: unknown): string {
  if (Array.isArray(data)) return Buffer.concat(data.map((part) => (Buffer.isBuffer(part) ? part : Buffer.from(String(part))))).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
}

export class DnsView {
  private readonly resolver: Resolver | undefined;

  constructor(private readonly options: DnsViewOptions) {
    if (options.upstream) {
      this.resolver = new Resolver({ timeout: 2000, tries: 2 });
      this.resolver.setServers([options.upstream]);
    }
  }

  /** The TXT strings at `name` (each record's character-strings joined, as RFC 8555 §8.4 reads them). */
  async txt(name: string): Promise<Looked<string>> {
    const inStore = await this.ask(name, 'TXT');
    if (inStore) return { served: 'store', values: inStore.answers.filter((a) => a.type === 'TXT').map((a) => textOf(a.data)) };
    if (!this.resolver)
      return { served: 'nowhere', reason: `${name} is in no DNS zone of edgeplane, and no upstream resolver is configured (EDGEPLANE_DNS_UPSTREAM).` };
    try {
      return { served: 'upstream', values: (await this.resolver.resolveTxt(name)).map((parts) => parts.join('')) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return { served: 'upstream', values: [] };
      return { served: 'nowhere', reason: `The upstream resolver could not be asked about ${name} (${code ?? 'error'}).` };
    }
  }

  /** The IPv4 and IPv6 addresses the store's zones give `name`, and the zone that gives them; undefined when no zone holds it. */
  async storeAddresses(name: string): Promise<{ zoneId: number; addresses: string[] } | undefined> {
    const v4 = await this.ask(name, 'A');
    if (!v4) return undefined;
    const v6 = await this.ask(name, 'AAAA');
    const addresses = [...v4.answers, ...(v6?.answers ?? [])].flatMap((a) => (a.type === 'A' || a.type === 'AAAA' ? [String(a.data)] : []));
    return { zoneId: v4.zoneId, addresses };
  }

  /** The answer section of the authority's reply and the zone that gave it, or undefined when it holds no zone for the name. */
  private async ask(name: string, type: 'TXT' | 'A' | 'AAAA'): Promise<{ zoneId: number; answers: Answer[] } | undefined> {
    await this.options.ensureZonesLoaded();
    const query: Packet = { type: 'query', id: 0, flags: 0, questions: [{ type, name, class: 'IN' }] };
    const { response, zone } = await this.options.authority.answer(query, CONTEXT);
    if (((response.flags ?? 0) & 0xf) === REFUSED || !zone) return undefined;
    return { zoneId: zone.id, answers: response.answers ?? [] };
  }
}
