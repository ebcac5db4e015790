/**
 * The zones' watermark images (OptimizerWatermarkUrl), fetched once per URL as an origin is (its
 * addresses judged the same way) and kept in memory: at most MAX_WATERMARKS images of at most
 * MAX_WATERMARK_BYTES each, for WATERMARK_TTL_MS (a watermark replaced at the same URL shows
 * within that time). Concurrent requests for one URL share its fetch. A URL that fails (or is not
 * an image libvips reads) is remembered as failed for FAILED_TTL_MS: its images are served without
 * a watermark meanwhile, rather than every request waiting on it.
 */
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { BoundedMap } from '../../bounded-map.js';
import type { OriginAddresses } from '../origin/addresses.js';
import { httpUrl } from '../origin/choice.js';
import { fetchOrigin } from '../origin/fetch.js';
import type { EdgeZone } from '../types.js';

export const MAX_WATERMARKS = 32;
export const MAX_WATERMARK_BYTES = 2 * 1024 * 1024;
const WATERMARK_TTL_MS = 10 * 60_000;
const FAILED_TTL_MS = 60_000;

interface Kept {
  image: Promise<Buffer | undefined>;
  until: number;
}

export class Watermarks {
  private readonly kept = new BoundedMap<string, Kept>(MAX_WATERMARKS);
  /** Watermark fetches made (tests look). */
  fetches = 0;

  constructor(
    private readonly addresses: OriginAddresses | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The image at `url`, or undefined when it could not be had. */
  get(zone: EdgeZone, url: string): Promise<Buffer | undefined> {
    const at = this.now();
    const known = this.kept.get(url);
    if (known && known.until > at) return known.image;
    const kept: Kept = { image: this.fetch(zone, url), until: at + WATERMARK_TTL_MS };
    this.kept.set(url, kept);
    void kept.image.then((image) => {
      if (image === undefined) kept.until = this.now() + FAILED_TTL_MS;
    });
    return kept.image;
  }

  private async fetch(zone: EdgeZone, raw: string): Promise<Buffer | undefined> {
    const url = httpUrl(raw);
    if (url === undefined) return undefined;
    this.fetches++;
    const result = await fetchOrigin(zone, {
      url,
      target: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { host: url.host, accept: 'image/png,image/*' },
      addresses: this.addresses,
    });
    if (!result.ok) return undefined;
    if (result.status !== 200) {
      result.body.resume();
      return undefined;
    }
    const bytes = await readAtMost(result.body, MAX_WATERMARK_BYTES);
    if (bytes === undefined) return undefined;
    // Read once here: an image libvips cannot read is a failed watermark, not a failed answer.
    const readable = await sharp(bytes, { limitInputPixels: 16_000_000 })
      .metadata()
      .then(() => true)
      .catch(() => false);
    return readable ? bytes : undefined;
  }
}

function readAtMost(body: Readable, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size)));
    body.once('error', () => resolve(undefined));
  });
}
