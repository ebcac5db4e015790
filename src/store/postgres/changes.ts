/**
 * The PostgreSQL store's ChangeFeed. Writes made by this instance are reported by its repositories
 * as they run, and again once their transaction has committed; writes by every instance (this one
 * included, and the CLI, and an import) are announced by triggers on commit (migration 0004) and
 * heard here over a dedicated LISTEN connection, so other instances' caches are at most one round
 * trip behind.
 *
 * While that connection is down nothing announced can be heard, so nothing may be trusted: the
 * feed reports a change of everything when it notices the loss, every generation asked for differs
 * from the last (no cache can fill), and it reports everything changed again once it listens anew
 * (writes made in between were missed). A heartbeat notices a connection that died silently.
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { ChangeListeners } from '../change-listeners.js';
import type { ChangeFeed, ResourceKind, StoreChange } from '../types.js';

const HEARTBEAT_MS = 500;
const RECONNECT_MIN_MS = 50;
const RECONNECT_MAX_MS = 1_000;

export const newInstanceId = () => randomBytes(8).toString('hex');

/** The channel of one schema: each schema is a separate store (tests run many side by side). */
export const channelOf = (schema: string) => `edgeplane_${createHash('md5').update(schema).digest('hex')}`;

export class PgChangeFeed extends ChangeListeners implements ChangeFeed {
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;

  /**
   * `instance` names this instance's writes in the announcements: it is the `edgeplane.instance`
   * setting of its connections (newInstanceId()).
   */
  constructor(
    private readonly connect: () => Promise<pg.Client>,
    private readonly channel: string,
    readonly instance: string,
  ) {
    super();
  }

  /** Starts listening; resolves once it listens (or failed to, in which case it keeps trying). */
  async start(): Promise<void> {
    await this.listen();
  }

  generation(): number {
    // Not listening: a change could go unheard, so no value computed now may be kept.
    if (!this.listening) this.current++;
    return this.current;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    await client?.end().catch(() => {});
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    let client: pg.Client | undefined;
    try {
      client = await this.connect();
      client.on('notification', (message) => {
        if (message.channel === this.channel) this.hear(message.payload ?? '');
      });
      client.on('error', () => this.lost(client!));
      client.on('end', () => this.lost(client!));
      await client.query(`LISTEN "${this.channel}"`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.listening = true;
      this.reconnectDelay = RECONNECT_MIN_MS;
      this.heartbeat = setInterval(() => this.beat(client!), HEARTBEAT_MS);
      this.heartbeat.unref();
      // Whatever was written while nobody listened is unknown: drop everything.
      this.emit({ type: 'all' });
    } catch {
      await client?.end().catch(() => {});
      this.scheduleReconnect();
    }
  }

  private beat(client: pg.Client): void {
    let answered = false;
    const deadline = setTimeout(() => {
      if (!answered) this.lost(client);
    }, HEARTBEAT_MS * 2);
    deadline.unref();
    client.query('SELECT 1').then(
      () => {
        answered = true;
        clearTimeout(deadline);
      },
      () => this.lost(client),
    );
  }

  private lost(client: pg.Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.listening = false;
    clearInterval(this.heartbeat);
    client.end().catch(() => {});
    this.emit({ type: 'all' });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.reconnectTimer = setTimeout(() => void this.listen(), this.reconnectDelay);
    this.reconnectTimer.unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  /** One announcement; this instance's own writes were reported when they were made. */
  private hear(payload: string): void {
    const [origin, type, ...rest] = payload.split('|');
    if (origin === this.instance) return;
    if (type === 'doc' && rest.length >= 3) {
      const [kind, accountId, ...id] = rest;
      this.emit({ type: 'doc', kind: kind as ResourceKind, accountId: Number(accountId), id: id.join('|') });
    } else if (type === 'apiKey' && rest.length === 2) {
      this.emit({ type: 'apiKey', accountId: Number(rest[0]), id: Number(rest[1]) });
    } else {
      this.emit({ type: 'all' });
    }
  }
}

/**
 * Reports the writes of one transaction: as they are made (a cache filling meanwhile will not keep
 * its value) and again after COMMIT (a value read by another connection between the write and the
 * commit was still the old one).
 */
export class TransactionChanges {
  private readonly made: StoreChange[] = [];
  constructor(private readonly feed: PgChangeFeed) {}
  emit(change: StoreChange): void {
    this.made.push(change);
    this.feed.emit(change);
  }
  committed(): void {
    for (const change of this.made) this.feed.emit(change);
  }
}

/** Where repositories report their writes: the feed itself outside a transaction, a TransactionChanges inside one. */
export interface ChangeSink {
  emit(change: StoreChange): void;
}
