/**
 * What the optimizer makes of a request, from its path, query and headers and the zone's settings,
 * before the original is read: an image's transformation (the query's parameters or its class,
 * the device's max width and quality, the format the client accepts, the watermark), a stylesheet
 * or script minified, nothing, or a refusal (a parameter out of range, an unknown class).
 *
 * The files are told apart by their extension, as the cache key's image vary does: JPEG, PNG,
 * WebP and AVIF images (GIF is left as it is: its frames would be lost), `.css`, `.js` and `.mjs`.
 * With OptimizerForceClasses, only `class` is read: the other parameters are taken out of the
 * query and ignored, so they can neither make variants nor reach the origin.
 */
import { WATERMARK_POSITIONS } from '../../../schemas/pull-zone.js';
import { BoundedMap } from '../../bounded-map.js';
import { isMobileAgent } from '../cache/key.js';
import type { EdgeRequest, EdgeZone } from '../types.js';
import { parseImageParams, splitQuery } from './parameters.js';
import type { ImagePlan, ImageParams, OptimizationPlan, WatermarkPlan } from './types.js';

const IMAGE_PATH = /\.(jpe?g|png|webp|avif)$/i;
const CSS_PATH = /\.css$/i;
const JS_PATH = /\.m?js$/i;

/** What a file is to the optimizer, by its extension. */
type FileKind = 'css' | 'js' | 'image';

const kindOf = (path: string): FileKind | undefined => (CSS_PATH.test(path) ? 'css' : JS_PATH.test(path) ? 'js' : IMAGE_PATH.test(path) ? 'image' : undefined);

export function planOf(zone: EdgeZone, request: EdgeRequest, path: string, query: string): OptimizationPlan | undefined {
  if (!zone.OptimizerEnabled) return undefined;
  const kind = kindOf(path);
  if (kind === undefined) return undefined;
  return planFor(zone, kind, query, isMobileAgent(request.headers['user-agent']), acceptedFormat(zone, request.headers['accept']));
}

/** Plans kept per zone document (a changed zone is a new document): past this many, the zone's are forgotten. */
const PLANS_PER_ZONE = 512;

/**
 * planOf, remembered: a plan depends only on the zone, the file's kind, the query, the device and
 * the format the client accepts, and a page's images are asked with the same few queries again
 * and again. Parsing the parameters and writing the descriptor cost a variant's hit ~2 µs more
 * than a plain hit (BENCHMARKS.md); remembered, a Map lookup. One per edge plane.
 */
export class OptimizationPlans {
  private readonly byZone = new WeakMap<EdgeZone, BoundedMap<string, OptimizationPlan | null>>();

  of(zone: EdgeZone, request: EdgeRequest, path: string, query: string): OptimizationPlan | undefined {
    if (!zone.OptimizerEnabled) return undefined;
    const kind = kindOf(path);
    if (kind === undefined) return undefined;
    const mobile = kind === 'image' && isMobileAgent(request.headers['user-agent']);
    const accepted = kind === 'image' ? acceptedFormat(zone, request.headers['accept']) : undefined;
    const memo = `${kind}${mobile ? 'm' : 'd'}${accepted ?? ''}?${query}`;
    let plans = this.byZone.get(zone);
    if (plans === undefined) this.byZone.set(zone, (plans = new BoundedMap(PLANS_PER_ZONE)));
    const known = plans.get(memo);
    if (known !== undefined) return known ?? undefined;
    const plan = planFor(zone, kind, query, mobile, accepted);
    plans.set(memo, plan ?? null);
    return plan;
  }
}

/** The plan for a file of `kind` asked with `query` from a device (`mobile`) that accepts `accepted`. */
function planFor(zone: EdgeZone, kind: FileKind, query: string, mobile: boolean, accepted: 'webp' | 'avif' | undefined): OptimizationPlan | undefined {
  if (kind === 'css') return zone.OptimizerMinifyCSS ? minify('css', query) : undefined;
  if (kind === 'js') return zone.OptimizerMinifyJavaScript ? minify('js', query) : undefined;

  let params: ImageParams = {};
  let originQuery = query;
  if (zone.OptimizerEnableManipulationEngine) {
    const split = splitQuery(query);
    originQuery = split.rest;
    const values = requestedValues(zone, split.optimizer);
    if (typeof values === 'string') return { kind: 'refused', reason: values };
    const parsed = parseImageParams(values);
    if (!parsed.ok) return { kind: 'refused', reason: parsed.reason };
    params = parsed.value;
  }
  const watermark = watermarkOf(zone);
  const mayNegotiate = params.output === undefined && (zone.OptimizerEnableWebP || zone.EnableAvifVary);
  const automatic = zone.OptimizerAutomaticOptimizationEnabled;
  if (Object.keys(params).length === 0 && !automatic && !mayNegotiate && !watermark) return undefined;
  const image: ImagePlan = {
    params,
    maxWidth: automatic ? (mobile ? zone.OptimizerMobileMaxWidth : zone.OptimizerDesktopMaxWidth) : 0,
    quality: mobile ? zone.OptimizerMobileImageQuality : zone.OptimizerImageQuality,
    accepted: mayNegotiate ? accepted : undefined,
    upscale: params.upscale ?? zone.OptimizerEnableUpscaling,
    watermark,
  };
  return { kind: 'image', descriptor: descriptorOf(image), originQuery, variesByAccept: mayNegotiate, image };
}

const minify = (loader: 'css' | 'js', query: string): OptimizationPlan => ({
  kind: 'minify',
  loader,
  descriptor: 'min',
  originQuery: query,
  variesByAccept: false,
});

/** The values the request asks for: its class's properties, then its own parameters over them (none of those with OptimizerForceClasses). */
function requestedValues(zone: EdgeZone, asked: ReadonlyMap<string, string>): Map<string, string> | string {
  const className = asked.get('class');
  const own = zone.OptimizerForceClasses ? [] : [...asked].filter(([name]) => name !== 'class');
  if (className === undefined || className === '') return new Map(own);
  const found = (zone.OptimizerClasses ?? []).find((c) => c.Name === className);
  if (found === undefined) return `The optimizer class "${className}" is not one of the pull zone's classes.`;
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(found.Properties)) values.set(name.toLowerCase(), String(value).trim());
  for (const [name, value] of own) values.set(name, value);
  return values;
}

/** AVIF where the zone allows it (EnableAvifVary), else WebP (OptimizerEnableWebP), when the client's Accept names it. */
function acceptedFormat(zone: EdgeZone, accept: string | undefined): 'webp' | 'avif' | undefined {
  if (accept === undefined) return undefined;
  if (zone.EnableAvifVary && accept.includes('image/avif')) return 'avif';
  if (zone.OptimizerEnableWebP && accept.includes('image/webp')) return 'webp';
  return undefined;
}

function watermarkOf(zone: EdgeZone): WatermarkPlan | undefined {
  const url = zone.OptimizerWatermarkUrl;
  if (!zone.OptimizerWatermarkEnabled || !url) return undefined;
  return {
    url,
    position: WATERMARK_POSITIONS[zone.OptimizerWatermarkPosition] ?? 'BottomLeft',
    offsetPercent: Math.min(50, Math.max(0, zone.OptimizerWatermarkOffset)),
    minSize: zone.OptimizerWatermarkMinImageSize,
  };
}

/** The plan as a key: the same transformation gives the same descriptor whatever the parameters' order. */
function descriptorOf(image: ImagePlan): string {
  const params = image.params as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const name of Object.keys(params).sort()) sorted[name] = params[name];
  const w = image.watermark;
  return JSON.stringify([sorted, image.maxWidth, image.quality, image.accepted ?? '', image.upscale, w ? [w.url, w.position, w.offsetPercent, w.minSize] : 0]);
}
