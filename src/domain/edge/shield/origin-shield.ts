/**
 * The deployment's origin shield (EDGEPLANE_ORIGIN_SHIELD_URL): which instance asks the origin of a
 * zone with `EnableOriginShield`, how the others reach it, and how much it asks at once.
 *
 * - The shield is the instance whose plain HTTP edge listener the URL names: the URL's port is that
 *   listener's, and its host is an address the instance listens on (the HOST address; loopback when
 *   listening on loopback or every address; an interface's address when listening on every
 *   address; a name is resolved once, when the listener starts). Every other instance sends a
 *   shielded zone's misses and refreshes there, signed (hop-signature.ts); the shield answers them
 *   from its cache, or its own request to the origin, which its request coalescing shares.
 * - Until the edge's HTTP listener has started (or when it is off), an instance asks the origin itself.
 * - With no URL, there is no shield: each instance asks the origin, and is the one whose
 *   concurrency limit (concurrency-limit.ts) bounds what it asks.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { EdgeRequest, EdgeZone } from '../types.js';
import { type ConcurrencyBounds, type QueueEvent, type Turn, ZoneConcurrencyLimits } from './concurrency-limit.js';
import { HopSignatures, SHIELD_HEADER } from './hop-signature.js';

export interface OriginShieldOptions {
  /** EDGEPLANE_ORIGIN_SHIELD_URL. */
  url: string | undefined;
  /** The key the hops are signed with (derived from the master key every instance shares). */
  key: Buffer;
  /** Whether an address reaches this host's listeners (origin/addresses.ts). */
  isOwnAddress: (address: string) => boolean;
  /** Resolves the URL's host name (default: the system's resolver). */
  resolve?: ((host: string) => Promise<string[]>) | undefined;
  /** Each request a zone's concurrency limit let go to the origin or made wait (the queue statistics). */
  counted?: ((zoneId: number, event: QueueEvent) => void) | undefined;
}

const GO: Turn = Object.freeze({ kind: 'go', release() {} });

export class OriginShield {
  /** The shield's edge URL, or undefined when the deployment has none. */
  readonly url: URL | undefined;
  readonly signatures: HopSignatures;
  private readonly limits: ZoneConcurrencyLimits;
  /** `edge`: this instance sends shielded misses to the shield; `origin`: it asks origins itself (it is the shield, or does not know yet). */
  private role: 'edge' | 'origin' = 'origin';

  constructor(private readonly options: OriginShieldOptions) {
    this.url = options.url === undefined ? undefined : new URL(options.url);
    this.signatures = new HopSignatures(options.key);
    this.limits = new ZoneConcurrencyLimits(options.counted);
  }

  /** The edge's HTTP listener listens on `port`: from now on, this instance is the shield or sends to it. */
  async listening(port: number): Promise<void> {
    const url = this.url;
    if (url === undefined) return;
    const named = Number(url.port || 80) === port && (await this.namesThisHost(url.hostname.replace(/^\[|\]$/g, '')));
    this.role = named ? 'origin' : 'edge';
  }

  /** Whether this instance is the shield (or, with no shield set, asks every origin itself). */
  get isShield(): boolean {
    return this.role === 'origin';
  }

  /** Where this instance sends a zone's misses: the shield's URL, or undefined when it asks the origin itself. */
  shieldFor(zone: EdgeZone): URL | undefined {
    return zone.EnableOriginShield && this.role === 'edge' ? this.url : undefined;
  }

  /** A turn to ask a shielded zone's origin from this instance, under the zone's concurrency limit when it has one. */
  turn(zone: EdgeZone): Turn | Promise<Turn> {
    const bounds = boundsOf(zone);
    return bounds === undefined ? GO : this.limits.take(zone.Id, bounds);
  }

  /** The zone's origin requests in flight and waiting under its limit here. */
  queueOf(zoneId: number): { running: number; waiting: number } {
    return this.limits.of(zoneId);
  }

  /**
   * A request another instance sent through the shield, as that instance's client made it (its
   * address and scheme); undefined when it carries no proof, or one that does not hold.
   */
  trusted(zoneId: number, request: EdgeRequest, nowMs: number): EdgeRequest | undefined {
    const proof = request.headers[SHIELD_HEADER];
    const clientIp = request.headers['x-forwarded-for'];
    const scheme = request.headers['x-forwarded-proto'];
    if (proof === undefined || clientIp === undefined || (scheme !== 'http' && scheme !== 'https')) return undefined;
    const target = request.query === '' ? request.path : `${request.path}?${request.query}`;
    if (!this.signatures.verify(proof, { zoneId, method: request.method, target, clientIp, scheme }, nowMs)) return undefined;
    return { ...request, clientIp, scheme };
  }

  private async namesThisHost(host: string): Promise<boolean> {
    if (host === 'localhost' || host.endsWith('.localhost')) return this.options.isOwnAddress('127.0.0.1');
    if (isIP(host) !== 0) return this.options.isOwnAddress(host);
    const resolve = this.options.resolve ?? (async (name: string) => (await lookup(name, { all: true })).map((a) => a.address));
    const addresses = await resolve(host).catch(() => [] as string[]);
    return addresses.some((address) => this.options.isOwnAddress(address));
  }
}

/** The zone's concurrency limit at the shield, or undefined when it has none. */
function boundsOf(zone: EdgeZone): ConcurrencyBounds | undefined {
  if (!zone.OriginShieldEnableConcurrencyLimit) return undefined;
  return {
    maxConcurrent: clamp(zone.OriginShieldMaxConcurrentRequests, 1, 10_000),
    maxQueued: clamp(zone.OriginShieldMaxQueuedRequests, 0, 30_000),
    // Seconds: the reference names no unit, and its default of 30 reads as seconds. At most an hour.
    maxWaitMs: clamp(zone.OriginShieldQueueMaxWaitTime, 0, 3600) * 1000,
  };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

/** The Retry-After of a request the concurrency limit refused: the zone's queue wait, at least a second. */
export const retryAfterSeconds = (zone: EdgeZone): number => Math.max(1, clamp(zone.OriginShieldQueueMaxWaitTime, 0, 3600));
