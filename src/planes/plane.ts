/**
 * What every plane shares: a name, a listener it starts on the configured port (or not at all, when
 * the port is `off`), and a way to stop it gracefully. The planes themselves live beside this file,
 * one folder each; `serve.ts` starts them all over the same domain services and store.
 */

import type { EventEmitter } from 'node:events';

/** Every plane edgeplane can run, as the health answer lists them (the API starts last: serve.ts). Only built planes are listed. */
export const PLANES = ['api', 'storage', 'edge', 'edge-tls', 'dns', 's3', 'video', 'logging'] as const;
export type PlaneName = (typeof PLANES)[number];

export type PlaneState = 'ok' | 'off';

export interface RunningPlane {
  readonly name: PlaneName;
  /** Where it listens, with the real bound port: `http://127.0.0.1:8080`, `dns://127.0.0.1:8053`. */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
  /** Ends whatever is still open (slow clients): called when a graceful close takes too long. */
  forceClose(): void;
}

/** Which planes are serving, for the health answer. Every plane starts `off` until it listens. */
export class PlaneStates {
  private readonly states = new Map<PlaneName, PlaneState>(PLANES.map((name) => [name, 'off']));

  constructor(initial: Partial<Record<PlaneName, PlaneState>> = {}) {
    for (const [name, state] of Object.entries(initial) as [PlaneName, PlaneState][]) this.states.set(name, state);
  }

  set(name: PlaneName, state: PlaneState): void {
    this.states.set(name, state);
  }

  toJSON(): Record<PlaneName, PlaneState> {
    return Object.fromEntries(this.states) as Record<PlaneName, PlaneState>;
  }
}

/**
 * Resolves once `start` (a socket's listen or bind, given `done` as its callback) has bound;
 * rejects with the error the socket reports first instead, and leaves no listener behind.
 */
export function bound(socket: EventEmitter, start: (done: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    start(() => {
      socket.off('error', reject);
      resolve();
    });
  });
}

/** A listener could not bind: the message names the variable that chose the port. */
export class PlaneListenError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

/** Turns a bind failure into a message a person can act on, naming the variable that chose the port. */
export function listenError(error: unknown, variable: string, host: string, port: number): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    return new PlaneListenError(variable, `port ${port} on ${host} is already in use; choose another with ${variable}, or 0 for any free port.`);
  if (code === 'EACCES') return new PlaneListenError(variable, `no permission to listen on port ${port} on ${host}.`);
  if (code === 'EADDRNOTAVAIL') return new PlaneListenError(variable, `address ${host} is not available on this machine (HOST).`);
  return error;
}

/** `http://127.0.0.1:8081`, `http://[::1]:8081`: a listener's address as the start-up line shows it. */
export function httpUrl(scheme: 'http' | 'https', host: string, port: number): string {
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
