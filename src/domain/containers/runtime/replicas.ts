/**
 * The containers edgeplane runs, as the supervisor last saw them, with their probes' state: which
 * have started, which are ready for traffic, which are failing. The edge asks here which replicas
 * an endpoint balances over (round robin over the ready ones; sticky sessions hash the session's
 * cookie or header onto one of them).
 */
import type { ContainerEndpointResponseT } from '../../../schemas/containers.js';
import { LABELS, type RunningContainer } from './types.js';

export interface Replica {
  container: RunningContainer;
  appId: string;
  templateId: string;
  revision: string;
  slot: number;
  /** The startup probe passed (or there is none): the other probes run. */
  started: boolean;
  /** Takes traffic: the readiness probe passes (or, without one, the first endpoint port accepts connections). */
  ready: boolean;
  /** Taken out of the balance before it is stopped (rolled or scaled away). */
  draining: boolean;
  failures: number;
  successes: number;
  livenessFailures: number;
  /** When the probes next run (epoch ms). */
  nextCheck: number;
  checking: boolean;
  restarts: number;
  /** When a stopped container may be started again (crash loops back off). */
  retryAt: number;
  /** When a probe (or the port check standing for one) last passed (epoch ms); undefined: never yet. */
  lastPassed: number | undefined;
  /** CPU used between its last two measures, as a fraction of its limit (undefined before two). */
  cpu: number | undefined;
  /** Its CPU time at the last measure (ns), when, and which start of the container it belongs to. */
  cpuTime: { ns: number; at: number; startedAt: number | null } | undefined;
}

/** Where the edge sends an endpoint's requests. */
export interface EndpointTarget {
  appId: string;
  templateId: string;
  containerPort: number;
  sticky: ContainerEndpointResponseT['stickySessions'];
}

export interface Backend {
  host: string;
  port: number;
}

export function replicaOf(container: RunningContainer, now: number): Replica {
  return {
    container,
    appId: container.labels[LABELS.app] ?? '',
    templateId: container.labels[LABELS.template] ?? '',
    revision: container.labels[LABELS.revision] ?? '',
    slot: Number(container.labels[LABELS.replica] ?? 0),
    started: false,
    ready: false,
    draining: false,
    failures: 0,
    successes: 0,
    livenessFailures: 0,
    nextCheck: now,
    checking: false,
    restarts: 0,
    retryAt: 0,
    lastPassed: undefined,
    cpu: undefined,
    cpuTime: undefined,
  };
}

/** FNV-1a: a stable, cheap spread of session keys over replicas. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (!text) return undefined;
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export class Replicas {
  readonly byId = new Map<string, Replica>();
  readonly endpoints = new Map<string, EndpointTarget>();
  private turn = 0;

  ofApp(appId: string): Replica[] {
    return [...this.byId.values()].filter((r) => r.appId === appId);
  }

  /** The loopback ports of the ready replicas of a template that publish `containerPort`, in a stable order. */
  readyPorts(appId: string, templateId: string, containerPort: number): number[] {
    const ports: number[] = [];
    for (const r of this.byId.values()) {
      if (r.appId !== appId || r.templateId !== templateId || !r.ready || r.draining) continue;
      const port = r.container.ports.get(containerPort);
      if (port !== undefined) ports.push(port);
    }
    return ports.sort((a, b) => a - b);
  }

  /** The ready replicas behind an endpoint, in a stable order. */
  readyFor(endpointId: string): { target: EndpointTarget; backends: Backend[] } | undefined {
    const target = this.endpoints.get(endpointId);
    if (!target) return undefined;
    const backends: Backend[] = [];
    for (const r of this.byId.values()) {
      if (r.appId !== target.appId || r.templateId !== target.templateId || !r.ready || r.draining) continue;
      const port = r.container.ports.get(target.containerPort);
      if (port !== undefined) backends.push({ host: '127.0.0.1', port });
    }
    backends.sort((a, b) => a.port - b.port);
    return { target, backends };
  }

  /** One ready replica for a request: the session's own when sticky and the request names one, else the next in turn. */
  pick(endpointId: string, headers: Record<string, string | string[] | undefined>): Backend | undefined {
    const found = this.readyFor(endpointId);
    if (!found || found.backends.length === 0) return undefined;
    const { target, backends } = found;
    const sticky = target.sticky?.enabled ? sessionKey(target.sticky, headers) : undefined;
    if (sticky !== undefined) return backends[hashOf(sticky) % backends.length];
    this.turn = (this.turn + 1) % 1_000_000_007;
    return backends[this.turn % backends.length];
  }
}

function sessionKey(sticky: NonNullable<EndpointTarget['sticky']>, headers: Record<string, string | string[] | undefined>): string | undefined {
  const cookie = cookieValue(headers['cookie'], sticky.cookieName);
  if (cookie) return cookie;
  for (const name of sticky.sessionHeaders) {
    const value = headers[name.toLowerCase()];
    if (value) return Array.isArray(value) ? value.join(',') : value;
  }
  return undefined;
}
