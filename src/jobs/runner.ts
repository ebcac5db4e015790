/**
 * Runs stored background jobs. Jobs are rows, not timers, so they survive restarts; each is leased
 * before it runs, so with several instances polling one database a job runs on exactly one of them
 * at a time, and a job whose instance died is picked up again when its lease runs out.
 *
 * Tests drive it deterministically: a controllable clock plus `runDue()`, no sleeping.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../domain/principal.js';
import type { Job, JobLane, Store } from '../store/types.js';

/**
 * A job's work. `signal` aborts when this instance no longer holds the job's lease (it could not be
 * renewed in time, and another instance may have taken the job): a long job stops then, so that
 * no job runs twice at once.
 */
export type JobHandler = (payload: unknown, context: { signal: AbortSignal }) => Promise<void>;

export interface JobRunnerOptions {
  pollMs?: number;
  leaseMs?: number;
  batch?: number;
  /** The kinds this runner takes (default: every kind): long work runs on a runner of its own, so that it never holds up the short jobs. */
  lane?: JobLane;
  /** How many jobs run at once (default 1); each claims one job at a time. */
  concurrency?: number;
  onError?: (kind: string, error: unknown) => void;
}

const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];
/** How soon a slot with nothing to run looks again while another slot still works. */
const RELOOK_MS = 200;

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly worker = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = true;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: JobRunnerOptions = {},
  ) {}

  register(kind: string, handler: JobHandler): void {
    const lane = this.options.lane;
    if (lane && ('only' in lane ? !lane.only.includes(kind) : lane.except.includes(kind))) throw new Error(`job kind ${kind} runs on another runner`);
    this.handlers.set(kind, handler);
  }

  async enqueue(kind: string, payload: unknown, delayMs = 0): Promise<void> {
    await this.store.jobs.enqueue(kind, payload, this.clock().getTime() + delayMs);
  }

  /** Runs every job that is due now; returns how many ran. Safe to call concurrently. */
  async runDue(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.drain().finally(() => (this.running = undefined));
    return this.running;
  }

  private async drain(): Promise<number> {
    const slots = this.options.concurrency ?? 1;
    // Several at once: each slot takes one job at a time, so a slot that is free takes the next.
    const batch = slots > 1 ? 1 : (this.options.batch ?? 20);
    const working = { slots: 0 };
    const ran = await Promise.all(Array.from({ length: slots }, () => this.drainSlot(batch, working)));
    return ran.reduce((a, b) => a + b, 0);
  }

  /**
   * Takes and runs jobs until none is due. A slot that finds none while another slot still works
   * looks again shortly (RELOOK_MS): a job that became due meanwhile, or one a concurrent claim
   * left, still runs beside the others rather than after them. (On PostgreSQL a claim can come
   * back empty beside due jobs: a row another claim took just before fails the recheck after its
   * lock, and LIMIT does not look further.)
   */
  private async drainSlot(batch: number, working: { slots: number }): Promise<number> {
    let ran = 0;
    for (;;) {
      let claimed = 0;
      const now = this.clock().getTime();
      // A slot counts as working from its claim on: a slot whose claim comes back empty while
      // another's claim is still in flight looks again rather than leaving that slot's next jobs to it.
      working.slots++;
      try {
        const jobs = await this.store.jobs.claimDue(now, batch, this.worker, now + (this.options.leaseMs ?? 60_000), this.options.lane);
        claimed = jobs.length;
        for (const job of jobs) {
          await this.runOne(job);
          ran++;
        }
      } finally {
        working.slots--;
      }
      if (claimed === batch) continue;
      if (working.slots === 0) return ran;
      await new Promise((resolve) => setTimeout(resolve, RELOOK_MS));
    }
  }

  private async runOne(job: Job): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await this.holdingLease(job.id, (signal) => handler(job.payload, { signal }));
      await this.store.jobs.complete(job.id, this.worker);
    } catch (error) {
      this.options.onError?.(job.kind, error);
      const delay = RETRY_DELAYS_MS[Math.min(job.attempts - 1, RETRY_DELAYS_MS.length - 1)]!;
      await this.store.jobs.retry(job.id, this.worker, this.clock().getTime() + delay, String(error));
    }
  }

  /**
   * Runs `work` while renewing the job's lease every third of its length, so that a job longer than
   * its lease (an encode) is never taken by another instance while it runs; aborts `work` when a
   * renewal finds the lease lost.
   */
  private async holdingLease(id: number, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const leaseMs = this.options.leaseMs ?? 60_000;
    const lost = new AbortController();
    const renewal = setInterval(() => {
      this.store.jobs.renew(id, this.worker, this.clock().getTime() + leaseMs).then(
        (held) => {
          if (!held) lost.abort(new Error("the job's lease was lost"));
        },
        (error: unknown) => this.options.onError?.('lease', error),
      );
    }, leaseMs / 3);
    renewal.unref();
    try {
      await work(lost.signal);
    } finally {
      clearInterval(renewal);
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = async () => {
      try {
        await this.runDue();
      } catch (error) {
        // The store may be briefly unreachable; the next tick tries again.
        this.options.onError?.('poll', error);
      }
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.options.pollMs ?? 250);
    };
    this.timer = setTimeout(() => void tick(), 0);
  }

  /** Stops polling and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
