/**
 * A zone's DDoS protection, asked once per request of a zone that has it on (before its other
 * limits): counts the client's requests in the current 10-second window (thresholds.ts), and above
 * its mode's threshold
 *
 * - DetectOnly: serves, counts the request as `logged` and logs the client once per window;
 * - the active modes: serves a client with a valid pass (`verified`), challenges one without
 *   (`challenged`, proof-of-work.ts), and refuses one far above, pass or not (`blocked`).
 *
 * The windows live in a bounded map (least recently seen client forgotten first: at worst it
 * starts a window again); nothing else is kept.
 */
import { canonicalIpText, parseIp } from '../../../security/ip-list.js';
import { BoundedMap } from '../../bounded-map.js';
import { cookieOf } from '../policy/url-parts.js';
import type { EdgeRequest, EdgeZone } from '../types.js';
import { type Challenge, PASS_COOKIE, ProofOfWork } from './proof-of-work.js';
import { DDOS_WINDOW_MS, type DdosSettings, modeLimits } from './thresholds.js';

export type DdosOutcome = 'logged' | 'verified' | 'challenged' | 'blocked';

export type DdosVerdict = { kind: 'challenge'; challenge: Challenge; passSeconds: number } | { kind: 'refuse' };

export interface DdosEvents {
  /** A request above its zone's threshold, and what was done with it (the zone's statistics). */
  counted(zoneId: number, outcome: DdosOutcome): void;
  /** Once per client and window, when it goes above the threshold (the server's log). */
  detected(details: { zoneId: number; client: string; mode: number; threshold: number; windowSeconds: number }): void;
}

interface Window {
  index: number;
  count: number;
  reported: boolean;
}

const REFUSE: DdosVerdict = Object.freeze({ kind: 'refuse' });

export class DdosGuard {
  private readonly windows: BoundedMap<string, Window>;
  private readonly work: ProofOfWork;

  constructor(
    private readonly settings: DdosSettings,
    key: Buffer,
    private readonly events: DdosEvents,
    /** The clock windows and passes are measured on (ms; tests move it). */
    private readonly now: () => number = Date.now,
    maxClients = 100_000,
  ) {
    this.windows = new BoundedMap(maxClients);
    this.work = new ProofOfWork(key);
  }

  /** What to do with the request: undefined to serve it. */
  check(zone: EdgeZone, request: EdgeRequest): DdosVerdict | undefined {
    if (!zone.ShieldDDosProtectionEnabled) return undefined;
    const now = this.now();
    const limits = modeLimits(this.settings, zone.ShieldDDosProtectionType);
    const client = clientOf(request.clientIp);
    const key = `${zone.Id} ${client}`;
    const index = Math.floor(now / DDOS_WINDOW_MS);
    let window = this.windows.get(key);
    if (window === undefined || window.index !== index) window = { index, count: 0, reported: false };
    // Set again on every request: the map forgets the clients it heard from least recently.
    this.windows.set(key, window);
    window.count++;
    if (window.count <= limits.threshold) return undefined;
    if (!window.reported) {
      window.reported = true;
      this.events.detected({ zoneId: zone.Id, client, mode: zone.ShieldDDosProtectionType, threshold: limits.threshold, windowSeconds: DDOS_WINDOW_MS / 1000 });
    }
    if (!limits.active) return this.outcome(zone.Id, 'logged', undefined);
    if (window.count > limits.refuseAbove) return this.outcome(zone.Id, 'blocked', REFUSE);
    const { passSeconds } = this.settings;
    if (this.work.passes(zone.Id, client, cookieOf(request, PASS_COOKIE), limits.workBits, passSeconds, now))
      return this.outcome(zone.Id, 'verified', undefined);
    return this.outcome(zone.Id, 'challenged', { kind: 'challenge', challenge: this.work.challenge(zone.Id, client, limits.workBits, now), passSeconds });
  }

  private outcome(zoneId: number, outcome: DdosOutcome, verdict: DdosVerdict | undefined): DdosVerdict | undefined {
    this.events.counted(zoneId, outcome);
    return verdict;
  }
}

/** Who is counted: an IPv4 address, or an IPv6 address's /64 (one machine commonly holds the whole /64). */
function clientOf(address: string): string {
  const ip = parseIp(address);
  if (ip === undefined) return address;
  if ('v4' in ip) return canonicalIpText(address);
  const group = (word: number) => `${(word >>> 16).toString(16)}:${(word & 0xffff).toString(16)}`;
  return `${group(ip.v6[0])}:${group(ip.v6[1])}::/64`;
}
