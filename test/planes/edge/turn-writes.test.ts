/**
 * The edge's plain HTTP listener writes its answers at the end of the event loop's turn (as the
 * API does, planes/common/turn-writes.ts): a burst of concurrent answers each reaches its own
 * client whole, and closing the plane still delivers the answer of a request in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';

let t: TestContext;
let origin: TestOrigin;

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin((req, res) => {
    const answer = () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
      res.end(`origin ${req.url} `.repeat(req.url?.startsWith('/big') ? 20_000 : 1));
    };
    if (req.url?.startsWith('/slow')) setTimeout(answer, 300);
    else answer();
  });
});
afterAll(async () => {
  await origin?.close();
  await t?.close();
});

describe('edge answers written at the end of the turn', () => {
  let edge: EdgePlane | undefined;
  afterAll(async () => {
    await edge?.close();
  });

  it('gives each of a burst of concurrent requests its own answer, whole', async () => {
    edge = await startEdgePlane(t);
    const zone = await createPullZone(t, 'turn-burst', origin.url);
    const paths = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? `/big-${i % 8}` : `/p-${i % 10}`));
    const answers = await Promise.all(paths.map((path) => edge!.get(zone.host, path)));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(`origin ${paths[i]} `.repeat(paths[i]!.startsWith('/big') ? 20_000 : 1));
    }
  });

  it('delivers the answer of a request in flight when the plane closes', async () => {
    const closing = await startEdgePlane(t);
    const zone = await createPullZone(t, 'turn-close', origin.url);
    const inFlight = closing.get(zone.host, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = closing.close();
    const answer = await inFlight;
    await closed;
    expect([answer.status, answer.text]).toEqual([200, 'origin /slow ']);
  });
});
