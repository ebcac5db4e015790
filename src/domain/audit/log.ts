/**
 * The audit log: every write made through the API (the API plane records each one it answered
 * with success), kept per account and per day for AUDIT_RETENTION_DAYS, then deleted. An entry says
 * which key (its id, never its value) did what to which resource, and which body fields it sent —
 * their names only, so no credential or other value a client sent is ever kept.
 */
import type { AuditLogPageT, AuditLogQueryT } from '../../schemas/account.js';
import type { AuditEntry, Durability, Store } from '../../store/types.js';
import { errors } from '../errors.js';
import { type Clock, type Principal, userIdOf } from '../principal.js';
import { DAY_MS } from '../durations.js';

export const AUDIT_RETENTION_DAYS = 90;
/** Entries per transaction: bounds one statement's parameters (10 each, PostgreSQL takes 65,535). */
const MAX_BATCH = 500;

export interface AuditedWrite {
  principal: Principal;
  product: string;
  resourceType: string;
  resourceId: string | null;
  /** The operation's id in the OpenAPI document (`createPullZone`). */
  action: string;
  /** Names of the body fields the request sent; null for a body that is not a JSON object. */
  fields: string[] | null;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** `2026-01-15`, or a date-time of which the UTC day is meant; undefined for anything else. */
export function auditDay(text: string): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const at = new Date(`${text}T00:00:00.000Z`);
    return !Number.isNaN(at.getTime()) && dayOf(at) === text ? text : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : dayOf(at);
}

/** Where a page ends: the day, the order and the last id, so a token is never applied to another listing. */
interface Position {
  day: string;
  descending: boolean;
  after: number;
}

const encode = (p: Position) => Buffer.from(`${p.day}|${p.descending ? 'd' : 'a'}|${p.after}`).toString('base64url');

function decode(token: string): Position | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})\|([ad])\|(\d{1,16})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match) return undefined;
  return { day: match[1]!, descending: match[2] === 'd', after: Number(match[3]) };
}

export class AuditLogService {
  /** The day this instance last removed expired entries: once a day is enough. */
  private purgedOn: string | undefined;
  private readonly waiting: { entry: Omit<AuditEntry, 'id'>; write: Durability | undefined; settle: (error?: unknown) => void }[] = [];
  /** The loop writing the waiting entries, while there are any. */
  private writer: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Resolves once the entry is committed. Entries of concurrent writes are committed together: while
   * one batch's transaction is under way, the next one gathers, so under load a write's entry costs
   * a share of one commit rather than a commit (a disk sync) of its own.
   */
  record(write: AuditedWrite): Promise<void> {
    const now = this.clock();
    const entry: Omit<AuditEntry, 'id'> = {
      accountId: write.principal.accountId,
      day: dayOf(now),
      at: now.toISOString(),
      product: write.product,
      resourceType: write.resourceType,
      resourceId: write.resourceId,
      action: write.action,
      actorId: String(write.principal.keyId),
      actorType: 'ApiKey',
      diff: write.fields === null ? null : JSON.stringify({ Fields: write.fields }),
    };
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ entry, write: write.principal.durability, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      this.startWriter();
    });
  }

  private startWriter(): void {
    if (this.writer) return;
    this.writer = this.writeWaiting().finally(() => {
      this.writer = undefined;
      // An entry handed in between the loop's last look and now would otherwise wait for the next write.
      if (this.waiting.length > 0) this.startWriter();
    });
  }

  /**
   * Resolves once every entry handed in so far is written (or has failed): the app waits for it
   * before the store closes, so a write whose client left before its answer keeps its entry.
   */
  async drain(): Promise<void> {
    while (this.writer) await this.writer;
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      const today = dayOf(this.clock());
      const purge = this.purgedOn !== today;
      try {
        await this.store.transaction(async (tx) => {
          // An entry records a write that was kept. Its write is in this batch (one COMMIT for both)
          // or in one already over; one of those that was lost leaves no entry.
          const kept = batch.filter((w) => w.write?.lost !== true);
          if (kept.length > 0) await tx.audit.add(kept.map((w) => w.entry));
          if (purge) await tx.audit.purgeBefore(dayOf(new Date(this.clock().getTime() - AUDIT_RETENTION_DAYS * DAY_MS)));
        });
        this.purgedOn = today;
        for (const w of batch) w.settle();
      } catch (error) {
        for (const w of batch) w.settle(error);
      }
    }
  }

  async read(principal: Principal, date: string, query: AuditLogQueryT): Promise<AuditLogPageT> {
    const day = auditDay(date);
    if (day === undefined) throw errors.validation('date', 'The date must be a day (2026-01-15) or a date-time (2026-01-15T00:00:00Z).');
    const descending = (query.Order ?? 'Descending') === 'Descending';
    let after: number | undefined;
    if (query.ContinuationToken !== undefined) {
      const position = decode(query.ContinuationToken);
      if (!position || position.day !== day || position.descending !== descending) {
        throw errors.validation('ContinuationToken', 'The continuation token does not come from a page of this day in this order.');
      }
      after = position.after;
    }
    const limit = query.Limit ?? 1000;
    const found = await this.store.audit.list(principal.accountId, {
      day,
      ...(query.Product ? { products: query.Product } : {}),
      ...(query.ResourceType ? { resourceTypes: query.ResourceType } : {}),
      ...(query.ResourceId ? { resourceIds: query.ResourceId } : {}),
      ...(query.ActorId ? { actorIds: query.ActorId } : {}),
      descending,
      ...(after !== undefined ? { after } : {}),
      limit: limit + 1,
    });
    const page = found.slice(0, limit);
    const more = found.length > limit;
    const start = after ?? (descending ? Number.MAX_SAFE_INTEGER : 0);
    return {
      Logs: page.map(entryView),
      HasMoreData: more,
      ContinuationToken: more ? encode({ day, descending, after: page[page.length - 1]!.id }) : null,
      StartToken: encode({ day, descending, after: start }),
    };
  }
}

function entryView(e: AuditEntry): AuditLogPageT['Logs'] extends (infer L)[] | null ? L : never {
  return {
    Timestamp: e.at,
    Product: e.product,
    ResourceType: e.resourceType,
    ResourceId: e.resourceId,
    ResourceOwner: userIdOf(e.accountId),
    Action: e.action,
    ActorId: e.actorId,
    ActorType: e.actorType,
    Diff: e.diff,
  };
}
