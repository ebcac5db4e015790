/**
 * The optimizer's pieces without a server: the query read into parameters (what is the
 * optimizer's, what reaches the origin), a plan's descriptor the same whatever the parameters'
 * order, plans remembered, the watermark at each position, and transformations beyond the
 * concurrency bound answered with the original.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { transformImage } from '../../../src/domain/edge/optimizer/image.js';
import { Optimizer } from '../../../src/domain/edge/optimizer/optimizer.js';
import { parseImageParams, splitQuery } from '../../../src/domain/edge/optimizer/parameters.js';
import { OptimizationPlans, planOf } from '../../../src/domain/edge/optimizer/plan.js';
import { Watermarks } from '../../../src/domain/edge/optimizer/watermarks.js';
import type { ImagePlan } from '../../../src/domain/edge/optimizer/types.js';
import type { EdgeRequest, EdgeZone } from '../../../src/domain/edge/types.js';
import { newPullZone } from '../../../src/domain/pull-zones/defaults.js';
import { WATERMARK_POSITIONS } from '../../../src/schemas/pull-zone.js';

const zone: EdgeZone = {
  ...newPullZone({ id: 1, userId: 'u', name: 'z', originUrl: 'https://origin.example', type: 0, systemHostname: { id: 1, value: 'z.edgeplane.test' } }),
  OptimizerEnabled: true,
};
const request = (headers: Record<string, string> = {}) => ({ method: 'GET', path: '/a.jpg', query: '', host: 'h', headers }) as unknown as EdgeRequest;

describe('parameters', () => {
  it("takes the optimizer's parameters out of the query and leaves the rest for the origin, as it came", () => {
    const { optimizer, rest } = splitQuery('v=2&width=100&Height=50&x=%20y&class=thumb');
    expect([...optimizer]).toEqual([
      ['width', '100'],
      ['height', '50'],
      ['class', 'thumb'],
    ]);
    expect(rest).toBe('v=2&x=%20y');
  });

  it('reads each value into its range', () => {
    const values = new Map([
      ['width', '100'],
      ['quality', '0'],
      ['crop', '10,20,3,4'],
      ['aspect_ratio', '16:9'],
      ['flip', 'true'],
      ['brightness', '0'],
      ['format', 'JPG'],
    ]);
    expect(parseImageParams(values)).toEqual({
      ok: true,
      value: { width: 100, quality: 1, crop: { width: 10, height: 20, x: 3, y: 4 }, aspectRatio: [16, 9], flip: true, output: 'jpeg' },
    });
    expect(parseImageParams(new Map([['height', '9000']]))).toMatchObject({ ok: false, reason: expect.stringContaining('height=9000') });
  });
});

describe('plans', () => {
  it('say the same variant apart by its parameters, not their order; the device and the Accept count', () => {
    const of = (query: string, headers: Record<string, string> = {}) => {
      const plan = planOf(zone, request(headers), '/a.jpg', query);
      return plan?.kind === 'image' ? plan.descriptor : plan?.kind;
    };
    expect(of('width=10&height=20')).toBe(of('height=20&width=10'));
    expect(of('width=10')).not.toBe(of('width=10', { accept: 'image/webp' }));
    expect(of('')).not.toBe(of('', { 'user-agent': 'Android Mobile' }));
    expect(planOf(zone, request(), '/a.gif', 'width=10')).toBeUndefined();
    expect(planOf({ ...zone, OptimizerEnabled: false }, request(), '/a.jpg', 'width=10')).toBeUndefined();
  });

  it('are remembered per zone, query, device and accepted format, and equal those made afresh', () => {
    const plans = new OptimizationPlans();
    const cases: [string, string, Record<string, string>][] = [
      ['/a.jpg', 'width=10', {}],
      ['/b.png', 'width=10', { accept: 'image/webp' }],
      ['/a.jpg', 'width=10', { 'user-agent': 'Android Mobile' }],
      ['/a.jpg', 'width=oops', {}],
      ['/s.css', 'v=1', {}],
      ['/a.gif', 'width=10', {}],
    ];
    for (const [path, query, headers] of cases) {
      const first = plans.of(zone, request(headers), path, query);
      expect(first).toEqual(planOf(zone, request(headers), path, query));
      expect(plans.of(zone, request(headers), path, query)).toBe(first);
    }
    expect(plans.of(zone, request(), '/b.jpg', 'width=10')).toBe(plans.of(zone, request(), '/a.jpg', 'width=10'));
    // A changed zone is a new document: its plans are its own.
    const changed = { ...zone, OptimizerImageQuality: 40 };
    expect(plans.of(changed, request(), '/a.jpg', 'width=10')).toMatchObject({ image: { quality: 40 } });
  });
});

describe('the watermark', () => {
  it('lands at each OptimizerWatermarkPosition, the offset in percent from the borders it is placed against', async () => {
    // A white 100x50 image, a red 10x10 mark, 10% offset: 10 px from the sides, 5 from top and bottom.
    const white = await sharp({ create: { width: 100, height: 50, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const mark = await sharp({ create: { width: 10, height: 10, channels: 4, background: '#ff0000' } })
      .png()
      .toBuffer();
    const image = (position: (typeof WATERMARK_POSITIONS)[keyof typeof WATERMARK_POSITIONS]): ImagePlan => ({
      params: { output: 'png' },
      maxWidth: 0,
      quality: 85,
      accepted: undefined,
      upscale: false,
      watermark: { url: 'https://origin.example/mark.png', position, offsetPercent: 10, minSize: 20 },
    });
    /** The red pixels' box: left, top, right, bottom (inclusive). */
    const redBox = async (position: (typeof WATERMARK_POSITIONS)[keyof typeof WATERMARK_POSITIONS]) => {
      const made = await transformImage(white, image(position), mark);
      if (made.kind !== 'made') throw new Error(`not made: ${made.why}`);
      const { data, info } = await sharp(made.body).raw().toBuffer({ resolveWithObject: true });
      const box = [info.width, info.height, -1, -1];
      for (let y = 0; y < info.height; y++)
        for (let x = 0; x < info.width; x++) {
          const at = (y * info.width + x) * info.channels;
          if (data[at]! < 200 || data[at + 1]! > 50) continue;
          box[0] = Math.min(box[0]!, x);
          box[1] = Math.min(box[1]!, y);
          box[2] = Math.max(box[2]!, x);
          box[3] = Math.max(box[3]!, y);
        }
      return box;
    };
    const expected: Record<string, number[]> = {
      BottomLeft: [10, 35, 19, 44],
      BottomRight: [80, 35, 89, 44],
      TopLeft: [10, 5, 19, 14],
      TopRight: [80, 5, 89, 14],
      Center: [45, 20, 54, 29],
      // Over all of it, whatever the offset.
      CenterStretch: [0, 0, 99, 49],
    };
    const positions = Object.values(WATERMARK_POSITIONS);
    expect(positions.sort()).toEqual(Object.keys(expected).sort());
    const boxes = await Promise.all(positions.map(async (position) => [position, await redBox(position)] as const));
    expect(Object.fromEntries(boxes)).toEqual(expected);
  });
});

describe('the concurrency bound', () => {
  it('answers the original when the queue is full, and runs again once a turn is free', async () => {
    const optimizer = new Optimizer(new Watermarks(undefined), { concurrency: 1, maxQueued: 0, maxWaitMs: 0 });
    const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const plan = planOf(zone, request(), '/a.jpg', 'width=32');
    if (plan?.kind !== 'image') throw new Error('no image plan');
    const [first, second] = await Promise.all([optimizer.optimize(zone, plan, image, 'image/jpeg'), optimizer.optimize(zone, plan, image, 'image/jpeg')]);
    expect([first.kind, second]).toEqual(['made', { kind: 'original', why: 'busy', ms: 0 }]);
    expect((await optimizer.optimize(zone, plan, image, 'image/jpeg')).kind).toBe('made');
    expect(optimizer.counts).toMatchObject({ made: 2, busy: 1 });
  });
});
