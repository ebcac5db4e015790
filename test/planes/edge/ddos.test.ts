/**
 * A zone's DDoS protection over real sockets, with test-sized figures (8 requests a window for
 * ActiveStandard and DetectOnly, 2 for ActiveAggressive; 8 and 10 bits of work): off, DetectOnly
 * (logged, counted, served), ActiveStandard (the challenge page and text, a solved challenge's
 * cookie gets through, a forged one does not, far above is refused), ActiveAggressive (sooner,
 * more work), counted in the zone's DDoS statistics. The challenge is solved here with node:crypto as the page's script solves it; the
 * script's own solver is checked against node:crypto too.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLVER_SOURCE } from '../../../src/domain/edge/ddos/challenge-page.js';
import { leadingZeroBits } from '../../../src/domain/edge/ddos/proof-of-work.js';
import { DDOS_WINDOW_MS } from '../../../src/domain/edge/ddos/thresholds.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';

const PER_WINDOW = 8;
const BROWSER = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;

beforeAll(async () => {
  t = await createTestApp();
  edge = await startEdgePlane(t, { ddos: { requestsPerWindow: PER_WINDOW, workBits: { standard: 8, aggressive: 10 }, passSeconds: 60 } });
  origin = await startOrigin();
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

/** Moves the edge's clock to the start of a window, so a test's requests all fall in one. */
function startWindow(): void {
  edge.advance((DDOS_WINDOW_MS - (edge.now() % DDOS_WINDOW_MS)) / 1000);
}

async function statuses(host: string, count: number, headers: Record<string, string> = {}): Promise<number[]> {
  const out: number[] = [];
  // One path: after the first, cache hits, which the protection counts as any request.
  for (let i = 0; i < count; i++) out.push((await edge.get(host, '/r.txt', headers)).status);
  return out;
}

/** What the zone's DDoS statistics (`GET /pullzone/{id}/ddos/statistics`) count around now (the edge counts on the real clock, not the app's). */
async function counted(zoneId: number, outcome: 'Logged' | 'Verified' | 'Challenged' | 'Blocked'): Promise<number> {
  const day = 86_400_000;
  const period = `dateFrom=${new Date(Date.now() - day).toISOString()}&dateTo=${new Date(Date.now() + day).toISOString()}`;
  const res = await t.get(`/pullzone/${zoneId}/ddos/statistics?${period}`);
  expect(res.status).toBe(200);
  return res.body[`Total${outcome}Requests`] as number;
}

/** The challenge a page carries: its token, minute and bits. */
function challengeOf(html: string): { token: string; issued: string; bits: number } {
  const data = (name: string) => new RegExp(`data-${name}="([^"]*)"`).exec(html)?.[1] ?? '';
  return { token: data('token'), issued: data('issued'), bits: Number(data('bits')) };
}

/** What the page's script does: the first nonce from 0 whose SHA-256(token + nonce) starts with `bits` zero bits. */
function solve(token: string, bits: number): number {
  for (let nonce = 0; ; nonce++) if (leadingZeroBits(createHash('sha256').update(`${token}${nonce}`).digest()) >= bits) return nonce;
}

describe('DDoS protection', () => {
  it('off: a client far above every threshold is served', async () => {
    const zone = await createPullZone(t, 'ddos-off', origin.url);
    startWindow();
    expect(new Set(await statuses(zone.host, PER_WINDOW * 2, BROWSER))).toEqual(new Set([200]));
    expect(await counted(zone.Id, 'Challenged')).toBe(0);
  });

  it('DetectOnly: above the threshold the client is served, logged once and counted per request', async () => {
    const zone = await createPullZone(t, 'ddos-detect', origin.url, { ShieldDDosProtectionEnabled: true, ShieldDDosProtectionType: 0 });
    startWindow();
    const before = edge.warnings.length;
    expect(new Set(await statuses(zone.host, PER_WINDOW + 3, BROWSER))).toEqual(new Set([200]));
    const warned = edge.warnings.slice(before);
    expect(warned).toHaveLength(1);
    expect(warned[0]!.fields).toMatchObject({ zoneId: zone.Id, client: '127.0.0.1', mode: 0, threshold: PER_WINDOW, windowSeconds: 10 });
    expect(await counted(zone.Id, 'Logged')).toBe(3);
    expect(await counted(zone.Id, 'Challenged')).toBe(0);
  });

  it('ActiveStandard: challenges above the threshold; a solved challenge gets through, a forged one does not', async () => {
    const zone = await createPullZone(t, 'ddos-standard', origin.url, { ShieldDDosProtectionEnabled: true, ShieldDDosProtectionType: 1 });
    startWindow();
    expect(new Set(await statuses(zone.host, PER_WINDOW, BROWSER))).toEqual(new Set([200]));

    const page = await edge.get(zone.host, '/index.html', BROWSER);
    expect(page.status).toBe(503);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'sha256-[^']+'/);
    const challenge = challengeOf(page.text);
    expect(challenge.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge.bits).toBe(8);

    const api = await edge.get(zone.host, '/api/items', { accept: 'application/json' });
    expect([api.status, api.headers['content-type'], api.headers['retry-after']]).toEqual([503, 'text/plain; charset=utf-8', '10']);
    expect(api.text).toContain('Too many requests');

    const nonce = solve(challenge.token, challenge.bits);
    const solved = await edge.get(zone.host, '/index.html', { ...BROWSER, cookie: `theme=dark; edgeplane_pass=${challenge.issued}.${nonce}` });
    expect([solved.status, solved.text]).toEqual([200, 'origin /index.html']);

    let wrong = nonce + 1;
    while (leadingZeroBits(createHash('sha256').update(`${challenge.token}${wrong}`).digest()) >= challenge.bits) wrong++;
    for (const forged of [`${challenge.issued}.${wrong}`, `${Number(challenge.issued) - 100}.${nonce}`, `${challenge.issued}.${nonce}x`, 'yes']) {
      expect((await edge.get(zone.host, '/index.html', { ...BROWSER, cookie: `edgeplane_pass=${forged}` })).status).toBe(503);
    }
    expect(await counted(zone.Id, 'Verified')).toBe(1);
    expect(await counted(zone.Id, 'Challenged')).toBe(6);
  });

  it('ActiveStandard: ten times above the threshold the client is refused 429, pass or not', async () => {
    const zone = await createPullZone(t, 'ddos-refuse', origin.url, { ShieldDDosProtectionEnabled: true, ShieldDDosProtectionType: 1 });
    startWindow();
    await statuses(zone.host, PER_WINDOW + 1, BROWSER);
    const challenge = challengeOf((await edge.get(zone.host, '/', BROWSER)).text);
    const cookie = `edgeplane_pass=${challenge.issued}.${solve(challenge.token, challenge.bits)}`;
    const passed = await statuses(zone.host, PER_WINDOW * 10 - PER_WINDOW - 2, { ...BROWSER, cookie });
    expect(new Set(passed)).toEqual(new Set([200]));
    const refused = await edge.get(zone.host, '/', { ...BROWSER, cookie });
    expect(refused.status).toBe(429);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.text).toContain('429 Too Many Requests');
    expect(await counted(zone.Id, 'Blocked')).toBe(1);

    // A new window starts the count again: the pass is honoured above the threshold once more.
    startWindow();
    await statuses(zone.host, PER_WINDOW, BROWSER);
    expect((await edge.get(zone.host, '/', { ...BROWSER, cookie })).status).toBe(200);
  });

  it('ActiveAggressive challenges at a quarter of the threshold, with more work', async () => {
    const zone = await createPullZone(t, 'ddos-aggressive', origin.url, { ShieldDDosProtectionEnabled: true, ShieldDDosProtectionType: 2 });
    startWindow();
    expect(await statuses(zone.host, 3, BROWSER)).toEqual([200, 200, 503]);
    const challenge = challengeOf((await edge.get(zone.host, '/', BROWSER)).text);
    expect(challenge.bits).toBe(10);
    const cookie = `edgeplane_pass=${challenge.issued}.${solve(challenge.token, challenge.bits)}`;
    expect((await edge.get(zone.host, '/', { ...BROWSER, cookie })).status).toBe(200);
  });

  it("the page's own solver finds the nonce node:crypto finds", () => {
    const { solve: pageSolve } = new Function(`${SOLVER_SOURCE}; return { solve };`)() as {
      solve: (token: string, bits: number, from: number, count: number) => number;
    };
    for (const token of ['Zm9vYmFy', 'x'.repeat(43), 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c']) {
      expect(pageSolve(token, 10, 0, 1_000_000)).toBe(solve(token, 10));
    }
  });
});
