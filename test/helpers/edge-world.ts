/**
 * What most edge tests run in: a test app, a real origin, and the app's edge plane, opened once
 * before the file's tests (in the enclosing `describe`) and closed after them. Read the fields
 * inside the tests: they are set by then.
 *
 *   const world = useEdgeWorld();
 *   const zone = await world.zone('my-zone', { BlockPostRequests: true });
 *   const res = await world.edge.get(zone.host, '/a.txt');
 */
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import {
  createPullZone,
  type EdgePlane,
  type EdgePlaneOptions,
  type OriginHandler,
  startEdgePlane,
  startOrigin,
  type TestOrigin,
  type TestPullZone,
} from './edge-plane.js';

export interface EdgeWorld {
  t: TestContext;
  origin: TestOrigin;
  edge: EdgePlane;
  /** A pull zone of the test account pulling from the world's origin, with `settings` applied. */
  zone(name: string, settings?: Record<string, unknown>): Promise<TestPullZone>;
}

/** `handler` is the origin's (by default it answers `origin <path>`, cacheable for a minute); `options` the edge plane's (`tls: true` adds its HTTPS listener). */
export function useEdgeWorld(handler?: OriginHandler, options: EdgePlaneOptions = {}): EdgeWorld {
  const world = { zone: (name, settings) => createPullZone(world.t, name, world.origin.url, settings) } as EdgeWorld;
  beforeAll(async () => {
    world.t = await createTestApp();
    world.origin = await startOrigin(handler);
    world.edge = await startEdgePlane(world.t, options);
  });
  afterAll(async () => {
    await world.edge?.close();
    await world.origin?.close();
    await world.t?.close();
  });
  return world;
}
