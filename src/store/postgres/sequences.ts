/** Id sequences on PostgreSQL: a sequence of its own per name. */
import { type Queryable, run } from './queryable.js';

/** How many ids of one sequence an instance draws at once: one round trip per block, not per create. */
const ID_BLOCK = 32;

/**
 * Ids come from real PostgreSQL sequences, one per name, created on first use: `nextval` takes no
 * row lock, so instances creating resources of one kind at once never queue behind each other.
 * Single ids are drawn a block at a time and handed out in order by this instance (a create then
 * spends no round trip on its id); ids left in a block when the process stops are never used, as
 * the platform's ids have gaps too. A wipe or an import moves the sequences: forget() drops the
 * blocks, and the store calls it on every change of everything the feed reports.
 */
export class PgSequences {
  private readonly known = new Set<string>();
  /** Ids drawn and not yet handed out, ascending, per sequence. */
  private readonly drawn = new Map<string, number[]>();
  /**
   * `admin` opens a connection of its own, outside the pool and outside any transaction: a
   * sequence created there survives a rollback, and a transaction waiting for it can never starve
   * the pool (every pooled connection held by a transaction that waits for one more).
   */
  constructor(private readonly admin: () => Promise<Queryable & { end(): Promise<void> }>) {}

  async next(db: Queryable, name: string): Promise<number> {
    const seq = sequenceName(name);
    const ready = this.drawn.get(seq);
    if (ready !== undefined && ready.length > 0) return ready.shift()!;
    const block = await this.nextMany(db, name, ID_BLOCK);
    // Creates running at once may each have drawn a block: keep every id, handed out in order.
    const kept = this.drawn.get(seq) ?? [];
    const id = block.shift()!;
    this.drawn.set(seq, kept.length === 0 ? block : [...kept, ...block].sort((a, b) => a - b));
    return id;
  }

  /**
   * Learns which sequences the schema already has, in one query: a create of a kind whose sequence
   * exists then opens no connection of its own to make sure of it (migration 0013 makes the usual
   * ones, so a new store has them all).
   */
  async learnExisting(db: Queryable): Promise<void> {
    const rows = await run<{ name: string }>(
      db,
      `SELECT sequencename AS name FROM pg_sequences WHERE schemaname = current_schema() AND sequencename LIKE 'seq\\_%'`,
    );
    for (const { name } of rows) this.known.add(name);
  }

  /** Drops the ids drawn ahead: the sequences were moved (a wipe, an import) or may have been. */
  forget(): void {
    this.drawn.clear();
  }

  /** `count` ids in one round trip; other sessions may draw from the sequence meanwhile, so they need not be consecutive. */
  async nextMany(db: Queryable, name: string, count: number): Promise<number[]> {
    if (count <= 0) return [];
    const seq = sequenceName(name);
    if (!this.known.has(seq)) await this.ensure(seq);
    const rows = await run<{ id: number }>(db, `SELECT nextval('${seq}') AS id FROM generate_series(1, $1::integer)`, [count]);
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  /** Sets a sequence so the next id is above `last` (used when importing a store). */
  async advance(name: string, last: number): Promise<void> {
    const seq = sequenceName(name);
    await this.ensure(seq);
    const client = await this.admin();
    try {
      await run(client, `SELECT setval('${seq}', GREATEST($1::bigint, 1), $1::bigint > 0)`, [last]);
    } finally {
      await client.end();
    }
  }

  private async ensure(seq: string): Promise<void> {
    const client = await this.admin();
    try {
      await client.query(`CREATE SEQUENCE IF NOT EXISTS ${seq}`);
    } catch (error) {
      // Another instance created it at the same moment: that is what we wanted.
      const code = (error as { code?: string }).code;
      if (code !== '23505' && code !== '42P07') throw error;
    } finally {
      await client.end();
    }
    this.known.add(seq);
  }
}

export function sequenceName(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`bad sequence name ${name}`);
  return `seq_${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
}
