/**
 * The numbers behind a zone's DDoS protection (`ShieldDDosProtectionEnabled`,
 * `ShieldDDosProtectionType`). The platform publishes none; these are edgeplane's, chosen for a
 * real site and counted per client address (an IPv6 client by its /64, which one machine can fill
 * with addresses), per zone, per edgeplane instance, in fixed 10-second windows:
 *
 * | mode | logged or challenged above | refused (429) above | proof of work |
 * |---|---|---|---|
 * | DetectOnly (0) | 1,000 (logged, counted, served) | never | none |
 * | ActiveStandard (1) | 1,000 | 10,000 | 16 leading zero bits (~65,000 hashes: ~0.3 s on a desktop, 1-2 s on a phone) |
 * | ActiveAggressive (2) | 250 | 2,500 | 18 bits (~262,000 hashes: ~1.3 s on a desktop, several on a phone) |
 *
 * 1,000 requests in 10 s is 100 a second from one address for one site: more than a browser
 * loading pages with all their assets, or an office behind one address, asks, and little for a
 * flood. The operator moves the base figure with `EDGEPLANE_EDGE_DDOS_THRESHOLD` (the others follow
 * it); tests make it small.
 */

export const DDOS_WINDOW_MS = 10_000;

export interface DdosSettings {
  /** Requests from one client for one zone in one 10-second window above which ActiveStandard challenges (and DetectOnly logs). */
  requestsPerWindow: number;
  /** Leading zero bits of SHA-256(token + nonce) a solution needs, per active mode. */
  workBits: { standard: number; aggressive: number };
  /** How long a solved challenge lets its client through, in seconds. */
  passSeconds: number;
}

export const DEFAULT_DDOS_SETTINGS: DdosSettings = Object.freeze({
  requestsPerWindow: 1000,
  workBits: Object.freeze({ standard: 16, aggressive: 18 }),
  passSeconds: 30 * 60,
});

/** A client this many times over its mode's threshold is refused outright (429), solved challenge or not. */
export const REFUSE_FACTOR = 10;

export const DDOS_MODE = { detectOnly: 0, activeStandard: 1, activeAggressive: 2 } as const;

/** What one mode does above which count. */
export interface ModeLimits {
  active: boolean;
  /** Above this many requests in a window: logged (DetectOnly) or challenged. */
  threshold: number;
  /** Above this many: refused (active modes). */
  refuseAbove: number;
  workBits: number;
}

export function modeLimits(settings: DdosSettings, type: number): ModeLimits {
  if (type === DDOS_MODE.activeAggressive) {
    const threshold = Math.max(1, Math.floor(settings.requestsPerWindow / 4));
    return { active: true, threshold, refuseAbove: threshold * REFUSE_FACTOR, workBits: settings.workBits.aggressive };
  }
  const threshold = settings.requestsPerWindow;
  if (type === DDOS_MODE.detectOnly) return { active: false, threshold, refuseAbove: Number.POSITIVE_INFINITY, workBits: 0 };
  return { active: true, threshold, refuseAbove: threshold * REFUSE_FACTOR, workBits: settings.workBits.standard };
}
