/**
 * How many WebSocket connections a pull zone may hold open at once (MaxWebSocketConnections), and
 * how many it holds. The platform sells the limit in steps of 100 with a floor of 100: a zone's
 * value is rounded up to the next multiple of 100, and 0 (a new zone's) or less is 100. An upgrade
 * over the limit is refused (429); the connections already open stay.
 *
 * Counted per edge instance, in memory: each process holds a zone to the limit on the connections
 * it carries (the platform's limit is global; N instances let a zone hold up to N times it).
 */
export const effectiveWebSocketLimit = (max: number): number => Math.max(100, Math.ceil(max / 100) * 100);

export class WebSocketCounts {
  private readonly open = new Map<number, number>();

  /** One more connection for the zone, unless it holds its limit already: the function that gives it back (once), or undefined. */
  take(zoneId: number, max: number): (() => void) | undefined {
    const held = this.open.get(zoneId) ?? 0;
    if (held >= effectiveWebSocketLimit(max)) return undefined;
    this.open.set(zoneId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.open.get(zoneId) ?? 1) - 1;
      if (now > 0) this.open.set(zoneId, now);
      else this.open.delete(zoneId);
    };
  }

  /** The zone's connections open now. */
  openFor(zoneId: number): number {
    return this.open.get(zoneId) ?? 0;
  }
}
