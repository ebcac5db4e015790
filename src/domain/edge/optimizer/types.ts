/**
 * The optimizer's documents: a request's image parameters, the plan made of them and the zone's
 * settings before the original is read, and what a transformation made.
 */

export type Gravity = 'center' | 'north' | 'south' | 'east' | 'west' | 'northeast' | 'northwest' | 'southeast' | 'southwest';
export type OutputFormat = 'webp' | 'avif' | 'jpeg' | 'png' | 'gif';
export type WatermarkPosition = 'BottomLeft' | 'BottomRight' | 'TopLeft' | 'TopRight' | 'Center' | 'CenterStretch';

/** What a request (or its class) asks of an image, each value checked (parameters.ts). */
export interface ImageParams {
  width?: number;
  height?: number;
  /** Width and height of the ratio the image is cut to around its centre. */
  aspectRatio?: [number, number];
  quality?: number;
  sharpen?: boolean;
  blur?: number;
  /** In the original's pixels; without x and y, placed by cropGravity. */
  crop?: { width: number; height: number; x?: number; y?: number };
  cropGravity?: Gravity;
  flip?: boolean;
  flop?: boolean;
  brightness?: number;
  saturation?: number;
  hue?: number;
  contrast?: number;
  autoOptimize?: 'low' | 'medium' | 'high';
  output?: OutputFormat;
  upscale?: boolean;
}

export interface WatermarkPlan {
  url: string;
  position: WatermarkPosition;
  /** Distance from the borders, in percent of the image's width and height. */
  offsetPercent: number;
  /** The image gets the watermark when its width or its height is above this. */
  minSize: number;
}

/** An image's transformation, decided from the request and the zone's settings before the original is read. */
export interface ImagePlan {
  params: ImageParams;
  /** The width an image asked for without a size is brought down to (0: none): the desktop's or the mobile's. */
  maxWidth: number;
  /** The quality when the request names none: the desktop's or the mobile's. */
  quality: number;
  /** The format the client accepts beyond the original's, when no output is asked (WebP, AVIF). */
  accepted: 'webp' | 'avif' | undefined;
  upscale: boolean;
  watermark: WatermarkPlan | undefined;
}

/** What the optimizer makes of a request, decided from its URL and headers. */
export type OptimizationPlan =
  | {
      kind: 'image';
      /** Says the variant apart from the original and from every other variant (appended to the original's cache key). */
      descriptor: string;
      /** The query the original is asked (and kept) with: the request's without the optimizer's parameters. */
      originQuery: string;
      /** The variant's format depends on the client's Accept: the answer says `Vary: Accept`. */
      variesByAccept: boolean;
      image: ImagePlan;
    }
  | { kind: 'minify'; loader: 'css' | 'js'; descriptor: string; originQuery: string; variesByAccept: false }
  | { kind: 'refused'; reason: string };

/** What a transformation made: its bytes and type, or the original kept (nothing gained, or nothing to do). */
export type Made = { kind: 'made'; body: Buffer; contentType: string } | { kind: 'original'; why: 'unchanged' | 'not-smaller' | 'unsupported' };
