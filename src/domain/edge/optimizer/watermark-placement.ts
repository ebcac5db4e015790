/**
 * Where the watermark goes on an image: at a corner or the centre, `offsetPercent` of the image's
 * width and height from the borders it is placed against; made smaller to fit inside the image
 * (never larger), or stretched over all of it (CenterStretch).
 */
import sharp from 'sharp';
import type { WatermarkPlan } from './types.js';

export async function placeWatermark(
  watermark: Buffer,
  width: number,
  height: number,
  plan: WatermarkPlan,
): Promise<{ body: Buffer; left: number; top: number }> {
  if (plan.position === 'CenterStretch') {
    const body = await sharp(watermark).resize({ width, height, fit: 'fill' }).png().toBuffer();
    return { body, left: 0, top: 0 };
  }
  const dx = Math.round((width * plan.offsetPercent) / 100);
  const dy = Math.round((height * plan.offsetPercent) / 100);
  const { data, info } = await sharp(watermark)
    .resize({ width: Math.max(1, width - 2 * dx), height: Math.max(1, height - 2 * dy), fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  const right = width - info.width - dx;
  const bottom = height - info.height - dy;
  switch (plan.position) {
    case 'TopLeft':
      return { body: data, left: dx, top: dy };
    case 'TopRight':
      return { body: data, left: right, top: dy };
    case 'BottomLeft':
      return { body: data, left: dx, top: bottom };
    case 'BottomRight':
      return { body: data, left: right, top: bottom };
    case 'Center':
      return { body: data, left: Math.floor((width - info.width) / 2), top: Math.floor((height - info.height) / 2) };
  }
}
