/**
 * Serialized answers of reads that depend on one document only (a pull zone, with or without its
 * certificates). A hit skips the whole read path — the document's parse, opening its sealed
 * credentials, and serializing ~170 fields — which is most of the cost of `GET /pullzone/{id}`.
 *
 * Correctness comes from the store's ChangeFeed: an entry is dropped the moment its document is
 * written (here, by another process, or — on PostgreSQL — by another instance), and filled only if
 * its document was not written while its answer was computed, nothing was reported as all changed,
 * and the feed heard every change its generation moved by (on PostgreSQL the generation also
 * moves, unheard, while the feed is not listening). Writes to other documents meanwhile do not
 * keep it from filling: on a busy store some write is always under way.
 * Entries are keyed by account as well as id, so one account can never be served another's bytes.
 */
import type { FastifyReply } from 'fastify';
import { BoundedMap } from '../../domain/bounded-map.js';
import type { ChangeFeed, ResourceKind } from '../../store/types.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export interface AnswerKey {
  kind: ResourceKind;
  accountId: number;
  id: string | number;
  /** Distinguishes answers of the same document that differ by query (e.g. `certificates`). */
  variant: string;
}

export class AnswerCache {
  /** Per document, its answers by variant: a write drops them all at once. */
  private readonly docs: BoundedMap<string, Map<string, Buffer>>;
  /** Undefined when the cache is off (size 0, or no feed to keep it correct). */
  private readonly changes: ChangeFeed | undefined;
  /** The changes heard so far. */
  private heard = 0;
  /** The answers being computed, by document: a change of it marks them stale. */
  private readonly computing = new Map<string, Set<{ stale: boolean }>>();

  /** `maxDocs`: a pull zone serializes to ~5 KB, so the default 6,000 hold ~30 MB (twice that if read both with and without certificates). */
  constructor(changes: ChangeFeed | undefined, maxDocs: number) {
    this.changes = maxDocs > 0 ? changes : undefined;
    this.docs = new BoundedMap(maxDocs);
    this.changes?.subscribe((change) => {
      this.heard++;
      if (change.type === 'all') {
        this.docs.clear();
        for (const marks of this.computing.values()) for (const mark of marks) mark.stale = true;
      } else if (change.type === 'doc') {
        const doc = docKey(change.kind, change.accountId, change.id);
        this.docs.delete(doc);
        for (const mark of this.computing.get(doc) ?? []) mark.stale = true;
      }
    });
  }

  /** The cached answer, if any (no I/O; the front door serves it before Fastify). */
  peek(key: AnswerKey): Buffer | undefined {
    if (!this.changes) return undefined;
    // First: it notices a write by another process, which drops the entries it touched.
    this.changes.generation();
    return this.docs.get(docKey(key.kind, key.accountId, key.id))?.get(key.variant);
  }

  /** Sends the cached answer, or `load`s the view, serializes it with the route's schema, and keeps it. */
  async send(reply: FastifyReply, key: AnswerKey, load: () => Promise<unknown>): Promise<FastifyReply> {
    if (!this.changes) return reply.send(await load());
    const generation = this.changes.generation();
    const heard = this.heard;
    const doc = docKey(key.kind, key.accountId, key.id);
    let body = this.docs.get(doc)?.get(key.variant);
    if (body === undefined) {
      const mark = { stale: false };
      const marks = this.computing.get(doc) ?? new Set();
      marks.add(mark);
      this.computing.set(doc, marks);
      try {
        // Kept as bytes: sending text would encode the ~5 KB to UTF-8 again on every hit.
        body = Buffer.from(reply.serialize(await load()) as string);
        // Read before the mark goes: it may report writes of other processes, this document's among them.
        const moved = this.changes.generation() - generation;
        if (!mark.stale && moved === this.heard - heard) {
          const answers = this.docs.get(doc) ?? new Map<string, Buffer>();
          answers.set(key.variant, body);
          this.docs.set(doc, answers);
        }
      } finally {
        marks.delete(mark);
        if (marks.size === 0) this.computing.delete(doc);
      }
    }
    return reply.type(JSON_TYPE).send(body);
  }
}

const docKey = (kind: ResourceKind, accountId: number, id: string | number) => `${kind}\u0000${accountId}\u0000${id}`;
