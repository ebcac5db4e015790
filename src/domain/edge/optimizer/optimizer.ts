/**
 * The optimizer: an original's bytes made into the variant a plan asks for (image.ts, minify.ts),
 * at most `concurrency` at once. A transformation waits for its turn in a bounded queue, for a
 * bounded time; one that finds the queue full or waits too long, or an original libvips or esbuild
 * cannot read, leaves the original (never an error: the client gets the file it asked for).
 *
 * Decoding's memory is bounded by the two figures together: `concurrency` transformations at once,
 * each of an original of at most MAX_INPUT_PIXELS (image.ts). libvips streams most work in tiles,
 * and shrinks a JPEG while decoding it, so a transformation holds far less than its original's
 * pixels; a watermarked one holds them once (4 bytes a pixel) while the watermark is composited.
 */
import sharp from 'sharp';
import { ConcurrencyLimit } from '../shield/concurrency-limit.js';
import type { EdgeZone } from '../types.js';
import { transformImage } from './image.js';
import { minify } from './minify.js';
import type { Made, OptimizationPlan } from './types.js';
import type { Watermarks } from './watermarks.js';

export interface OptimizerLimits {
  /** Transformations at once (default: half the cores, at least one). */
  concurrency: number;
  /** Transformations waiting for a turn; more: the original is answered. */
  maxQueued: number;
  /** How long a transformation waits for its turn before the original is answered. */
  maxWaitMs: number;
}

export type Optimized = (Made | { kind: 'original'; why: 'broken' | 'busy' | 'not-its-type' }) & { ms: number };

type Doable = Exclude<OptimizationPlan, { kind: 'refused' }>;

export class Optimizer {
  /** What was done (tests and the bench look): variants made, originals kept, broken originals. */
  readonly counts = { made: 0, kept: 0, broken: 0, busy: 0 };
  private readonly slots = new ConcurrencyLimit();
  private readonly bounds: { maxConcurrent: number; maxQueued: number; maxWaitMs: number };

  constructor(
    private readonly watermarks: Watermarks,
    limits: OptimizerLimits,
  ) {
    this.bounds = { maxConcurrent: limits.concurrency, maxQueued: limits.maxQueued, maxWaitMs: limits.maxWaitMs };
    // Each variant is made once and kept by the edge's cache: libvips' own cache of operations would only hold memory.
    sharp.cache(false);
  }

  async optimize(zone: EdgeZone, plan: Doable, body: Buffer, contentType: string | undefined): Promise<Optimized> {
    const started = performance.now();
    if (!ofItsType(plan, contentType)) return { kind: 'original', why: 'not-its-type', ms: 0 };
    const turn = await this.slots.take(this.bounds);
    if (turn.kind === 'refused') {
      this.counts.busy++;
      return { kind: 'original', why: 'busy', ms: 0 };
    }
    try {
      const made = await this.make(zone, plan, body, contentType);
      if (made.kind === 'made') this.counts.made++;
      else this.counts.kept++;
      return { ...made, ms: performance.now() - started };
    } catch {
      // An original its library cannot read is answered as it is: the origin's file, not the edge's failure.
      this.counts.broken++;
      return { kind: 'original', why: 'broken', ms: performance.now() - started };
    } finally {
      turn.release();
    }
  }

  private async make(zone: EdgeZone, plan: Doable, body: Buffer, contentType: string | undefined): Promise<Made> {
    if (plan.kind === 'minify') return minify(body, plan.loader, contentType);
    const mark = plan.image.watermark;
    const watermark = mark ? await this.watermarks.get(zone, mark.url) : undefined;
    return transformImage(body, plan.image, watermark);
  }
}

/** The origin's Content-Type agrees with what the path said the file is. */
function ofItsType(plan: Doable, contentType: string | undefined): boolean {
  const type = (contentType ?? '').toLowerCase();
  if (plan.kind === 'image') return type.startsWith('image/');
  return plan.loader === 'css' ? type.startsWith('text/css') : /javascript|ecmascript/.test(type);
}
