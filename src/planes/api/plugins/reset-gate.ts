/**
 * Makes `POST /_edgeplane/reset` atomic for clients: API requests hold a shared pass while they
 * run; a reset waits for those in flight, holds back new ones, wipes and re-seeds, then lets them
 * through. Every request sees the state before the reset or after it, never half of it. (Per
 * instance: with several instances, reset one while the others are idle.)
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { quickHook } from './quick-hook.js';

export class ResetGate {
  private active = 0;
  private exclusive: Promise<void> | undefined;
  private drained: (() => void) | undefined;
  /** Requests carrying this header value belong to the reset itself (the seed's own requests). */
  readonly internalToken = randomBytes(24).toString('hex');

  /** A reset is running or waiting for the requests in flight. */
  get resetting(): boolean {
    return this.exclusive !== undefined;
  }

  /** Takes a pass: at once (undefined) unless a reset is running, else a promise of it. */
  enter(): Promise<void> | undefined {
    if (this.exclusive) return this.enterAfterReset();
    this.active++;
    return undefined;
  }

  private async enterAfterReset(): Promise<void> {
    while (this.exclusive) await this.exclusive;
    this.active++;
  }

  leave(): void {
    this.active--;
    if (this.active === 0) this.drained?.();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.exclusive) await this.exclusive;
    let release!: () => void;
    this.exclusive = new Promise<void>((r) => (release = r));
    try {
      if (this.active > 0) await new Promise<void>((r) => (this.drained = r));
      this.drained = undefined;
      return await work();
    } finally {
      this.exclusive = undefined;
      release();
    }
  }
}

const PASS = Symbol('reset-gate-pass');

export function registerResetGate(app: FastifyInstance, gate: ResetGate): void {
  app.addHook(
    'onRequest',
    quickHook((request) => {
      if (request.url.startsWith('/_edgeplane/') || request.headers['x-edgeplane-internal'] === gate.internalToken) return;
      // The pass is marked as taken once it is: a request aborted while waiting has none to give back.
      const take = () => {
        (request as unknown as Record<symbol, boolean>)[PASS] = true;
      };
      const waiting = gate.enter();
      if (waiting) return waiting.then(take);
      take();
    }),
  );
  const leave = (request: object) => {
    const r = request as Record<symbol, boolean>;
    if (r[PASS]) {
      r[PASS] = false;
      gate.leave();
    }
  };
  app.addHook(
    'onResponse',
    quickHook((request) => leave(request)),
  );
  app.addHook('onRequestAbort', async (request) => leave(request));
}
