/**
 * Builds a real app over a real SQLite file in a temporary directory, with one account ready.
 * Each call is isolated; `restart()` closes and reopens the same file to prove durability.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions } from 'fastify';
import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import { buildApp } from '../../src/planes/api/app.js';
import { readConfig, type Config } from '../../src/config.js';
import { buildRuntime, type RuntimeOptions } from '../../src/runtime.js';
import type { Store } from '../../src/store/types.js';
import { PACKAGE_ROOT, TEST_BUNDLE_DIR } from './server-process.js';
import { leasedTestStore, type TestStoreLocation } from './store.js';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** A clock tests move by hand, so time-driven behaviour is tested without sleeping. */
export class TestClock {
  private now: number;
  constructor(start = Date.parse('2026-01-01T00:00:00.000Z')) {
    this.now = start;
  }
  read = (): Date => new Date(this.now);
  advance(ms: number): void {
    this.now += ms;
  }
}

export interface TestOptions {
  /** Default: a TestClock. */
  clock?: TestClock;
  /** Default: the project's store (TEST_STORE). */
  storeKind?: 'sqlite' | 'postgres';
  /** Default: a random key. */
  masterKey?: Buffer;
  /** An existing store to work on; the caller keeps it (close() leaves it in place). */
  location?: TestStoreLocation;
  /** How the edge resolves origin host names (default `dns.lookup`). */
  originLookup?: LookupFunction;
}

export interface TestContext {
  app: FastifyInstance;
  masterKey: Buffer;
  /** Where the data lives, for a CLI or server process on the same store. */
  databaseUrl: string;
  clock: TestClock;
  /** Advances the clock and runs the background jobs that are then due. */
  runJobs(afterMs?: number): Promise<number>;
  store: Store;
  config: Config;
  /** Full-access personal key of the first account. */
  key: string;
  accountId: number;
  request<T = any>(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    key?: string | null,
    headers?: Record<string, string>,
  ): Promise<TestResponse<T>>;
  get<T = any>(url: string, key?: string | null): Promise<TestResponse<T>>;
  post<T = any>(url: string, body?: unknown, key?: string | null): Promise<TestResponse<T>>;
  put<T = any>(url: string, body?: unknown, key?: string | null): Promise<TestResponse<T>>;
  patch<T = any>(url: string, body?: unknown, key?: string | null): Promise<TestResponse<T>>;
  del<T = any>(url: string, body?: unknown, key?: string | null): Promise<TestResponse<T>>;
  /** A second, unrelated account: its key must see none of the first account's resources. */
  newAccount(name?: string): Promise<{ accountId: number; key: string }>;
  restart(): Promise<void>;
  /**
   * Empties the store as the operator's reset does (every service hears that anything may have
   * changed) and makes the first account again, with a new key: a file whose tests share one app
   * (building one is most of a short test's time) gives each test an empty store this way.
   */
  reset(): Promise<void>;
  /** Another connection to the same data, as a second process has; the caller closes it. */
  openStore(): Promise<Store>;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<Config> = {}, options: TestOptions = {}): Promise<TestContext> {
  const clock = options.clock ?? new TestClock();
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-test-'));
  const file = join(dir, 'edgeplane.db');
  const masterKey = options.masterKey ?? randomBytes(32);
  const config = readConfig({}, { databaseUrl: `sqlite:${file}`, containerRuntime: 'simulated', ...overrides });

  const location = options.location ?? (await leasedTestStore(file, options.storeKind));
  const open = async () => {
    const store = await location.open();
    const app = await buildApiOver({ config, store, masterKey, clock: clock.read, originLookup: options.originLookup });
    return { store, app };
  };

  let { store, app } = await open();
  const first = await app.services.accounts.create('test');

  const ctx: TestContext = {
    get app() {
      return app;
    },
    get store() {
      return store;
    },
    config,
    clock,
    masterKey,
    databaseUrl: location.databaseUrl,
    async runJobs(afterMs = 0) {
      clock.advance(afterMs);
      // The short jobs, then the long ones (encoding): each runner takes its own lane.
      return (await app.services.jobs.runDue()) + (await app.services.mediaJobs.runDue());
    },
    key: first.apiKey,
    accountId: first.account.id,
    async request(method, url, body, key, headers = {}) {
      const h: Record<string, string> = { ...headers };
      const useKey = key === undefined ? ctx.key : key;
      if (useKey !== null) h['accesskey'] = useKey;
      const opts: InjectOptions = { method, url, headers: h };
      if (body !== undefined) {
        opts.payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
        if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
      }
      const res = await app.inject(opts);
      let parsed: unknown = res.body;
      if (res.body.length > 0 && String(res.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(res.body);
      return { status: res.statusCode, body: parsed as any, headers: res.headers };
    },
    get: (url, key) => ctx.request('GET', url, undefined, key),
    post: (url, body, key) => ctx.request('POST', url, body, key),
    put: (url, body, key) => ctx.request('PUT', url, body, key),
    patch: (url, body, key) => ctx.request('PATCH', url, body, key),
    del: (url, body, key) => ctx.request('DELETE', url, body, key),
    async newAccount(name = 'other') {
      const created = await app.services.accounts.create(name);
      return { accountId: created.account.id, key: created.apiKey };
    },
    openStore: () => (location.openAnother ?? location.open)(),
    async reset() {
      await app.resetGate.run(() => store.wipe());
      const account = await app.services.accounts.create('test');
      ctx.key = account.apiKey;
      ctx.accountId = account.account.id;
    },
    async restart() {
      await app.close();
      await store.close();
      ({ store, app } = await open());
    },
    async close() {
      await app.close();
      await store.close();
      if (!options.location) await location.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return ctx;
}

/**
 * The management API over a runtime of its own, as the server builds them (src/serve.ts) but with
 * the background work never started (tests run jobs with `services.jobs.runDue()`); closing the
 * app closes the runtime. The store stays the caller's.
 */
export async function buildApiOver(
  options: RuntimeOptions & { logger?: LoggerOptions & { stream?: DestinationStream | undefined } },
): Promise<FastifyInstance> {
  const runtime = buildRuntime(options);
  let logger: FastifyBaseLogger | undefined;
  if (options.logger) {
    const { stream, ...loggerOptions } = options.logger;
    const asOptions = loggerOptions as LoggerOptions<string>;
    logger = stream ? pino<string>(asOptions, stream) : pino<string>(asOptions);
  }
  // The console the test run built from this checkout (test/setup/server-bundle.ts), not an older dist/.
  const app = await buildApp({ runtime, logger, consoleDir: join(PACKAGE_ROOT, TEST_BUNDLE_DIR, 'console') });
  app.addHook('onClose', () => runtime.close());
  return app;
}

/** The part 7 error body, checked in full. */
export function expectErrorBody(res: TestResponse, status: number, instance?: string): void {
  const b = res.body as Record<string, unknown>;
  if (res.status !== status) throw new Error(`expected status ${status}, got ${res.status}: ${JSON.stringify(b)}`);
  for (const f of ['title', 'detail', 'instance', 'id']) if (typeof b[f] !== 'string') throw new Error(`error body lacks string ${f}: ${JSON.stringify(b)}`);
  if (b['status'] !== status) throw new Error(`error body status ${String(b['status'])} != ${status}`);
  if (!Array.isArray(b['errors'])) throw new Error('error body lacks errors[]');
  if (instance !== undefined && b['instance'] !== instance) throw new Error(`instance ${String(b['instance'])} != ${instance}`);
}

/** Field names of a validation error, as reported. */
export const errorFields = (res: TestResponse): string[] => ((res.body as { errors?: { field: string }[] }).errors ?? []).map((e) => e.field);
