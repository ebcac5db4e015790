/**
 * The optimizer's query parameters (the platform's dynamic images): which names are the
 * optimizer's, and their values read into ImageParams, each checked against its range. A value out
 * of range or unreadable is refused with a reason naming the parameter (the edge answers 400).
 */
import type { Gravity, ImageParams, OutputFormat } from './types.js';

/** The parameter names the optimizer reads; they are taken out of the query the origin and the original's cache key see. */
export const OPTIMIZER_PARAMS: ReadonlySet<string> = new Set([
  'width',
  'height',
  'aspect_ratio',
  'quality',
  'sharpen',
  'blur',
  'crop',
  'crop_gravity',
  'flip',
  'flop',
  'brightness',
  'saturation',
  'hue',
  'contrast',
  'auto_optimize',
  'class',
  'output',
  'format',
  'upscaling',
]);

/** The largest width or height a request may ask for (the output's pixels stay bounded whatever the original). */
export const MAX_DIMENSION = 8192;

const GRAVITIES: readonly Gravity[] = ['center', 'north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest'];
const FORMATS: Record<string, OutputFormat> = { webp: 'webp', avif: 'avif', jpeg: 'jpeg', jpg: 'jpeg', png: 'png', gif: 'gif' };

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The query split: the optimizer's parameters (name → last value) and the rest as it came, for the origin. */
export function splitQuery(query: string): { optimizer: Map<string, string>; rest: string } {
  const optimizer = new Map<string, string>();
  if (query === '') return { optimizer, rest: '' };
  const kept: string[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decoded(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
    if (OPTIMIZER_PARAMS.has(name)) optimizer.set(name, decoded(eq < 0 ? '' : pair.slice(eq + 1)).trim());
    else kept.push(pair);
  }
  return { optimizer, rest: kept.join('&') };
}

/** The parameters' values read and checked; the first one out of range refuses them all. */
export function parseImageParams(values: ReadonlyMap<string, string>): Parsed<ImageParams> {
  const params: ImageParams = {};
  for (const [name, raw] of values) {
    if (raw === '' || name === 'class') continue;
    const reason = readParam(params, name, raw);
    if (reason !== undefined) return { ok: false, reason: `The optimizer parameter ${name}=${raw} is not valid: ${reason}.` };
  }
  return { ok: true, value: params };
}

function readParam(params: ImageParams, name: string, raw: string): string | undefined {
  switch (name) {
    case 'width':
    case 'height': {
      const n = integer(raw, 1, MAX_DIMENSION);
      if (n === undefined) return `a number of pixels from 1 to ${MAX_DIMENSION} is expected`;
      params[name] = n;
      return;
    }
    case 'quality': {
      const n = integer(raw, 0, 100);
      if (n === undefined) return 'a number from 0 to 100 is expected';
      params.quality = Math.max(1, n);
      return;
    }
    case 'brightness':
    case 'saturation':
    case 'contrast':
    case 'hue': {
      const n = integer(raw, -100, 100);
      if (n === undefined) return 'a number from -100 to 100 is expected';
      if (n !== 0) params[name] = n;
      return;
    }
    case 'blur': {
      const n = integer(raw, 0, 100);
      if (n === undefined) return 'a radius from 0 to 100 is expected';
      if (n > 0) params.blur = n;
      return;
    }
    case 'sharpen':
    case 'flip':
    case 'flop': {
      const b = flag(raw);
      if (b === undefined) return 'true or false is expected';
      if (b) params[name] = true;
      return;
    }
    case 'upscaling': {
      if (raw !== 'off' && raw !== 'resampling') return 'off or resampling is expected';
      params.upscale = raw === 'resampling';
      return;
    }
    case 'aspect_ratio': {
      if (raw === 'auto') return;
      const m = /^(\d{1,4})[:x](\d{1,4})$/.exec(raw);
      if (!m || Number(m[1]) === 0 || Number(m[2]) === 0) return 'a ratio such as 16:9 is expected';
      params.aspectRatio = [Number(m[1]), Number(m[2])];
      return;
    }
    case 'crop': {
      const parts = raw.split(',').map((p) => integer(p.trim(), 0, 100_000));
      if ((parts.length !== 2 && parts.length !== 4) || parts.some((p) => p === undefined) || parts[0] === 0 || parts[1] === 0) {
        return 'width,height or width,height,x,y in pixels is expected';
      }
      const [width, height, x, y] = parts as number[];
      params.crop = parts.length === 4 ? { width: width!, height: height!, x: x!, y: y! } : { width: width!, height: height! };
      return;
    }
    case 'crop_gravity': {
      const gravity = GRAVITIES.find((g) => g === raw.toLowerCase());
      if (gravity === undefined) return `one of ${GRAVITIES.join(', ')} is expected`;
      params.cropGravity = gravity;
      return;
    }
    case 'auto_optimize': {
      const level = raw.toLowerCase();
      if (level !== 'low' && level !== 'medium' && level !== 'high') return 'low, medium or high is expected';
      params.autoOptimize = level;
      return;
    }
    case 'output':
    case 'format': {
      const format = FORMATS[raw.toLowerCase()];
      if (format === undefined) return `one of ${Object.keys(FORMATS).join(', ')} is expected`;
      params.output = format;
      return;
    }
    default:
      return 'unknown parameter';
  }
}

function integer(raw: string, min: number, max: number): number | undefined {
  if (!/^-?\d+(\.\d+)?$/.test(raw)) return undefined;
  const n = Math.round(Number(raw));
  return n >= min && n <= max ? n : undefined;
}

function flag(raw: string): boolean | undefined {
  const v = raw.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
