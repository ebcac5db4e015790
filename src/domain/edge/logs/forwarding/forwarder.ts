/**
 * Log forwarding (`LogForwardingEnabled`): each line of a zone goes to the collector its settings
 * name — RFC 5424 syslog over UDP, TCP or TLS (`LogForwardingProtocol` 0, 1, 2), in
 * `LogForwardingFormat`, with `LogForwardingToken`. Zones naming the same collector share its
 * connection and queue. Protocol 3 is the platform's hosted log service, which edgeplane does not
 * have: those lines are not forwarded (counted in `unforwarded`). A line costs the request a map
 * lookup and a push; everything else happens on the collectors' timers.
 */
import type { EdgeZone } from '../../types.js';
import type { LineSink } from '../../usage/access-log.js';
import { inFormat } from '../line.js';
import { Collector, type CollectorOptions, type Framing, type Transport } from './collector.js';
import { syslogHead, tokenData } from './syslog.js';

const TRANSPORTS: Record<number, Transport | undefined> = { 0: 'udp', 1: 'tcp', 2: 'tls' };
/** How long a close waits for queued lines to leave. */
const CLOSE_GRACE_MS = 1000;
/** A collector no line went to for this long is closed (made again by the next line). */
const IDLE_MS = 5 * 60_000;

export type LogForwardingOptions = CollectorOptions;

/** An access-log line as its zone forwards it: the zone's token in the head, the line in the zone's format. */
const ZONE_FRAMING: Framing<EdgeZone> = {
  head: (zone, time) => syslogHead(tokenData(zone.LogForwardingToken), time),
  body: (zone, line) => inFormat(line, zone.LogForwardingFormat),
};

export class LogForwarding implements LineSink {
  private readonly collectors = new Map<string, Collector<EdgeZone>>();
  /** Each zone's collector, for the zone document it was chosen by (a changed zone is a new document). */
  private readonly routes = new Map<number, { zone: EdgeZone; collector: Collector<EdgeZone> | undefined }>();
  private sweep: NodeJS.Timeout | undefined;
  private logError: (error: unknown) => void = () => undefined;
  /** Lines of zones whose settings name no collector edgeplane can send to (no host, protocol 3). */
  unforwarded = 0;

  constructor(private readonly options: LogForwardingOptions) {}

  /** Closes the collectors no line went to for a while; failures to reach one go to `logError`. */
  start(logError: (error: unknown) => void): void {
    this.logError = logError;
    this.sweep ??= setInterval(() => this.closeIdle(Date.now() - IDLE_MS), IDLE_MS);
    this.sweep.unref();
  }

  add(zone: EdgeZone, _accountId: number, plain: string): void {
    let route = this.routes.get(zone.Id);
    if (route?.zone !== zone) {
      route = { zone, collector: this.collectorFor(zone) };
      this.routes.set(zone.Id, route);
    }
    if (route.collector) route.collector.add(zone, plain);
    else this.unforwarded++;
  }

  forget(pullZoneId: number): void {
    this.routes.delete(pullZoneId);
    for (const collector of this.collectors.values()) collector.forget((zone) => zone.Id === pullZoneId);
  }

  /** Lines dropped because a collector's queue was full, over every collector. */
  get dropped(): number {
    let dropped = 0;
    for (const collector of this.collectors.values()) dropped += collector.dropped;
    return dropped;
  }

  /** The collector a zone's lines go to now (tests look at its queue). */
  collectorOf(zone: Pick<EdgeZone, 'LogForwardingProtocol' | 'LogForwardingHostname' | 'LogForwardingPort'>): Collector<EdgeZone> | undefined {
    const key = keyOf(zone);
    return key === undefined ? undefined : this.collectors.get(key);
  }

  /** Sends every queued line now (a close, tests). */
  flushSoon(): void {
    for (const collector of this.collectors.values()) collector.flushSoon();
  }

  /** Sends what is queued, waiting at most `graceMs` for collectors that take it, then closes them all (what is left is lost). */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    clearInterval(this.sweep);
    this.sweep = undefined;
    this.flushSoon();
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && [...this.collectors.values()].some((c) => c.queued > 0 && c.reachable)) await new Promise((r) => setTimeout(r, 20));
    for (const collector of this.collectors.values()) collector.close();
    this.collectors.clear();
    this.routes.clear();
  }

  private collectorFor(zone: EdgeZone): Collector<EdgeZone> | undefined {
    const key = keyOf(zone);
    if (key === undefined) return undefined;
    let collector = this.collectors.get(key);
    if (collector === undefined) {
      const transport = TRANSPORTS[zone.LogForwardingProtocol]!;
      const target = { transport, host: hostOf(zone), port: zone.LogForwardingPort };
      collector = new Collector(target, ZONE_FRAMING, this.options, (error) => this.logError(error));
      this.collectors.set(key, collector);
    }
    return collector;
  }

  private closeIdle(before: number): void {
    for (const [key, collector] of this.collectors) {
      if (collector.lastUsed >= before || collector.queued > 0) continue;
      collector.close();
      this.collectors.delete(key);
    }
    for (const [id, route] of this.routes) if (route.collector && !this.collectors.has(keyOf(route.zone) ?? '')) this.routes.delete(id);
  }
}

/** `tcp|logs.example.com|514`; undefined when the settings name nothing edgeplane sends to. */
function keyOf(zone: Pick<EdgeZone, 'LogForwardingProtocol' | 'LogForwardingHostname' | 'LogForwardingPort'>): string | undefined {
  const transport = TRANSPORTS[zone.LogForwardingProtocol];
  const host = hostOf(zone);
  const port = zone.LogForwardingPort;
  if (transport === undefined || host === '' || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return `${transport}|${host.toLowerCase()}|${port}`;
}

/** The collector's host name or address (an IPv6 address given in brackets without them). */
const hostOf = (zone: Pick<EdgeZone, 'LogForwardingHostname'>) => (zone.LogForwardingHostname ?? '').trim().replace(/^\[(.*)\]$/, '$1');
