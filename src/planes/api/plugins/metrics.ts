/**
 * Prometheus metrics: requests and their latency per route, plus live store and job-queue gauges,
 * read by `GET /_edgeplane/metrics`. Each app has its own registry, so several apps in one process
 * (the tests, a reset) never share or double-register series.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../../../domain/principal.js';
import type { Store, StoreStats } from '../../../store/types.js';
import { quickHook } from './quick-hook.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

/** Requests no route matched share one label value: raw URLs would let clients mint series at will. */
const UNMATCHED = '(unmatched)';

/** Counts one answered request (the front door's answers, which never reach the hook). */
export type RecordRequest = (method: string, route: string, status: number, seconds: number) => void;

export function registerMetrics(app: FastifyInstance, store: Store, clock: Clock): RecordRequest {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'edgeplane_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'edgeplane_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status.',
    labelNames,
    registers: [registry],
  });

  const record: RecordRequest = (method, route, status, seconds) => {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  };
  app.addHook(
    'onResponse',
    quickHook((request, reply) => record(request.method, request.routeOptions.url ?? UNMATCHED, reply.statusCode, reply.elapsedTime / 1000)),
  );

  registerStoreGauges(registry, store);
  new Gauge({
    name: 'edgeplane_jobs',
    help: 'Background jobs in the store: pending (waiting to run) and leased (running on some instance).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await store.jobs.count(clock().getTime()).catch(() => undefined);
      // An unreachable store drops the series rather than reporting a made-up zero.
      if (!counts) return this.reset();
      this.set({ state: 'pending' }, counts.pending);
      this.set({ state: 'leased' }, counts.leased);
    },
  });

  app.decorate('metrics', registry);
  return record;
}

function registerStoreGauges(registry: Registry, store: Store): void {
  const gauge = (name: string, help: string, read: (stats: StoreStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(store.stats()));
      },
    });
  const sqlite = (stats: StoreStats) => (stats.dialect === 'sqlite' ? stats : undefined);
  const postgres = (stats: StoreStats) => (stats.dialect === 'postgres' ? stats : undefined);

  if (store.dialect === 'sqlite') {
    gauge('edgeplane_store_transactions_open', 'SQLite transactions running or waiting for the write lock.', (s) => sqlite(s)?.openTransactions ?? 0);
    gauge('edgeplane_store_locked', '1 while a SQLite transaction holds the write lock.', (s) => Number(sqlite(s)?.locked ?? false));
  } else {
    gauge('edgeplane_store_pool_connections', "PostgreSQL connections open in this instance's pool.", (s) => postgres(s)?.poolTotal ?? 0);
    gauge('edgeplane_store_pool_idle_connections', 'PostgreSQL connections open but idle.', (s) => postgres(s)?.poolIdle ?? 0);
    gauge('edgeplane_store_pool_waiting_clients', 'Callers waiting for a PostgreSQL connection.', (s) => postgres(s)?.poolWaiting ?? 0);
  }
}
