/**
 * The request journal (opt-in, `EDGEPLANE_JOURNAL_SIZE`): the last N requests in memory, so an
 * operator can see what a client really sent. Credentials never enter it: headers and body fields
 * named like one are redacted before an entry is kept. Operator requests are left out, or reading
 * the journal would fill it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { compilePathPattern } from '../../../domain/faults/path-pattern.js';
import type { Clock, Principal } from '../../../domain/principal.js';
import type { JournalEntryT } from '../../../schemas/journal.js';
import { isOperatorRoute } from './faults.js';
import { quickHook } from './quick-hook.js';

declare module 'fastify' {
  interface FastifyInstance {
    journal: Journal;
  }
}

/** The part 5 credential fields, the auth headers, and cookies, lower-cased. */
const CREDENTIAL_NAMES = new Set([
  'key',
  'apikey',
  'readonlyapikey',
  'apiaccesskey',
  'password',
  'readonlypassword',
  'zonesecuritykey',
  'requestsigningkey',
  'requestsigningsecret',
  'logforwardingtoken',
  'certificatekey',
  'accesskey',
  'authorization',
  'proxy-authorization',
  'cookie',
]);
const REDACTED = '[redacted]';
/** JSON bodies can nest arbitrarily deep; the copy stops well before the call stack would. */
const MAX_DEPTH = 64;

/** A deep copy with every credential-named field (any case, any depth) replaced. */
export function redactCredentials(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => redactCredentials(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    copy[name] = CREDENTIAL_NAMES.has(name.toLowerCase()) ? REDACTED : redactCredentials(field, depth + 1);
  }
  return copy;
}

export interface JournalFilter {
  limit?: number;
  method?: string;
  path?: string;
}

/** A ring of the newest `capacity` entries. */
export class Journal {
  private readonly entries: JournalEntryT[] = [];
  private next = 0;

  constructor(readonly capacity: number) {}

  add(entry: JournalEntryT): void {
    if (this.capacity === 0) return;
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Newest first. */
  list(filter: JournalFilter = {}): JournalEntryT[] {
    const newestFirst = [...this.entries.slice(0, this.next).reverse(), ...this.entries.slice(this.next).reverse()];
    const method = filter.method?.toUpperCase();
    const matches = filter.path === undefined ? undefined : compilePathPattern(filter.path);
    const selected = newestFirst.filter((e) => (method === undefined || e.method === method) && (!matches || matches(e.route ?? undefined, e.path)));
    return filter.limit === undefined ? selected : selected.slice(0, filter.limit);
  }

  clear(): void {
    this.entries.length = 0;
    this.next = 0;
  }
}

export function registerJournal(app: FastifyInstance, capacity: number, clock: Clock): void {
  const journal = new Journal(capacity);
  app.decorate('journal', journal);
  if (capacity === 0) return;

  // Taken before any scope renames keys or the validator strips fields: the body as the client sent it.
  const bodies = new WeakMap<FastifyRequest, unknown>();
  app.addHook(
    'preValidation',
    quickHook((request) => {
      if (request.body !== undefined && !isOperatorRoute(request.routeOptions.url)) bodies.set(request, redactCredentials(request.body));
    }),
  );

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (isOperatorRoute(route)) return;
    const principal = request.principal as Principal | null | undefined;
    journal.add({
      time: new Date(clock().getTime() - Math.round(reply.elapsedTime)).toISOString(),
      requestId: String(request.id),
      method: request.method,
      path: request.originalUrl.split('?')[0] ?? request.originalUrl,
      route: route ?? null,
      status: reply.statusCode,
      accountId: principal?.accountId ?? null,
      durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
      headers: redactCredentials(request.headers) as Record<string, unknown>,
      body: bodies.get(request) ?? null,
    });
  });
}
