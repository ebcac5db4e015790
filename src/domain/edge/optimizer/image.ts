/**
 * An image transformed by sharp (libvips, on libuv's threads: the event loop only waits): the
 * watermark first, then the crop, the aspect ratio, the resize, the adjustments, and the output
 * format and quality. Decoding is bounded: an original above MAX_INPUT_PIXELS is not decoded
 * (its answer is the original), and sharp's own `limitInputPixels` refuses one that lies about
 * its size. Nothing asked and nothing gained leaves the original's bytes.
 */
import sharp, { type Region, type Sharp, type SharpOptions } from 'sharp';
import type { Gravity, ImagePlan, Made, OutputFormat } from './types.js';
import { placeWatermark } from './watermark-placement.js';

/** The most pixels an original may have to be transformed (24-megapixel photographs pass; a 40-megapixel one too). */
export const MAX_INPUT_PIXELS = 40_000_000;

const DECODED: Partial<Record<string, OutputFormat>> = { jpeg: 'jpeg', png: 'png', webp: 'webp', heif: 'avif' };
const CONTENT_TYPES: Record<OutputFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif', gif: 'image/gif' };

const DECODING: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' };

/** The plan applied to `input`; `watermark` is the zone's watermark image when the plan has one. Rejects on an image libvips cannot read. */
export async function transformImage(input: Buffer, plan: ImagePlan, watermark: Buffer | undefined): Promise<Made> {
  // One instance reads the header, then runs the pipeline (the metadata is read without decoding).
  const opened = sharp(input, DECODING);
  const meta = await opened.metadata();
  const source = DECODED[meta.format];
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (source === undefined || !width || !height || width * height > MAX_INPUT_PIXELS || (meta.pages ?? 1) > 1) {
    return { kind: 'original', why: 'unsupported' };
  }
  const { params } = plan;
  const marked = watermark && plan.watermark && (width > plan.watermark.minSize || height > plan.watermark.minSize);
  const image = marked ? await watermarked(input, width, height, watermark, plan) : opened.autoOrient();

  let changed = marked === true;
  const region = regionOf(width, height, plan);
  if (region) {
    image.extract(region);
    changed = true;
  }
  const target = resizeOf(plan);
  if (target) image.resize({ ...target, fit: 'inside', withoutEnlargement: !target.enlarge });
  if (params.flip) image.flip();
  if (params.flop) image.flop();
  changed = adjusted(image, plan) || changed || params.flip === true || params.flop === true;

  const format = params.output ?? plan.accepted ?? source;
  const quality = params.quality ?? plan.quality;
  if (format === 'jpeg' && meta.hasAlpha) image.flatten({ background: '#ffffff' });
  encode(image, format, quality);
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  changed ||= format !== source || info.width !== width || info.height !== height;
  // Only re-encoded, and no smaller: the original is the better answer.
  if (!changed && data.length >= input.length) return { kind: 'original', why: 'not-smaller' };
  return { kind: 'made', body: data, contentType: CONTENT_TYPES[format] };
}

/** The original with the watermark composited, decoded once (raw pixels, bounded by MAX_INPUT_PIXELS), for the transformations after it. */
async function watermarked(input: Buffer, width: number, height: number, watermark: Buffer, plan: ImagePlan): Promise<Sharp> {
  const mark = await placeWatermark(watermark, width, height, plan.watermark!);
  const { data, info } = await sharp(input, DECODING)
    .autoOrient()
    .composite([{ input: mark.body, left: mark.left, top: mark.top }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/** The part of the original kept: the crop (in the original's pixels), then the aspect ratio around its centre. */
function regionOf(width: number, height: number, plan: ImagePlan): Region | undefined {
  const { crop, aspectRatio } = plan.params;
  let region: Region = { left: 0, top: 0, width, height };
  if (crop) {
    const w = Math.min(crop.width, width);
    const h = Math.min(crop.height, height);
    if (crop.x !== undefined && crop.y !== undefined) {
      const left = Math.min(crop.x, width - 1);
      const top = Math.min(crop.y, height - 1);
      region = { left, top, width: Math.min(w, width - left), height: Math.min(h, height - top) };
    } else region = { ...gravityOffset(plan.params.cropGravity ?? 'center', width - w, height - h), width: w, height: h };
  }
  if (aspectRatio) {
    const [rw, rh] = aspectRatio;
    const w = Math.min(region.width, Math.round((region.height * rw) / rh));
    const h = Math.min(region.height, Math.round((region.width * rh) / rw));
    region = {
      left: region.left + Math.floor((region.width - w) / 2),
      top: region.top + Math.floor((region.height - h) / 2),
      width: Math.max(1, w),
      height: Math.max(1, h),
    };
  }
  return region.width === width && region.height === height ? undefined : region;
}

/** Where a crop of the given spare room sits (0 spare: at the edge). */
function gravityOffset(gravity: Gravity, spareX: number, spareY: number): { left: number; top: number } {
  const left = gravity.endsWith('west') ? 0 : gravity.endsWith('east') ? spareX : Math.floor(spareX / 2);
  const top = gravity.startsWith('north') ? 0 : gravity.startsWith('south') ? spareY : Math.floor(spareY / 2);
  return { left, top };
}

/** The size asked for (the smaller image of width and height wins: `inside`), or the device's max width for an image asked without one. */
function resizeOf(plan: ImagePlan): { width?: number; height?: number; enlarge: boolean } | undefined {
  const { width, height } = plan.params;
  if (width !== undefined || height !== undefined) return { ...(width ? { width } : {}), ...(height ? { height } : {}), enlarge: plan.upscale };
  return plan.maxWidth > 0 ? { width: plan.maxWidth, enlarge: false } : undefined;
}

/** Brightness, saturation, hue, contrast, sharpening, blur, and auto_optimize's presets; true when any was applied. */
function adjusted(image: Sharp, plan: ImagePlan): boolean {
  const { brightness = 0, saturation = 0, hue = 0, contrast = 0, sharpen, blur, autoOptimize } = plan.params;
  const preset = autoOptimize === undefined ? undefined : AUTO_OPTIMIZE[autoOptimize];
  const saturated = (1 + saturation / 100) * (preset?.saturation ?? 1);
  if (brightness !== 0 || saturated !== 1 || hue !== 0) {
    image.modulate({ brightness: 1 + brightness / 100, saturation: saturated, hue: Math.round(hue * 1.8) });
  }
  const slope = (1 + contrast / 100) * (preset?.contrast ?? 1);
  if (slope !== 1) image.linear(slope, 128 * (1 - slope));
  if (sharpen || preset) image.sharpen(preset ? { sigma: preset.sharpen } : undefined);
  if (blur) image.blur(Math.max(0.3, blur / 2));
  return brightness !== 0 || saturated !== 1 || hue !== 0 || slope !== 1 || sharpen === true || preset !== undefined || blur !== undefined;
}

/** auto_optimize's levels: a light sharpening, then more colour and contrast (edgeplane's choice; the platform does not publish its own). */
const AUTO_OPTIMIZE = {
  low: { sharpen: 0.5, saturation: 1, contrast: 1 },
  medium: { sharpen: 0.8, saturation: 1.05, contrast: 1.03 },
  high: { sharpen: 1, saturation: 1.1, contrast: 1.06 },
} as const;

function encode(image: Sharp, format: OutputFormat, quality: number): void {
  switch (format) {
    case 'jpeg':
      image.jpeg({ quality });
      return;
    case 'webp':
      image.webp({ quality });
      return;
    case 'avif':
      // libaom's default effort (4) takes seconds for a large image; 2 keeps a miss in tens of milliseconds.
      image.avif({ quality, effort: 2 });
      return;
    case 'png':
      image.png();
      return;
    case 'gif':
      image.gif();
      return;
  }
}
