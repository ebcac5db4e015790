/**
 * The answers the preloading screen keeps for the request that follows it: while the screen shows,
 * the origin request goes on, and its answer waits here under an unguessable token (the cookie the
 * screen set) until the screen's script asks for the page again.
 *
 * Bounded every way: at most `maxHeld` answers (and `maxPerClient` per client address), at most
 * `maxBytes` of bodies held in memory, each kept `holdMs` once it is ready (a streamed body waits
 * paused, its origin connection held back by TCP). Past any bound the answer is let go
 * (`discard`) and the follow-up asks the origin itself; a full store shows no screen at all.
 * An answer is taken once, by a request for the same URL from the same client address.
 */
import { randomBytes } from 'node:crypto';

export interface HeldLimits {
  /** Answers held at once, every client together. */
  maxHeld: number;
  maxPerClient: number;
  /** Bytes of bodies held in memory at once (a streamed body counts nothing: it waits in its origin connection). */
  maxBytes: number;
  /** How long a ready answer waits for its follow-up (ms). */
  holdMs: number;
}

export const DEFAULT_HELD_LIMITS: HeldLimits = Object.freeze({ maxHeld: 1000, maxPerClient: 8, maxBytes: 64 * 1024 * 1024, holdMs: 30_000 });

/** How the store handles its answers: their size in memory, and letting one go unused. */
export interface HeldHandling<T> {
  bytesOf(answer: T): number;
  discard(answer: T): void;
}

interface Entry<T> {
  client: string;
  url: string;
  answer: Promise<T>;
  /** Set once the answer is ready: its size and the timer that lets it go. */
  ready?: { value: T; bytes: number; timer: NodeJS.Timeout };
}

export class HeldAnswers<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly perClient = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly limits: HeldLimits,
    private readonly handling: HeldHandling<T>,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Keeps the answer to come for the client's follow-up; its token, or undefined when there is no room (show no screen). */
  hold(client: string, url: string, answer: Promise<T>): string | undefined {
    if (this.entries.size >= this.limits.maxHeld || (this.perClient.get(client) ?? 0) >= this.limits.maxPerClient) return undefined;
    const token = randomBytes(18).toString('base64url');
    const entry: Entry<T> = { client, url, answer };
    this.entries.set(token, entry);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    answer.then(
      (value) => this.ready(token, entry, value),
      () => this.forget(token, entry),
    );
    return token;
  }

  /** The answer held under the token for this client and URL (awaiting it when it is not ready yet); taken once. */
  take(token: string, client: string, url: string): Promise<T> | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined || entry.url !== url || entry.client !== client) return undefined;
    this.forget(token, entry);
    return entry.answer;
  }

  private ready(token: string, entry: Entry<T>, value: T): void {
    // Taken while it was on its way: the follow-up has it.
    if (this.entries.get(token) !== entry) return;
    const bytes = this.handling.bytesOf(value);
    if (this.bytes + bytes > this.limits.maxBytes) {
      this.forget(token, entry);
      this.handling.discard(value);
      return;
    }
    this.bytes += bytes;
    const timer = setTimeout(() => {
      if (this.entries.get(token) !== entry) return;
      this.forget(token, entry);
      this.handling.discard(value);
    }, this.limits.holdMs);
    timer.unref();
    entry.ready = { value, bytes, timer };
  }

  private forget(token: string, entry: Entry<T>): void {
    if (this.entries.get(token) !== entry) return;
    this.entries.delete(token);
    const left = (this.perClient.get(entry.client) ?? 1) - 1;
    if (left <= 0) this.perClient.delete(entry.client);
    else this.perClient.set(entry.client, left);
    if (entry.ready) {
      clearTimeout(entry.ready.timer);
      this.bytes -= entry.ready.bytes;
    }
  }
}
