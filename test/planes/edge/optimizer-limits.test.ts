/**
 * The optimizer's bounds: a 24-megapixel photograph resized to 800 px within the memory the README
 * states (the edge's process measured while it works), and an image claiming more pixels than
 * MAX_INPUT_PIXELS answered as it came, never decoded.
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_INPUT_PIXELS } from '../../../src/domain/edge/optimizer/image.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, type TestPullZone } from '../../helpers/edge-plane.js';

/** What the README states one transformation of a JPEG may add to the process's memory. */
const JPEG_BOUND_BYTES = 64 * 1024 * 1024;

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let zone: TestPullZone;
const files = new Map<string, Buffer>();

beforeAll(async () => {
  t = await createTestApp();
  // 6000x4000: 24 megapixels (one colour, so that the file is small; decoding it is as big as any).
  files.set(
    '/large.jpg',
    await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#4080c0' } })
      .jpeg()
      .toBuffer(),
  );
  files.set('/bomb.png', await claimingSize(30_000, 30_000));
  origin = await startOrigin((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    res.writeHead(200, { 'content-type': path.endsWith('.png') ? 'image/png' : 'image/jpeg', 'cache-control': 'max-age=60' }).end(files.get(path));
  });
  edge = await startEdgePlane(t, { cacheBytes: 256 * 1024 * 1024 });
  zone = await createPullZone(t, 'optimize-limits', origin.url, { OptimizerEnabled: true });
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

it('resizes a 24-megapixel JPEG to width=800 within the memory bound', async () => {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampling = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const res = await edge.get(zone.host, '/large.jpg?width=800');
  clearInterval(sampling);
  const meta = await sharp(res.body).metadata();
  expect([res.status, meta.width, meta.height]).toEqual([200, 800, 533]);
  expect(peak - base).toBeLessThan(JPEG_BOUND_BYTES);
});

it(`answers an image of more than ${MAX_INPUT_PIXELS / 1e6} megapixels as it came, without decoding it`, async () => {
  const res = await edge.get(zone.host, '/bomb.png?width=100');
  expect([res.status, res.body.equals(files.get('/bomb.png')!)]).toEqual([200, true]);
  expect(edge.core.pipeline.optimizations.made).toBe(1);
});

/** A small PNG whose header claims `width` x `height` pixels (a decompression bomb's shape). */
async function claimingSize(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  // The IHDR chunk follows the 8-byte signature: length (4), type (4), width (4), height (4), ..., CRC over type and data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
