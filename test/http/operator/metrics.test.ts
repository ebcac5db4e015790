import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { testStoreKind } from '../../helpers/store.js';

const TOKEN = 'operator-token-0123456789';
let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: TOKEN });
});
afterEach(async () => {
  await t.close();
});

const scrape = async (ctx = t) => {
  const res = await ctx.request('GET', '/_edgeplane/metrics', undefined, null, { authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  return res;
};
/** The value of one sample line, e.g. `edgeplane_jobs{state="pending"}`; undefined when absent. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const requests = (method: string, route: string, status: number) => `edgeplane_http_requests_total{method="${method}",route="${route}",status="${status}"}`;

describe('GET /_edgeplane/metrics', () => {
  it('serves the Prometheus text format', async () => {
    const res = await scrape();
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.body).toContain('# TYPE edgeplane_http_requests_total counter');
    expect(res.body).toContain('# TYPE edgeplane_http_request_duration_seconds histogram');
    expect(res.body).toContain('# TYPE edgeplane_jobs gauge');
  });

  it('counts requests per method, route pattern and status, never per raw URL', async () => {
    const zone = (await t.post('/pullzone', { Name: 'metered', OriginUrl: 'https://origin.example' })).body;
    await t.get(`/pullzone/${zone.Id}`);
    await t.get(`/pullzone/${zone.Id}`);
    await t.get('/pullzone/987654');
    await t.get('/no/such/route/abc123');
    const text = (await scrape()).body as string;

    expect(sample(text, requests('POST', '/pullzone', 201))).toBe(1);
    expect(sample(text, requests('GET', '/pullzone/:id', 200))).toBe(2);
    expect(sample(text, requests('GET', '/pullzone/:id', 404))).toBe(1);
    expect(sample(text, requests('GET', '(unmatched)', 404))).toBe(1);
    expect(sample(text, 'edgeplane_http_request_duration_seconds_count{method="GET",route="/pullzone/:id",status="200"}')).toBe(2);
    expect(sample(text, 'edgeplane_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/pullzone/:id",status="200"}')).toBe(2);
    expect(sample(text, 'edgeplane_http_request_duration_seconds_sum{method="GET",route="/pullzone/:id",status="200"}')).toBeGreaterThanOrEqual(0);
    expect(text).not.toContain(`/pullzone/${zone.Id}"`);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('abc123');
  });

  it('reports the store gauges of its dialect, live', async () => {
    const read = async () => await t.app.metrics.metrics();
    const idle = await read();
    if (testStoreKind() === 'sqlite') {
      expect(sample(idle, 'edgeplane_store_transactions_open')).toBe(0);
      expect(sample(idle, 'edgeplane_store_locked')).toBe(0);
      expect(idle).not.toContain('edgeplane_store_pool');
    } else {
      expect(sample(idle, 'edgeplane_store_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(idle, 'edgeplane_store_pool_waiting_clients')).toBe(0);
      expect(idle).not.toContain('edgeplane_store_transactions_open');
    }
    // Read inside a transaction, the gauges see it; the job gauge is left out, as it would wait for the lock.
    const busy = await t.store.transaction(async () =>
      Promise.all(
        ['edgeplane_store_transactions_open', 'edgeplane_store_locked', 'edgeplane_store_pool_connections', 'edgeplane_store_pool_idle_connections']
          .filter((name) => t.app.metrics.getSingleMetric(name) !== undefined)
          .map((name) => t.app.metrics.getSingleMetricAsString(name)),
      ).then((parts) => parts.join('\n')),
    );
    if (testStoreKind() === 'sqlite') {
      expect(sample(busy, 'edgeplane_store_transactions_open')).toBe(1);
      expect(sample(busy, 'edgeplane_store_locked')).toBe(1);
    } else {
      const open = sample(busy, 'edgeplane_store_pool_connections')!;
      expect(open - sample(busy, 'edgeplane_store_pool_idle_connections')!).toBeGreaterThanOrEqual(1);
    }
  });

  it('reports pending and leased jobs', async () => {
    let text = (await scrape()).body as string;
    expect(sample(text, 'edgeplane_jobs{state="pending"}')).toBe(0);
    expect(sample(text, 'edgeplane_jobs{state="leased"}')).toBe(0);
    await t.app.services.jobs.enqueue('metrics-test', { n: 1 });
    await t.app.services.jobs.enqueue('metrics-test', { n: 2 });
    text = (await scrape()).body as string;
    expect(sample(text, 'edgeplane_jobs{state="pending"}')).toBe(2);
    const now = t.clock.read().getTime();
    await t.store.jobs.claimDue(now, 1, 'worker-a', now + 60_000);
    text = (await scrape()).body as string;
    expect(sample(text, 'edgeplane_jobs{state="pending"}')).toBe(1);
    expect(sample(text, 'edgeplane_jobs{state="leased"}')).toBe(1);
  });

  it('keeps one registry per app', async () => {
    const other = await createTestApp({ adminToken: TOKEN });
    try {
      await t.get('/apikey');
      await t.get('/apikey');
      await other.get('/apikey');
      expect(sample((await scrape()).body, requests('GET', '/apikey', 200))).toBe(2);
      expect(sample((await scrape(other)).body, requests('GET', '/apikey', 200))).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('needs the operator credential', async () => {
    expectErrorBody(await t.request('GET', '/_edgeplane/metrics', undefined, null), 401);
    expectErrorBody(await t.request('GET', '/_edgeplane/metrics', undefined, null, { authorization: 'Bearer wrong-token-0123456789' }), 401);
    expectErrorBody(await t.request('GET', '/_edgeplane/metrics', undefined, t.key), 401);
    const bare = await createTestApp();
    try {
      expectErrorBody(await bare.request('GET', '/_edgeplane/metrics', undefined, null, { authorization: `Bearer ${TOKEN}` }), 404);
    } finally {
      await bare.close();
    }
  });
});
